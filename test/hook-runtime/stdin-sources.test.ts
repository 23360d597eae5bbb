/**
 * The payload arrives whole whatever stdin is: a file, a shell pipe, a socket pair (how node
 * spawns), written at once or in parts with pauses, bigger than a pipe's buffer. What the hook
 * read is checked in the spool (no worker runs, none may start).
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import { DIST_BIN, tempDir, tempHome } from '../helpers/temp.js';
import { claudePayload, ensureBuilt, hookEnv, NO_AUTOSTART } from './helpers.js';

beforeAll(() => ensureBuilt(), 180_000);

const HOOK = [DIST_BIN, 'hook', 'claude-code', 'PostToolUse'];

function setup() {
  const h = tempHome();
  return { env: hookEnv(h.env, NO_AUTOSTART), dataDir: h.dataDir, cwd: tempDir('project') };
}

function payload(id: string, cwd: string, stdout: string, stderr = ''): string {
  return JSON.stringify(claudePayload('005-PostToolUse.json', {
    session_id: 'sess-stdin', tool_use_id: id, cwd, tool_input: { command: `echo ${id}` }, tool_response: { stdout, stderr },
  }));
}

function spooled(dataDir: string): CaptureEvent[] {
  const dir = join(dataDir, 'spool');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as CaptureEvent));
}

interface Exit {
  code: number | null;
  stderr: string;
}

/** Runs a command, writing `parts` to its stdin pipe (a socket pair) with a pause between them. */
function runWithParts(cmd: string, args: string[], env: NodeJS.ProcessEnv, parts: string[], pauseMs: number): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
    child.stdin!.on('error', () => {});
    const write = (i: number) => {
      if (i === parts.length - 1) return void child.stdin!.end(parts[i]);
      child.stdin!.write(parts[i]);
      setTimeout(() => write(i + 1), pauseMs);
    };
    write(0);
  });
}

function expectStored(dataDir: string, id: string, stdout: string, stderr = ''): void {
  const events = spooled(dataDir);
  expect(events).toHaveLength(1);
  expect(events[0].toolUseId).toBe(id);
  expect(events[0].toolResponse).toMatchObject({ stdout, stderr });
}

describe('hook stdin', () => {
  it('reads a regular file', async () => {
    const { env, dataDir, cwd } = setup();
    const file = join(tempDir('stdin'), 'payload.json');
    writeFileSync(file, payload('toolu_file', cwd, 'from a file'));
    const fd = openSync(file, 'r');
    try {
      const r = await new Promise<Exit>((resolve, reject) => {
        const child = spawn(process.execPath, HOOK, { env, stdio: [fd, 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
        child.on('error', reject);
        child.on('close', (code) => resolve({ code, stderr }));
      });
      expect(r).toEqual({ code: 0, stderr: '' });
    } finally {
      closeSync(fd);
    }
    expectStored(dataDir, 'toolu_file', 'from a file');
  });

  it('waits for the rest of a payload written in parts to a socket pair', async () => {
    const { env, dataDir, cwd } = setup();
    const text = payload('toolu_parts', cwd, 'written in three parts');
    const third = Math.floor(text.length / 3);
    const parts = [text.slice(0, third), text.slice(third, 2 * third), text.slice(2 * third)];
    const r = await runWithParts(process.execPath, HOOK, env, parts, 250);
    expect(r).toEqual({ code: 0, stderr: '' });
    expectStored(dataDir, 'toolu_parts', 'written in three parts');
  });

  it('waits for the rest of a payload written in parts to a shell pipe', async () => {
    const { env, dataDir, cwd } = setup();
    const text = payload('toolu_fifo', cwd, 'through a shell pipe');
    const half = Math.floor(text.length / 2);
    // The shell's `|` gives the hook a FIFO; the writer pauses between the halves.
    const script = `{ printf '%s' "$A"; sleep 0.3; printf '%s' "$B"; } | "$NODE" "$BIN" hook claude-code PostToolUse`;
    const r = await runWithParts('/bin/sh', ['-c', script], { ...env, A: text.slice(0, half), B: text.slice(half), NODE: process.execPath, BIN: DIST_BIN }, [''], 0);
    expect(r).toEqual({ code: 0, stderr: '' });
    expectStored(dataDir, 'toolu_fifo', 'through a shell pipe');
  });

  it('reads a payload bigger than a socket buffer', async () => {
    const { env, dataDir, cwd } = setup();
    // Four fields just under the stored size each: ~250 KB, more than the kernel buffers at once.
    const [stdout, stderr] = ['x', 'z'].map((c) => c.repeat(60 * 1024));
    const text = payload('toolu_big', cwd, stdout, stderr).replace('"tool_response"', `"padding":${JSON.stringify(['p', 'q'].map((c) => c.repeat(60 * 1024)))},"tool_response"`);
    expect(text.length).toBeGreaterThan(240 * 1024);
    const r = await runWithParts(process.execPath, HOOK, env, [text], 0);
    expect(r).toEqual({ code: 0, stderr: '' });
    expectStored(dataDir, 'toolu_big', stdout, stderr);
  });
});
