// `claude-mem import-history` as a user runs it: real processes on a temp HOME holding real
// Claude Code and Codex logs (the captured fixtures), copied as many sessions.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { DIST_BIN, FIXTURES, tempHome } from '../helpers/temp.js';
import { spawnCollect } from '../helpers/spawn.js';
import { counts } from './helpers.js';

const CLAUDE_SESSION = '3a198a8b-7eab-4cb5-a69e-e6477faacf11';
const CODEX_SESSION = '01a22c17-4ed4-7561-9d59-b934c4f76f3a';
const claudeText = readFileSync(join(FIXTURES, 'claude-code', 'sessions', `${CLAUDE_SESSION}.jsonl`), 'utf8');
const codexName = readdirSync(join(FIXTURES, 'codex', 'sessions')).find((f) => f.startsWith('rollout-'))!;
const codexText = readFileSync(join(FIXTURES, 'codex', 'sessions', codexName), 'utf8');

/** Session ids made unique per copy (the last 4 hex digits); ids inside stay the host's shape. */
const uuid = (base: string, n: number) => `${base.slice(0, -4)}${n.toString(16).padStart(4, '0')}`;

function seed(home: string, copies: number): void {
  const claudeDir = join(home, '.claude', 'projects', '-home-dev-projects-demo');
  const codexDir = join(home, '.codex', 'sessions', '2026', '11', '30');
  mkdirSync(claudeDir, { recursive: true });
  mkdirSync(codexDir, { recursive: true });
  for (let i = 0; i < copies; i++) {
    const c = uuid(CLAUDE_SESSION, i);
    writeFileSync(join(claudeDir, `${c}.jsonl`), claudeText.replaceAll(CLAUDE_SESSION, c).replaceAll('64162777-60c7-4933-a462-396be60bfee1', uuid('64162777-60c7-4933-a462-396be60bfee1', i)).replaceAll('toolu_', `toolu_${i}x`));
    const x = uuid(CODEX_SESSION, i);
    writeFileSync(join(codexDir, codexName.replace(CODEX_SESSION, x)), codexText.replaceAll(CODEX_SESSION, x).replaceAll('01a22c17-4f6a-7341-be49-284462e907a7', uuid('01a22c17-4f6a-7341-be49-284462e907a7', i)).replaceAll('call_', `call_${i}x`));
  }
}

const run = (env: NodeJS.ProcessEnv, args: string[]) => spawnCollect(process.execPath, [DIST_BIN, 'import-history', ...args], { env, timeoutMs: 120_000 });
const db = (dataDir: string) => join(dataDir, 'claude-mem.db');

describe('claude-mem import-history', () => {
  it('dry run: sessions and bytes per host, nothing written', async () => {
    const { home, dataDir, env } = tempHome();
    seed(home, 3);
    const r = await run(env, ['--dry-run', '--json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as { hosts: Array<{ host: string; sessions: number; bytes: number }> };
    expect(doc.hosts.map((h) => [h.host, h.sessions])).toEqual([['claude-code', 3], ['codex', 3]]);
    const codexDir = join(home, '.codex', 'sessions', '2026', '11', '30');
    expect(doc.hosts[1].bytes).toBe(readdirSync(codexDir).reduce((n, f) => n + statSync(join(codexDir, f)).size, 0));
    expect(() => readdirSync(dataDir)).toThrow();
  });

  it('stores each session, prompt (host id), tool call and answer once; a second run stores nothing', async () => {
    const { home, dataDir, env } = tempHome();
    seed(home, 2);
    const first = await run(env, ['--json']);
    expect(first.code, first.stderr).toBe(0);
    expect(counts(db(dataDir))).toMatchObject({ sessions: 4, prompts: 4, observations: 4, assistant: 4, summaries: 4 });
    expect(counts(db(dataDir)).promptIds).toContain('64162777-60c7-4933-a462-396be60bfee1'.slice(0, -4) + '0000');
    const second = await run(env, ['--json']);
    expect(JSON.parse(second.stdout)).toMatchObject({ ok: true, stored: 0 });
    expect(counts(db(dataDir))).toMatchObject({ sessions: 4, prompts: 4, observations: 4, assistant: 4, summaries: 4 });
  });

  it('--ide, --since and --project narrow what is read', async () => {
    const { home, dataDir, env } = tempHome();
    seed(home, 2);
    const none = await run(env, ['--ide', 'codex', '--project', join(home, 'elsewhere'), '--json']);
    expect(JSON.parse(none.stdout)).toMatchObject({ stored: 0, hosts: [{ host: 'codex', sessions: 0 }] });
    const future = await run(env, ['--since', '2999-01-01', '--dry-run', '--json']);
    expect(JSON.parse(future.stdout).hosts).toEqual([]);
    const codex = await run(env, ['--ide', 'codex', '--project', '/home/dev/projects', '--json']);
    expect(codex.code).toBe(0);
    expect(counts(db(dataDir))).toMatchObject({ sessions: 2, prompts: 2 });
    const bad = await run(env, ['--since', 'yesterday-ish']);
    expect(bad.code).toBe(2);
  });

  it('two imports at once store every event once', async () => {
    const { home, dataDir, env } = tempHome();
    seed(home, 20);
    const [a, b] = await Promise.all([run(env, ['--json']), run(env, ['--json'])]);
    expect([a.code, b.code], a.stderr + b.stderr).toEqual([0, 0]);
    expect(counts(db(dataDir))).toMatchObject({ sessions: 40, prompts: 40, observations: 40, assistant: 40, summaries: 40 });
  });

  it('malformed and truncated lines become dead letters; the import finishes', async () => {
    const { home, dataDir, env } = tempHome();
    seed(home, 1);
    const file = join(home, '.claude', 'projects', '-home-dev-projects-demo', `${uuid(CLAUDE_SESSION, 0)}.jsonl`);
    appendFileSync(file, '{"type":"user", this is not json}\n[1,2,3]\n{"type":"assistant","message":{"content":[{"type":"text","text":"cut off');
    // Nobody has written to it for an hour: the host crashed mid-record.
    const old = new Date(Date.now() - 3600_000);
    utimesSync(file, old, old);
    const r = await run(env, ['--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { deadLetters: number };
    expect(doc.deadLetters).toBe(3);
    expect(counts(db(dataDir))).toMatchObject({ prompts: 2, observations: 2 });
    const letters = () => new Database(db(dataDir), { readonly: true }).prepare('SELECT reason FROM dead_letters ORDER BY id').pluck().all();
    expect(letters().join('\n')).toMatch(/unparseable JSON[\s\S]*not a JSON object[\s\S]*ends inside a record/);
    const again = await run(env, ['--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ stored: 0, deadLetters: 0 });
    expect(letters()).toHaveLength(3);
  });

  it('Ctrl-C stops after a committed batch (exit 130); the next run resumes and the result equals one uninterrupted run', async () => {
    const { home, dataDir, env } = tempHome();
    seed(home, 150);
    const child = spawn(process.execPath, [DIST_BIN, 'import-history'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    const code = await new Promise<number | null>((resolve) => {
      const t = setInterval(() => {
        if (!err.includes('import:')) return;
        clearInterval(t);
        child.kill('SIGINT');
      }, 5);
      child.on('close', (c) => resolve(c));
    });
    expect(code, err).toBe(130);
    expect(err).toContain('run the same command again to resume');
    const partial = counts(db(dataDir));
    expect(partial.sessions).toBeLessThan(300);
    const again = await run(env, ['--json']);
    expect(again.code).toBe(0);
    expect(counts(db(dataDir))).toMatchObject({ sessions: 300, prompts: 300, observations: 300, assistant: 300, summaries: 300 });
  });
});

describe('claude-mem import-history with the worker running', () => {
  const start = (env: NodeJS.ProcessEnv) => spawnCollect(process.execPath, [DIST_BIN, 'start'], { env, timeoutMs: 30_000 });
  const stop = (env: NodeJS.ProcessEnv) => spawnCollect(process.execPath, [DIST_BIN, 'stop'], { env, timeoutMs: 30_000 });

  it('the worker runs the import (one writer); a re-run and Ctrl-C behave as without it', async () => {
    const { home, dataDir, env } = tempHome();
    seed(home, 150);
    expect((await start(env)).code).toBe(0);
    try {
      const child = spawn(process.execPath, [DIST_BIN, 'import-history'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
      const code = await new Promise<number | null>((resolve) => {
        const t = setInterval(() => { if (err.includes('import:')) { clearInterval(t); child.kill('SIGINT'); } }, 5);
        child.on('close', (c) => resolve(c));
      });
      expect(code, err).toBe(130);
      const r = await run(env, ['--json']);
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ via: 'worker', ok: true });
      expect(counts(db(dataDir))).toMatchObject({ sessions: 300, prompts: 300, observations: 300, assistant: 300, summaries: 300 });
      const again = await run(env, ['--json']);
      expect(JSON.parse(again.stdout)).toMatchObject({ via: 'worker', stored: 0 });
    } finally {
      await stop(env);
    }
  });
});
