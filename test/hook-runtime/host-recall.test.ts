/**
 * Recall for the hosts that read hook output at one place only (the kimi-code and grok-build READMEs in test/fixtures/hosts,
 * "Context injection"): Kimi Code the UserPromptSubmit stdout, Grok Build the PostToolUse
 * `additionalContext` — there once per session, on the first tool call. A worker that does not
 * answer costs at most the budget and the host gets an empty answer.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES, tempDir, tempHome } from '../helpers/temp.js';
import { claudePayload, cleanupWorker, countRows, ensureBuilt, hookEnv, NO_AUTOSTART, runHook, startWorker, waitFor } from './helpers.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
beforeAll(() => ensureBuilt(), 180_000);

const MARKER = 'seeded-observation-7272';
const FILES: Record<string, string> = {
  'kimi-code/UserPromptSubmit': '002-UserPromptSubmit.json', 'grok-build/SessionStart': '001-SessionStart.json', 'grok-build/PostToolUse': '004-PostToolUse.json',
};
/** A captured payload of `fixtureDir` with some fields replaced. */
const captured = (fixtureDir: string, event: string, patch: Record<string, unknown>) =>
  JSON.stringify({ ...JSON.parse(readFileSync(join(FIXTURES, fixtureDir, 'hooks', FILES[`${fixtureDir}/${event}`]), 'utf8')), ...patch });

/** A worker with one earlier session in `cwd` whose command printed MARKER. */
async function seededWorker() {
  const h = tempHome();
  const env = hookEnv(h.env);
  cleanups.push(() => cleanupWorker(env, h.dataDir));
  const cwd = tempDir('project');
  startWorker(env);
  const seed = JSON.stringify(claudePayload('005-PostToolUse.json', {
    session_id: 'sess-earlier', cwd, tool_use_id: 'toolu_seed', tool_input: { command: `echo ${MARKER}` }, tool_response: { stdout: MARKER, stderr: '' },
  }));
  expect((await runHook(env, 'claude-code', 'PostToolUse', seed, cwd)).code).toBe(0);
  await waitFor(() => countRows(h.dataDir, 'SELECT count(*) AS n FROM observations') > 0, 15_000);
  return { h, env, cwd };
}

const additional = (stdout: string) => (stdout.trim() ? (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext : '');

describe('recall through the one channel each host reads', () => {
  it("Kimi Code: UserPromptSubmit prints the memory as plain text (the prompt itself is TurnStarted's to store)", async () => {
    const { h, env, cwd } = await seededWorker();
    const r = await runHook(env, 'kimi', 'UserPromptSubmit', captured('kimi-code', 'UserPromptSubmit', { cwd, session_id: 'session_kimi-1' }), cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(MARKER);
    expect(() => JSON.parse(r.stdout)).toThrow(); // plain text, as Kimi Code wraps it in <hook_result>
    expect(countRows(h.dataDir, "SELECT count(*) AS n FROM prompts WHERE host = 'kimi'")).toBe(0);
  }, 60_000);

  it('Grok Build: the first PostToolUse of a session carries the memory, later ones and SessionStart none', async () => {
    const { env, cwd } = await seededWorker();
    const session = { cwd, workspaceRoot: `${cwd}/`, sessionId: 'grok-recall-1', session_id: 'grok-recall-1' };
    const start = await runHook(env, 'grok', 'SessionStart', captured('grok-build', 'SessionStart', session), cwd);
    expect(start.stdout.trim()).toBe('');
    const first = await runHook(env, 'grok', 'PostToolUse', captured('grok-build', 'PostToolUse', { ...session, toolUseId: 'c1', tool_use_id: 'c1' }), cwd);
    expect(additional(first.stdout)).toContain(MARKER);
    const second = await runHook(env, 'grok', 'PostToolUse', captured('grok-build', 'PostToolUse', { ...session, toolUseId: 'c2', tool_use_id: 'c2' }), cwd);
    expect(second.code).toBe(0);
    expect(second.stdout.trim()).toBe('');
    // Another session gets it again.
    const other = { ...session, sessionId: 'grok-recall-2', session_id: 'grok-recall-2' };
    const third = await runHook(env, 'grok', 'PostToolUse', captured('grok-build', 'PostToolUse', { ...other, toolUseId: 'c3', tool_use_id: 'c3' }), cwd);
    expect(additional(third.stdout)).toContain(MARKER);
  }, 60_000);

  for (const [host, event, file] of [['kimi', 'UserPromptSubmit', 'kimi-code'], ['grok', 'PostToolUse', 'grok-build']] as const) {
    it(`${host} ${event}: a worker that never answers gives an empty answer within the budget`, async () => {
      const h = tempHome();
      const sockets: Socket[] = [];
      const server = createServer((s) => {
        sockets.push(s);
        s.on('error', () => {});
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      cleanups.push(() => {
        for (const s of sockets) s.destroy();
        server.close();
      });
      mkdirSync(h.dataDir, { recursive: true });
      writeFileSync(join(h.dataDir, 'worker.json'), JSON.stringify({
        pid: process.pid, port: (server.address() as AddressInfo).port, version: '0.0.0', startedAt: new Date().toISOString(), dataDir: h.dataDir, instanceId: 'silent',
      }));
      writeFileSync(join(h.dataDir, 'worker.token'), 'test-token\n', { mode: 0o600 });
      const env = hookEnv(h.env, { ...NO_AUTOSTART, CLAUDE_MEM_CONTEXT_BUDGET_MS: '400' });
      const cwd = tempDir('project');
      const r = await runHook(env, host, event, captured(file, event, { cwd }), cwd);
      expect(r.code).toBe(0);
      expect(r.stdout.trim()).toBe('');
      expect(r.ms).toBeLessThan(400 + 1000);
    }, 30_000);
  }
});
