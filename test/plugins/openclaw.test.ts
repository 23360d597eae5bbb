/**
 * The built OpenClaw plugin (dist/plugins/openclaw/: index.js, openclaw.plugin.json,
 * package.json) loaded the way OpenClaw 2026.9 loads a native plugin (the default export's
 * `register(api)`, typed hooks through `api.on`) and driven by the 24 hook calls OpenClaw
 * 2026.9.6 really made (test/fixtures/hosts/openclaw/events/plugin-hooks.jsonl), against a
 * fake worker.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import { listSpool, readSpool } from '../../src/shared/spool.js';
import { pluginTestLifecycle, startFakeWorker, waitUntil } from './opencode-harness.js';
import { ensureBundles, importModule, installCopy, OPENCLAW_FIXTURE } from './pi-harness.js';

const SESSION = '2ca8660e-5720-4ac4-93f3-2618843d13aa';
const RUN = '97381ac0-a4bb-47f9-9540-2953a495ae2b';
const CWD = '/home/dev/projects/demo';

interface HookRecord {
  hook: string;
  event?: Record<string, unknown>;
  ctx?: Record<string, unknown>;
  registrationMode?: string;
}

const records: HookRecord[] = readFileSync(join(OPENCLAW_FIXTURE, 'events', 'plugin-hooks.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as HookRecord);

type Handler = (event: unknown, ctx: unknown) => unknown;
interface Entry { id: string; name: string; description: string; register(api: unknown): void }

/** OpenClaw's plugin API as the plugin sees it: `api.on(hook, handler, opts)`, registration mode, config. */
function openclawApi(mode = 'full', config: Record<string, unknown> = {}) {
  const hooks = new Map<string, { handler: Handler; opts?: { timeoutMs?: number } }[]>();
  const api = {
    id: 'claude-mem', name: 'claude-mem', source: 'index.js', registrationMode: mode, config,
    on(hook: string, handler: Handler, opts?: { timeoutMs?: number }) {
      hooks.set(hook, [...(hooks.get(hook) ?? []), { handler, opts }]);
    },
  };
  const errors: unknown[] = [];
  /** The runner: every handler of a hook in order, awaited; errors logged, not thrown. Returns the results. */
  const call = async (hook: string, event: unknown, ctx: unknown) => {
    const out: unknown[] = [];
    for (const h of hooks.get(hook) ?? []) {
      try {
        out.push(await h.handler(structuredClone(event), ctx));
      } catch (e) {
        errors.push(e);
      }
    }
    return out;
  };
  const replay = async (list: HookRecord[]) => {
    const results: Record<string, unknown[]> = {};
    for (const r of list) {
      if (!r.event) continue;
      results[r.hook] = [...(results[r.hook] ?? []), ...(await call(r.hook, r.event, r.ctx ?? {}))];
    }
    return results;
  };
  return { api, hooks, errors, call, replay };
}

const t = pluginTestLifecycle(() => ensureBundles(['openclaw']));

async function load(withWorker = true) {
  const p = installCopy('openclaw');
  if (withWorker) t.worker = await startFakeWorker(p.dataDir);
  const mod = await importModule<{ default: Entry }>(p.file);
  const h = openclawApi('full', { agents: { defaults: { workspace: CWD } } });
  mod.default.register(h.api);
  return { ...h, dataDir: p.dataDir, w: t.worker, dir: p.dir, mod };
}

const spooled = (dataDir: string): CaptureEvent[] => listSpool(`${dataDir}/spool`).flatMap((f) => readSpool(f.path).events);

describe('OpenClaw plugin, fixture hooks of OpenClaw 2026.9.6', () => {
  it('ships a native plugin: manifest (no memory kind), package entry, and a definePluginEntry-shaped default export', async () => {
    const { dir, mod } = await load(false);
    const manifest = JSON.parse(readFileSync(join(dir, 'openclaw.plugin.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest).toMatchObject({ id: 'claude-mem', activation: { onStartup: true }, configSchema: { type: 'object' } });
    expect(manifest.kind).toBeUndefined();
    expect(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))).toMatchObject({ type: 'module', openclaw: { extensions: ['./index.js'] } });
    expect(Object.keys(mod.default).sort()).toEqual(['description', 'id', 'name', 'register']);
    expect(mod.default.id).toBe(manifest.id);
  });

  it('registers typed hooks synchronously, with a host-side timeout on each', async () => {
    const { hooks } = await load(false);
    expect([...hooks.keys()].sort()).toEqual([
      'after_compaction', 'after_tool_call', 'agent_end', 'before_prompt_build', 'before_tool_call', 'gateway_stop', 'session_end', 'session_start',
    ]);
    for (const [, list] of hooks) for (const h of list) expect(h.opts?.timeoutMs).toBeGreaterThan(0);
  });

  it('stores the prompt with OpenClaw\'s run id, the exec call (start and result) and the answer, once each', async () => {
    const { replay, errors, w } = await load();
    await replay(records);
    expect(errors).toEqual([]);
    const events = w!.events;
    expect(events.map((e) => e.kind)).toEqual(['prompt', 'tool_use', 'tool_result', 'assistant_message']);
    for (const e of events) expect(e).toMatchObject({ host: 'openclaw', source: 'plugin', sessionId: SESSION, cwd: CWD });
    expect(events[0]).toMatchObject({ prompt: 'say hello using bash', promptId: RUN });
    expect(events[1]).toMatchObject({ toolUseId: 'call_thr5po8piz', toolName: 'Bash', rawToolName: 'exec', toolInput: { command: 'echo hello-from-mock' } });
    expect(events[2]).toMatchObject({
      toolUseId: 'call_thr5po8piz', toolName: 'Bash', toolInput: { command: 'echo hello-from-mock' },
      toolResponse: { content: [{ type: 'text', text: 'hello-from-mock' }], details: { exitCode: 0, aggregated: 'hello-from-mock' } },
    });
    expect(events[2].toolFailed).toBeUndefined();
    expect(events[3].message).toBe('All done.');
  });

  it('answers before_prompt_build with {prependContext} (the fixture-proven channel)', async () => {
    const { replay, w } = await load();
    const results = await replay(records);
    expect(results.before_prompt_build).toEqual([{ prependContext: w!.contextText }]);
    expect(Object.fromEntries(w!.calls.find((c) => c.path === '/api/context')!.query)).toMatchObject({ cwd: CWD, host: 'openclaw', session: SESSION });
    // Nothing is returned from the tool gate: a tool is never blocked or rewritten.
    expect(results.before_tool_call).toEqual([undefined]);
  });

  it('never holds a tool call: before_tool_call answers at once even with a hung worker', async () => {
    const { call, w, dataDir } = await load();
    w!.hangEvents = true;
    const t0 = Date.now();
    const out = await call('before_tool_call', { toolName: 'exec', params: { command: 'ls' }, runId: RUN, toolCallId: 'call_x' }, { sessionId: SESSION, toolCallId: 'call_x' });
    expect(Date.now() - t0).toBeLessThan(600);
    expect(out).toEqual([undefined]);
    await waitUntil(() => spooled(dataDir).length === 1, 5_000);
  });

  it('with no worker: the events are spooled in the hook format and the prompt gets no context', async () => {
    const { replay, dataDir } = await load(false);
    const results = await replay(records);
    expect(results.before_prompt_build).toEqual([undefined]);
    expect(spooled(dataDir).map((e) => e.kind)).toEqual(['prompt', 'tool_use', 'tool_result', 'assistant_message']);
  });

  it('heartbeat and cron runs are not prompts', async () => {
    const { call, w } = await load();
    const out = await call('before_prompt_build', { prompt: 'check the inbox', messages: [] }, { sessionId: SESSION, workspaceDir: CWD, runId: 'r2', trigger: 'heartbeat' });
    expect(out).toEqual([undefined]);
    expect(w!.events).toEqual([]);
  });

  it('Gateway sessions: session_start / session_end (with its reason) and compaction, cwd from the configured workspace', async () => {
    const { call, w } = await load();
    await call('session_start', { sessionId: 'gw-session', sessionKey: 'agent:main:main' }, { agentId: 'main', sessionId: 'gw-session', sessionKey: 'agent:main:main' });
    await call('after_compaction', { messageCount: 10, compactedCount: 4 }, { sessionId: 'gw-session', workspaceDir: CWD });
    await call('session_end', { sessionId: 'gw-session', messageCount: 12, reason: 'idle' }, { sessionId: 'gw-session' });
    expect(w!.events.map((e) => [e.kind, e.sessionId, e.cwd, e.reason])).toEqual([
      ['session_start', 'gw-session', CWD, 'startup'],
      ['compact', 'gw-session', CWD, 'compaction'],
      ['session_end', 'gw-session', CWD, 'idle'],
    ]);
  });

  it('a failed exec is marked failed; its own memory tools (through MCP) are not stored', async () => {
    const { call, w } = await load();
    const ctx = { sessionId: SESSION, workspaceDir: CWD };
    await call('after_tool_call', { toolName: 'exec', params: { command: 'false' }, toolCallId: 'c1', result: { content: [], details: { exitCode: 1 } } }, ctx);
    await call('after_tool_call', { toolName: 'claude-mem__mem_search', params: { query: 'x' }, toolCallId: 'c2', result: {} }, ctx);
    await call('after_tool_call', { toolName: 'read', params: { path: 'x' }, toolCallId: 'c3', error: 'ENOENT' }, ctx);
    expect(w!.events.map((e) => [e.toolUseId, e.toolFailed])).toEqual([['c1', true], ['c3', true]]);
    expect(w!.events[1].toolResponse).toEqual({ error: 'ENOENT' });
  });

  it('never throws into OpenClaw on odd input', async () => {
    const { call, errors } = await load();
    for (const hook of ['before_prompt_build', 'before_tool_call', 'after_tool_call', 'agent_end', 'session_start', 'session_end', 'after_compaction']) {
      await call(hook, null, null);
      await call(hook, { prompt: 42 }, { sessionId: '../../etc', workspaceDir: 'relative' });
    }
    expect(errors).toEqual([]);
  });
});
