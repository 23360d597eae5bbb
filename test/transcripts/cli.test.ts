import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { register } from '../../src/npx-cli/commands/transcript.js';
import { dataPaths } from '../../src/shared/paths.js';
import { tempDir } from '../helpers/temp.js';
import { FIXTURE_DIR, rows } from './helpers.js';

afterEach(() => { process.exitCode = undefined; vi.restoreAllMocks(); });

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((s) => { out.push(String(s)); return true; });
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => { err.push(String(s)); return true; });
  try {
    const program = new Command('claude-mem').exitOverride();
    register(program);
    await program.parseAsync(['transcript', ...args], { from: 'user' });
  } finally {
    vi.restoreAllMocks();
  }
  return { out: out.join(''), err: err.join(''), code: process.exitCode ?? 0 };
}

/** Each test gets its own data directory. */
function freshDataDir(): string {
  const dir = tempDir('cm-data');
  process.env.CLAUDE_MEM_DATA_DIR = dir;
  return dir;
}

describe('claude-mem transcript ingest', () => {
  it('imports past sessions once: a second run stores nothing new', async () => {
    const data = freshDataDir();
    const src = tempDir('past');
    cpSync(join(FIXTURE_DIR, 'dsh'), join(src, 'dsh'), { recursive: true });
    const glob = `${src}/dsh/**/session.jsonl`;
    const first = await cli(['ingest', glob, '--schema', 'dsh', '--json']);
    expect(first.code).toBe(0);
    const a = JSON.parse(first.out) as { files: number; stored: number; duplicates: number; deadLetters: number };
    expect(a).toMatchObject({ files: 1, deadLetters: 0 });
    expect(a.stored).toBeGreaterThan(5);
    const before = rows(dataPaths(data).db);

    const second = await cli(['ingest', glob, '--schema', 'dsh', '--json']);
    expect(JSON.parse(second.out)).toMatchObject({ files: 1, stored: 0, deadLetters: 0 });
    expect(rows(dataPaths(data).db)).toEqual(before);

    // Human output names each file and the totals.
    const third = await cli(['ingest', glob, '--schema', 'dsh']);
    expect(third.out).toContain('0 event(s) stored');
  });

  it('rejects an unknown schema as a usage error', async () => {
    freshDataDir();
    await expect(cli(['ingest', '/nowhere/*.jsonl', '--schema', 'nope'])).rejects.toThrow(/unknown schema "nope"/);
  });
});

describe('claude-mem transcript watch --once', () => {
  it('reads what the config points at into the database, then exits', async () => {
    const data = freshDataDir();
    const src = tempDir('grok');
    cpSync(join(FIXTURE_DIR, 'grok'), join(src, 'sessions'), { recursive: true });
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'transcript-watch.json'), JSON.stringify({ watches: [{ name: 'grok', path: `${src}/sessions/*/*/chat_history.jsonl`, schema: 'grok-bot' }] }));
    const r = await cli(['watch', '--once', '--json']);
    expect(r.code).toBe(0);
    const status = JSON.parse(r.out) as { files: unknown[]; totals: { eventsStored: number } };
    expect(status.files).toHaveLength(1);
    expect(status.totals.eventsStored).toBeGreaterThan(3);
    expect(rows(dataPaths(data).db).prompts.map((p) => p.text)).toEqual(['what is in package.json?', 'thanks']);
  });
});
