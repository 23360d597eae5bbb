/**
 * Nothing is lost: an event is acknowledged by the worker or spooled before the hook exits, and
 * the worker drains the spool. Counted in the database, not assumed.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TRUNCATION_MARKER } from '../../src/shared/capture-event.js';
import { tempDir, tempHome } from '../helpers/temp.js';
import {
  claudePayload, cleanupWorker, countRows, ensureBuilt, hookEnv, NO_AUTOSTART, queryDb, runHook, startWorker, waitFor, workerInfo,
} from './helpers.js';

const spoolFiles = (dataDir: string) =>
  existsSync(join(dataDir, 'spool')) ? readdirSync(join(dataDir, 'spool')).filter((f) => f.endsWith('.jsonl')) : [];

const toolPayload = (session: string, id: string, cwd: string) =>
  JSON.stringify(claudePayload('005-PostToolUse.json', {
    session_id: session, tool_use_id: id, cwd, tool_input: { command: `echo ${id}` }, tool_response: { stdout: id, stderr: '' },
  }));

const eventsOf = (dataDir: string, session: string) =>
  countRows(dataDir, 'SELECT count(*) AS n FROM events e JOIN sessions s ON s.id = e.session_id WHERE s.host_session_id = ?', session);

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

function home(extra: NodeJS.ProcessEnv = {}) {
  const h = tempHome();
  const env = hookEnv(h.env, extra);
  const cleanEnv = hookEnv(h.env);
  cleanups.push(() => cleanupWorker(cleanEnv, h.dataDir));
  return { ...h, env, cleanEnv, cwd: tempDir('project') };
}

beforeAll(() => ensureBuilt(), 180_000);

describe('durable capture', () => {
  it('spools while the worker is down; a started worker drains it and stores each event once', async () => {
    const { env, cleanEnv, dataDir, cwd } = home(NO_AUTOSTART);
    for (const id of ['toolu_a', 'toolu_b', 'toolu_a']) {
      const r = await runHook(env, 'claude-code', 'PostToolUse', toolPayload('sess-durable', id, cwd));
      expect(r.code).toBe(0);
    }
    expect(spoolFiles(dataDir)).toHaveLength(3);
    startWorker(cleanEnv);
    await waitFor(() => spoolFiles(dataDir).length === 0, 15_000);
    await waitFor(() => eventsOf(dataDir, 'sess-durable') === 2, 10_000);
    // A later redelivery of the same ids stores nothing new.
    await runHook(cleanEnv, 'claude-code', 'PostToolUse', toolPayload('sess-durable', 'toolu_b', cwd));
    expect(eventsOf(dataDir, 'sess-durable')).toBe(2);
  }, 60_000);

  it('starts the worker itself when none runs, and the event is stored', async () => {
    const { env, dataDir, cwd } = home();
    const r = await runHook(env, 'claude-code', 'PostToolUse', toolPayload('sess-autostart', 'toolu_auto', cwd));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    await waitFor(() => eventsOf(dataDir, 'sess-autostart') === 1, 20_000);
    expect(spoolFiles(dataDir)).toHaveLength(0);
  }, 60_000);

  it('keeps an event the worker refuses as too large (413): truncated, marked and stored', async () => {
    const { env, dataDir, cwd } = home();
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'settings.json'), JSON.stringify({ maxEventsBodyBytes: 16 * 1024 }));
    startWorker(env);
    const big = `${'line of build output\n'.repeat(3000)}`;
    const payload = JSON.stringify(claudePayload('005-PostToolUse.json', {
      session_id: 'sess-413', tool_use_id: 'toolu_413', cwd, tool_input: { command: 'npm run build' }, tool_response: { stdout: big, stderr: '' },
    }));
    const r = await runHook(hookEnv(env, { CLAUDE_MEM_DEBUG: '1' }), 'claude-code', 'PostToolUse', payload, cwd);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/too large/);
    await waitFor(() => eventsOf(dataDir, 'sess-413') === 1, 10_000);
    const stored = queryDb(dataDir, (db) => (db.prepare("SELECT payload FROM events WHERE kind = 'tool_result'").get() as { payload: string }).payload);
    expect(stored).toContain(TRUNCATION_MARKER);
    expect(spoolFiles(dataDir)).toHaveLength(0);
  }, 60_000);

  it('loses nothing when the worker is killed with SIGKILL in the middle of 200 hooks', async () => {
    const { env, dataDir, cwd } = home();
    startWorker(env);
    const first = workerInfo(dataDir)!;
    const total = 200;
    let next = 0;
    let killed = false;
    const codes: (number | null)[] = [];
    const lane = async () => {
      while (next < total) {
        const i = next++;
        if (i === 60 && !killed) {
          killed = true;
          process.kill(first.pid, 'SIGKILL');
        }
        const r = await runHook(env, 'claude-code', 'PostToolUse', toolPayload('sess-kill', `toolu_k${i}`, cwd));
        codes.push(r.code);
      }
    };
    await Promise.all(Array.from({ length: 6 }, lane));
    expect(codes.filter((c) => c === 0)).toHaveLength(total);
    // Whatever the hooks did not deliver is in the spool; a running worker drains it.
    startWorker(env);
    expect(workerInfo(dataDir)!.pid).not.toBe(first.pid);
    await waitFor(() => eventsOf(dataDir, 'sess-kill') === total && spoolFiles(dataDir).length === 0, 30_000);
    expect(eventsOf(dataDir, 'sess-kill')).toBe(total);
  }, 180_000);
});
