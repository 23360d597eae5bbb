/**
 * Hosts fire hooks in parallel, and retry them: 50 concurrent hooks of one session, with repeated
 * tool-use ids, repeated prompt ids and byte-identical payloads, store each distinct event once.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tempDir, tempHome } from '../helpers/temp.js';
import { claudePayload, cleanupWorker, countRows, ensureBuilt, hookEnv, runHook, startWorker, waitFor } from './helpers.js';

interface Call {
  event: string;
  payload: string;
}

/** 20 tool results (10 ids sent twice, byte-identical), 10 prompts (5 ids, each twice), 10 more ids once, 10 exact repeats. */
function calls(session: string, cwd: string): { list: Call[]; distinctTools: number; distinctPrompts: number } {
  const tool = (id: string) => ({
    event: 'PostToolUse',
    payload: JSON.stringify(claudePayload('005-PostToolUse.json', {
      session_id: session, cwd, tool_use_id: id, tool_input: { command: `echo ${id}` }, tool_response: { stdout: id, stderr: '' },
    })),
  });
  const prompt = (id: string) => ({
    event: 'UserPromptSubmit',
    payload: JSON.stringify(claudePayload('003-UserPromptSubmit.json', { session_id: session, cwd, prompt_id: id, prompt: `do task ${id}` })),
  });
  const list: Call[] = [];
  for (let i = 0; i < 10; i++) list.push(tool(`toolu_dup${i}`), tool(`toolu_dup${i}`));
  for (let i = 0; i < 5; i++) list.push(prompt(`prompt-${i}`), prompt(`prompt-${i}`));
  for (let i = 0; i < 10; i++) list.push(tool(`toolu_one${i}`));
  for (let i = 0; i < 10; i++) list.push(list[i * 2]);
  return { list, distinctTools: 20, distinctPrompts: 5 };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

beforeAll(() => ensureBuilt(), 180_000);

describe('50 concurrent hooks of one session', () => {
  for (const workerUp of [true, false]) {
    it(`store each distinct event once (worker ${workerUp ? 'running' : 'down at first'})`, async () => {
      const h = tempHome();
      const env = hookEnv(h.env);
      cleanups.push(() => cleanupWorker(env, h.dataDir));
      const cwd = tempDir('project');
      if (workerUp) startWorker(env);
      const session = `sess-concurrent-${workerUp ? 'up' : 'down'}`;
      const { list, distinctTools, distinctPrompts } = calls(session, cwd);
      expect(list).toHaveLength(50);
      const results = await Promise.all(list.map((c) => runHook(env, 'claude-code', c.event, c.payload, cwd)));
      for (const r of results) {
        expect(r.code).toBe(0);
        expect(r.stderr).toBe('');
      }
      // Down at first: the hooks spooled, and one of them started the worker (under the start lock), which drains the spool.
      if (!workerUp) await waitFor(() => countRows(h.dataDir, 'SELECT count(*) AS n FROM events') > 0, 20_000).catch(() => undefined);
      const bySession = (table: string, cond = '1') =>
        countRows(h.dataDir, `SELECT count(*) AS n FROM ${table} x JOIN sessions s ON s.id = x.session_id WHERE s.host_session_id = ? AND ${cond}`, session);
      await waitFor(() => bySession('events') === distinctTools + distinctPrompts, 20_000);
      expect(bySession('events', "x.kind = 'tool_result'")).toBe(distinctTools);
      expect(bySession('prompts')).toBe(distinctPrompts);
      expect(countRows(h.dataDir, 'SELECT count(*) AS n FROM sessions WHERE host_session_id = ?', session)).toBe(1);
    }, 120_000);
  }
});
