/**
 * The built OpenCode V2 plugin (dist/plugins/opencode-v2/index.js) against a harness of OpenCode
 * 2's plugin context as its documentation and plugin package describe it: `Plugin.define({id,
 * setup})`, `ctx.tool.hook/transform`, `ctx.session.hook`, `ctx.event.subscribe()` events
 * `{type, data}`. No OpenCode 2 build was available to record real callbacks, so the session below
 * is the captured 1.18.33 run (same ids) expressed in V2's documented shapes.
 */
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import {
  ensurePluginsBuilt, FIXTURE_CWD, FIXTURE_SESSION, installBundle, loadBundle, pluginTestLifecycle, spooled, startFakeWorker, waitUntil, type FakeWorker,
} from './opencode-harness.js';

interface V2Plugin {
  id: string;
  setup(ctx: unknown): Promise<(() => Promise<void>) | void>;
}

interface AddedTool {
  name: string;
  description: string;
  input: Record<string, unknown>;
  execute(input: unknown, ctx: { sessionID?: string }): Promise<{ content?: string }>;
}

/** A V2 plugin context: registrations are kept so the test can fire them as OpenCode would. */
function v2Host(opts: { withEvents?: boolean } = {}) {
  const hooks = new Map<string, (e: any) => Promise<void> | void>();
  const tools: AddedTool[] = [];
  const queue: unknown[] = [];
  let wake: (() => void) | undefined;
  let closed = false;
  const subscribe = () => ({
    [Symbol.asyncIterator]: () => ({
      async next(): Promise<IteratorResult<unknown>> {
        while (!queue.length && !closed) await new Promise<void>((r) => (wake = r));
        return queue.length ? { value: queue.shift(), done: false } : { value: undefined, done: true };
      },
      async return(): Promise<IteratorResult<unknown>> {
        closed = true;
        wake?.();
        return { value: undefined, done: true };
      },
    }),
  });
  const reg = async () => ({ dispose: async () => {} });
  const ctx = {
    location: { directory: FIXTURE_CWD, project: { id: '9f77d5cd14eecddfec0735752b22f504c6db98d9' } },
    options: {},
    tool: {
      hook: async (name: string, fn: (e: any) => void) => (hooks.set(`tool.${name}`, fn), reg()),
      transform: async (fn: (editor: { add(t: AddedTool): void }) => void) => (fn({ add: (t) => tools.push(t) }), reg()),
    },
    session: { hook: async (name: string, fn: (e: any) => void) => (hooks.set(`session.${name}`, fn), reg()) },
    ...(opts.withEvents !== false && { event: { subscribe } }),
  };
  return {
    ctx,
    tools,
    fire: async (name: string, e: unknown) => hooks.get(name)?.(e),
    has: (name: string) => hooks.has(name),
    emit: (type: string, data: Record<string, unknown>) => {
      queue.push({ id: `evt_${queue.length}`, type, data, location: { directory: FIXTURE_CWD } });
      wake?.();
    },
    get closed() {
      return closed;
    },
  };
}

const MSG = 'msg_22c17cde8001s4kXE5Yz3qspom';
const CALL = 'call_mlfkrvshh9';
const t = pluginTestLifecycle(ensurePluginsBuilt);

async function started(opts: { worker?: boolean; withEvents?: boolean } = {}) {
  const p = installBundle('opencode-v2');
  const w = opts.worker === false ? undefined : (t.worker = await startFakeWorker(p.dataDir));
  const plugin = await loadBundle<V2Plugin>(p.file);
  const host = v2Host(opts);
  const cleanup = await plugin.setup(host.ctx);
  return { p, w, host, cleanup: cleanup as () => Promise<void>, plugin };
}

/** The captured run, in V2's shapes: created → prompt → context → shell call → text → idle. */
async function runSession(host: ReturnType<typeof v2Host>, w: FakeWorker | undefined) {
  host.emit('session.created', { sessionID: FIXTURE_SESSION, projectID: '9f77d5cd14eecddfec0735752b22f504c6db98d9', title: 'New session', agent: 'build' });
  await (w ? waitUntil(() => w.events.length >= 1) : new Promise((r) => setTimeout(r, 100)));
  await host.fire('session.prompt', { sessionID: FIXTURE_SESSION, messageID: MSG, prompt: { text: 'say hello using bash' }, delivery: 'steer' });
  const ctxEvent = () => ({ sessionID: FIXTURE_SESSION, agent: 'build', model: { id: 'mock-model', providerID: 'local' }, kind: 'primary', system: [{ type: 'text', text: 'You are opencode' }], messages: [], tools: {} });
  const first = ctxEvent();
  await host.fire('session.context', first);
  const base = { tool: 'shell', sessionID: FIXTURE_SESSION, agent: 'build', messageID: 'msg_22c17d568001fJfE888PpLubPS', id: CALL, input: { command: 'echo hello-from-mock' } };
  await host.fire('tool.execute.before', base);
  await host.fire('tool.execute.after', { ...base, status: 'completed', result: { content: 'hello-from-mock\n', metadata: { exit: 0, truncated: false } } });
  const second = ctxEvent();
  await host.fire('session.context', second);
  host.emit('session.text.delta', { sessionID: FIXTURE_SESSION, delta: 'All ' });
  host.emit('session.text.delta', { sessionID: FIXTURE_SESSION, delta: 'done.' });
  host.emit('session.idle', { sessionID: FIXTURE_SESSION });
  return { first, second };
}

describe('OpenCode V2 plugin (documented API)', () => {
  it('default-exports a Plugin.define definition', async () => {
    const p = installBundle('opencode-v2');
    const mod = (await import(pathToFileURL(p.file).href)) as Record<string, any>;
    expect(Object.keys(mod)).toEqual(['default']);
    expect(mod.default.id).toBe('claude-mem');
    expect(typeof mod.default.setup).toBe('function');
  });

  it('stores the same events as the V1 plugin, with OpenCode\'s own ids', async () => {
    const { host, w, cleanup } = await started();
    const { first, second } = await runSession(host, w);
    await waitUntil(() => w!.events.some((e) => e.kind === 'session_end'));
    await cleanup();
    const ev = w!.events;
    expect(ev.map((e) => e.kind)).toEqual(['session_start', 'prompt', 'tool_use', 'tool_result', 'assistant_message', 'session_end']);
    for (const e of ev) expect(e).toMatchObject({ host: 'opencode', source: 'plugin', sessionId: FIXTURE_SESSION, cwd: FIXTURE_CWD });
    expect(ev[1]).toMatchObject({ promptId: MSG, prompt: 'say hello using bash' });
    expect(ev[2]).toMatchObject({ toolUseId: CALL, toolName: 'Bash', rawToolName: 'shell', toolInput: { command: 'echo hello-from-mock' } });
    expect(ev[3]).toMatchObject({ toolUseId: CALL, toolName: 'Bash', toolResponse: { output: 'hello-from-mock\n', metadata: { exit: 0 } } });
    expect(ev[4]).toMatchObject({ message: 'All done.' });
    expect(ev[5]).toMatchObject({ reason: 'idle' });
    for (const e of [first, second]) expect(e.system).toEqual([{ type: 'text', text: 'You are opencode' }, { type: 'text', text: w!.contextText }]);
    expect(w!.calls.filter((c) => c.path === '/api/context')).toHaveLength(1);
    expect(host.closed).toBe(true);
  });

  it('records a failed call and a compaction; a subagent session is linked to its parent', async () => {
    const { host, w, cleanup } = await started();
    host.emit('session.created', { sessionID: 'ses_child', parentID: FIXTURE_SESSION, agent: 'general' });
    await waitUntil(() => w!.events.length >= 1);
    await host.fire('tool.execute.after', { tool: 'read', sessionID: 'ses_child', id: 'c9', input: { filePath: '/x/y.ts' }, status: 'error', error: { message: 'File not found' } });
    await host.fire('session.compaction', { sessionID: FIXTURE_SESSION });
    await cleanup();
    const ev = w!.events as CaptureEvent[];
    expect(ev[0]).toMatchObject({ kind: 'session_start', sessionId: 'ses_child', parentSessionId: FIXTURE_SESSION, isSubagent: true });
    expect(ev[1]).toMatchObject({ kind: 'tool_result', toolName: 'Read', toolFailed: true, toolResponse: { error: 'File not found' }, parentSessionId: FIXTURE_SESSION });
    expect(ev.find((e) => e.kind === 'compact')).toMatchObject({ sessionId: FIXTURE_SESSION, reason: 'compaction' });
  });

  it('adds the five recall tools with plain JSON Schema input and answers through the worker', async () => {
    const { host, w, cleanup } = await started();
    expect(host.tools.map((t) => t.name).sort()).toEqual(['mem_context', 'mem_get_observations', 'mem_save', 'mem_search', 'mem_timeline']);
    const search = host.tools.find((t) => t.name === 'mem_search')!;
    expect(search.input).toMatchObject({ type: 'object', required: ['query'], additionalProperties: false });
    expect((await search.execute({ query: 'hello' }, { sessionID: FIXTURE_SESSION })).content).toContain('#7 [command]');
    const save = host.tools.find((t) => t.name === 'mem_save')!;
    expect((await save.execute({ text: 'a note', project: 'p' }, { sessionID: FIXTURE_SESSION })).content).toMatch(/^Saved as #8/);
    expect(w!.calls.find((c) => c.path === '/api/memory')!.body).toMatchObject({ host: 'opencode', hostSessionId: FIXTURE_SESSION, cwd: FIXTURE_CWD });
    // Its own recall calls are not captured as tool uses.
    await host.fire('tool.execute.after', { tool: 'mem_search', sessionID: FIXTURE_SESSION, id: 'c1', input: {}, status: 'completed', result: { content: 'x' } });
    await cleanup();
    expect(w!.events.filter((e) => e.toolUseId === 'c1')).toEqual([]);
  });

  it('spools when no worker runs, and loads on a host without an event stream', async () => {
    const { host, p, cleanup } = await started({ worker: false, withEvents: false });
    expect(host.has('tool.execute.after')).toBe(true);
    await host.fire('session.prompt', { sessionID: FIXTURE_SESSION, messageID: MSG, prompt: { text: 'hi' } });
    await cleanup();
    expect(spooled(p.dataDir).map((e) => [e.kind, e.promptId])).toEqual([['session_start', undefined], ['prompt', MSG]]);
  });

  it('never throws into the host', async () => {
    const { host, cleanup } = await started();
    for (const name of ['session.prompt', 'session.context', 'session.compaction', 'tool.execute.before', 'tool.execute.after']) {
      for (const e of [undefined, null, {}, { sessionID: 'bad id!' }, { sessionID: FIXTURE_SESSION, system: 'nope' }]) {
        await expect(Promise.resolve(host.fire(name, e))).resolves.toBeUndefined();
      }
    }
    host.emit('session.idle', {});
    host.emit('garbage', undefined as never);
    await expect(cleanup()).resolves.toBeUndefined();
    expect(await (await loadBundle<V2Plugin>(installBundle('opencode-v2').file)).setup(undefined)).toBeTypeOf('function');
  });
});
