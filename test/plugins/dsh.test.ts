/**
 * The built DeepSeek Harness plugin (dist/plugins/dsh/index.js) in a Cordis context that
 * dispatches `agent/session-start` exactly as the harness does (test/plugins/dsh-harness.ts): one
 * `{ source, agent }` payload, and an `agent.inject` that accepts only an identified UserMessage.
 * It only recalls: capture is the transcript watch's, so nothing may ever be POSTed to /api/events.
 */
import { describe, expect, it } from 'vitest';
import { pluginTestLifecycle, startFakeWorker, waitUntil } from './opencode-harness.js';
import { ensureBundles, importModule, installCopy } from './pi-harness.js';
import { checkUserMessage, cordisApp, currentAgent, earlierAgent } from './dsh-harness.js';

const CWD = '/home/dev/projects/demo';
const SESSION = 'sess_01J9Z8QK3M';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Mod = { name: string; inject: string[]; apply(ctx: unknown, config?: unknown): void; default?: unknown };

const t = pluginTestLifecycle(() => ensureBundles(['dsh']), ['CLAUDE_MEM_DATA_DIR']);

async function load(withWorker = true) {
  const p = installCopy('dsh');
  if (withWorker) t.worker = await startFakeWorker(p.dataDir);
  const mod = await importModule<Mod>(p.file);
  const app = cordisApp();
  mod.apply(app.ctx, {});
  return { ...app, mod, w: t.worker };
}

describe('DeepSeek Harness plugin (recall only)', () => {
  it('uses named exports (name, inject, apply) and no default export', async () => {
    const { mod } = await load(false);
    expect(mod.default).toBeUndefined();
    expect(mod.name).toBe('claude-mem');
    expect(mod.inject).toEqual([]);
    expect(typeof mod.apply).toBe('function');
  });

  it('the harness refuses the call shape of the earlier agent API (so the next test can fail)', () => {
    expect(() => checkUserMessage([[{ type: 'text', text: 'x' }], { source: { kind: 'plugin', plugin: 'claude-mem' } }])).toThrow(TypeError);
    expect(() => checkUserMessage([{ role: 'user', content: [{ type: 'text', text: 'x' }], source: { kind: 'plugin', plugin: 'p' } }])).toThrow(/fields|id/);
  });

  it('injects one UserMessage holding the memory context, plugin-sourced, when a top-level session starts; never captures', async () => {
    const { emitAgentEvent, listeners, warnings, w } = await load();
    expect([...listeners.keys()]).toEqual(['agent/session-start']);
    const a = currentAgent({ version: 0, id: SESSION, cwd: CWD, createdAt: 1796032800000 });
    emitAgentEvent('agent/session-start', a, { source: 'startup' });
    await waitUntil(() => a.injected.length === 1);
    const [m] = a.injected;
    expect(m).toEqual({ id: expect.stringMatching(UUID), role: 'user', content: [{ type: 'text', text: w!.contextText }], source: { kind: 'plugin', plugin: 'claude-mem' } });
    expect(Object.isFrozen(m)).toBe(true);
    expect(warnings).toEqual([]);
    expect(Object.fromEntries(w!.calls.find((c) => c.path === '/api/context')!.query)).toMatchObject({ cwd: CWD, host: 'dsh', session: SESSION });
    expect(w!.calls.filter((c) => c.path === '/api/events')).toEqual([]);

    // A second session gets its own message id.
    const b = currentAgent({ version: 0, id: 'sess_02', cwd: CWD, createdAt: 1796032800001 });
    emitAgentEvent('agent/session-start', b, { source: 'resume' });
    await waitUntil(() => b.injected.length === 1);
    expect(b.injected[0].id).not.toBe(m.id);
  });

  it('earlier harness releases: (agent, source) listeners and inject(content, { source })', async () => {
    const { emitPositional, w } = await load();
    const a = earlierAgent({ id: SESSION, cwd: CWD });
    emitPositional('agent/session-start', a, 'startup');
    await waitUntil(() => a.injected.length === 1);
    expect(a.injected[0]).toEqual({ content: [{ type: 'text', text: w!.contextText }], source: { kind: 'plugin', plugin: 'claude-mem' } });
  });

  it('leaves subagents alone', async () => {
    const { emitAgentEvent, w } = await load();
    const a = currentAgent({ id: 'child-1', cwd: CWD, parentSession: SESSION, delegationDepth: 1 });
    emitAgentEvent('agent/session-start', a, { source: 'startup' });
    await new Promise((r) => setTimeout(r, 200));
    expect(a.injected).toEqual([]);
    expect(w!.calls.filter((c) => c.path === '/api/context')).toEqual([]);
  });

  it('with no worker (and none startable), session start goes on: nothing injected, nothing thrown', async () => {
    const { emitAgentEvent, emitPositional, warnings } = await load(false);
    const a = currentAgent({ id: SESSION, cwd: CWD });
    emitAgentEvent('agent/session-start', a, { source: 'startup' });
    emitAgentEvent('agent/session-start', { session: null }, { source: 'startup' });
    emitPositional('agent/session-start', undefined);
    emitPositional('agent/session-start', { agent: 'not an agent' });
    await new Promise((r) => setTimeout(r, 300));
    expect(a.injected).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
