/**
 * The built DeepSeek Harness plugin (dist/plugins/dsh/index.js) against a Cordis context of the
 * shape DeepSeek Harness's own plugins use (named exports; `ctx.on('agent/session-start',
 * (agent, source))`; `agent.inject(content, {source})`; `agent.session.header`). It only recalls:
 * capture is the transcript watch's, so nothing may ever be POSTed to /api/events.
 */
import { describe, expect, it } from 'vitest';
import { pluginTestLifecycle, startFakeWorker, waitUntil } from './opencode-harness.js';
import { ensureBundles, importModule, installCopy } from './pi-harness.js';

const CWD = '/home/dev/projects/demo';
const SESSION = 'sess_01J9Z8QK3M';

interface Injected { content: { type: string; text: string }[]; opts: { source: { kind: string; plugin: string } } }

function cordis() {
  const listeners = new Map<string, ((...a: unknown[]) => unknown)[]>();
  const warnings: string[] = [];
  const ctx = {
    on(event: string, fn: (...a: unknown[]) => unknown) {
      listeners.set(event, [...(listeners.get(event) ?? []), fn]);
      return () => undefined;
    },
    logger: { warn: (m: string) => warnings.push(m) },
  };
  const emit = (event: string, ...args: unknown[]) => { for (const fn of listeners.get(event) ?? []) fn(...args); };
  return { ctx, listeners, warnings, emit };
}

function agent(header: Record<string, unknown>) {
  const injected: Injected[] = [];
  return { injected, session: { header }, inject: (content: Injected['content'], opts: Injected['opts']) => { injected.push({ content, opts }); } };
}

type Mod = { name: string; inject: string[]; apply(ctx: unknown, config?: unknown): void; default?: unknown };

const t = pluginTestLifecycle(() => ensureBundles(['dsh']), ['CLAUDE_MEM_DATA_DIR']);

async function load(withWorker = true) {
  const p = installCopy('dsh');
  if (withWorker) t.worker = await startFakeWorker(p.dataDir);
  const mod = await importModule<Mod>(p.file);
  const c = cordis();
  mod.apply(c.ctx, {});
  return { ...c, mod, w: t.worker };
}

describe('DeepSeek Harness plugin (recall only)', () => {
  it('uses named exports (name, inject, apply) and no default export', async () => {
    const { mod } = await load(false);
    expect(mod.default).toBeUndefined();
    expect(mod.name).toBe('claude-mem');
    expect(mod.inject).toEqual([]);
    expect(typeof mod.apply).toBe('function');
  });

  it('injects the memory context, marked plugin-sourced, when a top-level session starts; never captures', async () => {
    const { emit, listeners, w } = await load();
    expect([...listeners.keys()]).toEqual(['agent/session-start']);
    const a = agent({ id: SESSION, cwd: CWD, createdAt: '2026-11-30T10:00:00Z' });
    emit('agent/session-start', a, 'startup');
    await waitUntil(() => a.injected.length === 1);
    expect(a.injected[0]).toEqual({ content: [{ type: 'text', text: w!.contextText }], opts: { source: { kind: 'plugin', plugin: 'claude-mem' } } });
    expect(Object.fromEntries(w!.calls.find((c) => c.path === '/api/context')!.query)).toMatchObject({ cwd: CWD, host: 'dsh', session: SESSION });
    expect(w!.calls.filter((c) => c.path === '/api/events')).toEqual([]);
  });

  it('leaves subagents alone', async () => {
    const { emit, w } = await load();
    const a = agent({ id: 'child-1', cwd: CWD, parentSession: SESSION, delegationDepth: 1 });
    emit('agent/session-start', a, 'spawn');
    await new Promise((r) => setTimeout(r, 200));
    expect(a.injected).toEqual([]);
    expect(w!.calls.filter((c) => c.path === '/api/context')).toEqual([]);
  });

  it('with no worker (and none startable), session start goes on: nothing injected, nothing thrown', async () => {
    const { emit } = await load(false);
    const a = agent({ id: SESSION, cwd: CWD });
    expect(() => emit('agent/session-start', a, 'startup')).not.toThrow();
    expect(() => emit('agent/session-start', { session: null }, 'startup')).not.toThrow();
    expect(() => emit('agent/session-start', undefined)).not.toThrow();
    await new Promise((r) => setTimeout(r, 300));
    expect(a.injected).toEqual([]);
  });
});
