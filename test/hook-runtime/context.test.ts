/**
 * Context hooks: what an earlier session did comes back at session start; a worker that does not
 * answer costs at most the budget, and the host still gets a valid answer.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, tempHome } from '../helpers/temp.js';
import { claudePayload, cleanupWorker, countRows, ensureBuilt, hookEnv, NO_AUTOSTART, runHook, startWorker, waitFor } from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

beforeAll(() => ensureBuilt(), 180_000);

/** A process that accepts connections on the recorded port and never says a word. */
async function silentServer(): Promise<{ port: number; close(): void }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((s) => {
    sockets.push(s);
    s.on('error', () => {});
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

function parseContext(stdout: string): string {
  if (!stdout.trim()) return '';
  const out = JSON.parse(stdout) as { hookSpecificOutput?: { hookEventName?: string; additionalContext?: string } };
  expect(out.hookSpecificOutput?.hookEventName).toBe('SessionStart');
  return out.hookSpecificOutput?.additionalContext ?? '';
}

describe('context at session start', () => {
  it('returns what an earlier session in the project did', async () => {
    const h = tempHome();
    const env = hookEnv(h.env);
    cleanups.push(() => cleanupWorker(env, h.dataDir));
    const cwd = tempDir('project');
    startWorker(env);
    const marker = 'seeded-observation-6161';
    const seed = JSON.stringify(claudePayload('005-PostToolUse.json', {
      session_id: 'sess-earlier', cwd, tool_use_id: 'toolu_seed', tool_input: { command: `echo ${marker}` }, tool_response: { stdout: marker, stderr: '' },
    }));
    expect((await runHook(env, 'claude-code', 'PostToolUse', seed, cwd)).code).toBe(0);
    await waitFor(() => countRows(h.dataDir, 'SELECT count(*) AS n FROM observations') > 0, 15_000);

    const start = JSON.stringify(claudePayload('001-SessionStart.json', { session_id: 'sess-later', cwd }));
    const r = await runHook(env, 'claude-code', 'SessionStart', start, cwd);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(parseContext(r.stdout)).toContain(marker);
  }, 60_000);

  it('starts a worker when none runs and still answers within the budget', async () => {
    const h = tempHome();
    const env = hookEnv(h.env);
    cleanups.push(() => cleanupWorker(env, h.dataDir));
    const cwd = tempDir('project');
    const r = await runHook(env, 'claude-code', 'SessionStart', JSON.stringify(claudePayload('001-SessionStart.json', { session_id: 'sess-cold', cwd })), cwd);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    parseContext(r.stdout);
    expect(r.ms).toBeLessThan(1500 + 1000);
    await waitFor(() => countRows(h.dataDir, "SELECT count(*) AS n FROM sessions WHERE host_session_id = 'sess-cold'") === 1, 15_000);
  }, 30_000);

  for (const [label, budgetMs, extra] of [
    ['the default budget', 1500, {}],
    ['a budget from settings.json', 400, { settings: { contextBudgetMs: 400 } }],
    ['a budget from CLAUDE_MEM_CONTEXT_BUDGET_MS', 300, { env: { CLAUDE_MEM_CONTEXT_BUDGET_MS: '300' } }],
  ] as const) {
    it(`answers within ${label} when the worker accepts connections but never answers`, async () => {
      const h = tempHome();
      const silent = await silentServer();
      cleanups.push(() => silent.close());
      mkdirSync(h.dataDir, { recursive: true });
      // The recorded worker is alive (this test process) and its port answers nothing.
      writeFileSync(join(h.dataDir, 'worker.json'), JSON.stringify({
        pid: process.pid, port: silent.port, version: '0.0.0', startedAt: new Date().toISOString(), dataDir: h.dataDir, instanceId: 'silent',
      }));
      writeFileSync(join(h.dataDir, 'worker.token'), 'test-token\n', { mode: 0o600 });
      if ('settings' in extra) writeFileSync(join(h.dataDir, 'settings.json'), JSON.stringify(extra.settings));
      const env = hookEnv(h.env, { ...NO_AUTOSTART, ...('env' in extra ? extra.env : {}) });
      const cwd = tempDir('project');
      const r = await runHook(env, 'claude-code', 'SessionStart', JSON.stringify(claudePayload('001-SessionStart.json', { session_id: 'sess-hung', cwd })), cwd);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(parseContext(r.stdout)).toBe('');
      // Generous slack: this checks "bounded by the budget", not a tight timing.
      expect(r.ms).toBeLessThan(budgetMs + 1000);
    }, 30_000);
  }
});
