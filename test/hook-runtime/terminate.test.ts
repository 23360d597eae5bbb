/**
 * A host that ends a hook with SIGTERM and SIGKILL 100 ms later (Kimi Code does so to PostToolUse
 * at the end of every turn) loses nothing: the events in flight are spooled synchronously on
 * SIGTERM, and stored once when the worker drains them.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIST_BIN, FIXTURES, tempDir, tempHome } from '../helpers/temp.js';
import { cleanupWorker, countRows, ensureBuilt, hookEnv, NO_AUTOSTART, startWorker, waitFor } from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
beforeAll(() => ensureBuilt(), 180_000);

/** A "worker" that accepts the hook's POST and never answers; resolves when the hook connects. */
async function hangingWorker(dataDir: string): Promise<{ connected: Promise<void>; close(): void }> {
  const sockets: Socket[] = [];
  let onConnect: () => void = () => {};
  const connected = new Promise<void>((r) => (onConnect = r));
  const server = createServer((s) => {
    sockets.push(s);
    s.on('error', () => {});
    s.once('data', () => onConnect());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'worker.json'), JSON.stringify({
    pid: process.pid, port: (server.address() as AddressInfo).port, version: '0.0.0', startedAt: new Date().toISOString(), dataDir, instanceId: 'hanging',
  }));
  writeFileSync(join(dataDir, 'worker.token'), 'test-token\n', { mode: 0o600 });
  return {
    connected,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

const spooled = (dataDir: string): string[] => {
  const dir = join(dataDir, 'spool');
  return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => readFileSync(join(dir, f), 'utf8')) : [];
};

describe('a hook the host terminates', () => {
  it('spools its event on SIGTERM, before the SIGKILL 100 ms later, and the worker stores it once', async () => {
    const h = tempHome();
    const cwd = tempDir('project');
    const worker = await hangingWorker(h.dataDir);
    cleanups.push(() => worker.close());
    const env = hookEnv(h.env, NO_AUTOSTART);
    const payload = JSON.parse(readFileSync(join(FIXTURES, 'kimi-code', 'hooks', '005-PostToolUse.json'), 'utf8')) as Record<string, unknown>;
    const child = spawn(process.execPath, [DIST_BIN, 'hook', 'kimi', 'PostToolUse'], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on('close', (code, signal) => r({ code, signal })));
    child.stdin.end(JSON.stringify({ ...payload, cwd }));
    // Kimi Code's abort: SIGTERM while the delivery is in flight, SIGKILL 100 ms later.
    await worker.connected;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 100);
    const end = await exited;
    clearTimeout(killer);
    expect(end).toEqual({ code: 0, signal: null });
    const lines = spooled(h.dataDir).join('');
    expect(lines).toContain('call_sr1i3ibzwv');
    expect(lines).toContain('hello-from-mock');

    // The real worker drains it: one tool result, however often it was delivered.
    worker.close();
    const real = hookEnv(h.env);
    cleanups.push(() => cleanupWorker(real, h.dataDir));
    startWorker(real);
    await waitFor(() => spooled(h.dataDir).length === 0, 15_000);
    const sql = "SELECT count(*) AS n FROM events WHERE kind = 'tool_result' AND host = 'kimi'";
    await waitFor(() => countRows(h.dataDir, sql) === 1, 10_000);
    expect(countRows(h.dataDir, 'SELECT count(*) AS n FROM observations')).toBe(1);
  }, 60_000);
});
