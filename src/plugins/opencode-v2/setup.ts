/**
 * claude-mem for OpenCode 2.x (plugin API V2): `setup(ctx)` registers everything through the
 * context. What it records is what the V1 plugin records (see ../opencode-v1/hooks.ts), through:
 *
 * - `ctx.session.hook("prompt")` → prompt (promptId = OpenCode's message id);
 * - `ctx.tool.hook("execute.before" | "execute.after")` → tool_use / tool_result (toolUseId = the
 *   call `id`; a call ending in `status: "error"` is a failed tool_result);
 * - `ctx.event.subscribe()` → `session.created` (session_start), `session.idle` (the turn's text +
 *   session_end `idle`), `session.deleted` (session_end `deleted`), `session.text.delta` (text);
 * - `ctx.session.hook("compaction")` → compact;
 * - `ctx.session.hook("context")` → the memory context pushed onto `system` (once fetched per
 *   session, within the budget);
 * - `ctx.tool.transform(editor => editor.add(...))` → the five recall tools (plain JSON Schema input).
 *
 * A domain this OpenCode lacks is skipped (each registration is tried on its own); handlers catch
 * everything and keep to their budget. The returned cleanup stops the subscription and flushes.
 */
import { guard, withinBudget } from '../shared/guard.js';
import type { PluginRuntime } from '../shared/runtime.js';
import * as map from '../opencode-v1/map.js';
import { Sessions } from '../opencode-v1/sessions.js';
import type { BusEvent, PluginContextLike, SessionContextEvent, SessionPromptEvent, ToolCallEvent, ToolEditorLike } from './host-api.js';

const CAPTURE_WAIT_MS = 300;
const MAX_TEXT = 64 * 1024;

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const obj = (v: unknown): Record<string, unknown> | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/** V2's tool result → the `{output, metadata}` shape the observer reads (exit code kept). */
function v2Response(e: ToolCallEvent): { response: unknown; failed: boolean } {
  if (e.status === 'error') {
    const err = e.error as { message?: unknown } | undefined;
    return { response: { error: typeof err?.message === 'string' ? err.message : String(e.error ?? 'error') }, failed: true };
  }
  const r = e.result ?? {};
  const text = typeof r.content === 'string' ? r.content
    : Array.isArray(r.content) ? r.content.filter((c) => c?.type === 'text' && typeof c.text === 'string').map((c) => c.text).join('\n') : '';
  const exit = num(r.metadata?.exit) ?? num(obj(r.output)?.exit);
  const metadata = { ...r.metadata, ...(exit !== undefined && { exit }) };
  return { response: { output: text, ...(r.output !== undefined && { result: r.output }), metadata }, failed: false };
}

/** What every V2 handler shares: the sessions seen, the turn's text so far, and a bounded send. */
interface V2State {
  rt: PluginRuntime;
  log: PluginRuntime['log'];
  defaultCwd: string;
  sessions: Sessions;
  text: Map<string, string>;
  send(events: Parameters<PluginRuntime['capture']>[0]): Promise<unknown>;
  /** A session first seen mid-way (OpenCode restarted) still gets its session_start. */
  startIfNew(id: unknown, reason: string): ReturnType<typeof map.sessionStart>[];
}

function v2State(rt: PluginRuntime, ctx: PluginContextLike): V2State {
  const log = rt.log;
  const dir = ctx?.location?.directory;
  const defaultCwd = typeof dir === 'string' && dir.startsWith('/') ? dir : process.cwd();
  const sessions = new Sessions(defaultCwd);
  return {
    rt, log, defaultCwd, sessions,
    text: new Map<string, string>(),
    send: (events) => withinBudget(log, 'capture', CAPTURE_WAIT_MS, undefined, () => rt.capture(events)),
    startIfNew: (id, reason) => {
      const base = sessions.base(id);
      if (!base || sessions.get(base.sessionId).started) return [];
      sessions.get(base.sessionId).started = true;
      return [map.sessionStart(base, reason)];
    },
  };
}

/** Each domain is tried on its own: an OpenCode lacking one still gets the others. */
async function register(log: PluginRuntime['log'], what: string, fn: () => Promise<unknown> | undefined) {
  try {
    if (!(await fn())) log.detail(`this OpenCode has no ${what}; skipped`);
  } catch (err) {
    log.problem(`could not register ${what}: ${(err as Error).message}`);
  }
}

async function onPrompt(s: V2State, e: SessionPromptEvent) {
  const base = s.sessions.base(e?.sessionID);
  if (!base) return;
  s.rt.prefetchContext({ cwd: base.cwd, sessionId: base.sessionId });
  const t = typeof e.prompt?.text === 'string' && e.prompt.text.trim() ? e.prompt.text : undefined;
  await s.send([...s.startIfNew(e.sessionID, 'resume'), map.prompt(base, e.messageID, t)]);
}

async function onContext(s: V2State, e: SessionContextEvent) {
  const base = s.sessions.base(e?.sessionID);
  if (!base || !Array.isArray(e.system)) return;
  const context = await s.rt.context({ cwd: base.cwd, sessionId: base.sessionId });
  if (context && !e.system.some((p) => p?.text === context)) e.system.push({ type: 'text', text: context });
}

async function onCompaction(s: V2State, e: { sessionID?: string }) {
  const base = s.sessions.base(e?.sessionID);
  if (base) await s.send([map.compact(base, 'compaction')]);
}

async function onToolBefore(s: V2State, e: ToolCallEvent) {
  const base = s.sessions.base(e?.sessionID);
  if (!base) return;
  await s.send([...s.startIfNew(e.sessionID, 'resume'), map.toolUse(base, { callId: e.id, tool: e.tool, args: e.input })]);
}

async function onToolAfter(s: V2State, e: ToolCallEvent) {
  const base = s.sessions.base(e?.sessionID);
  if (!base) return;
  const { response, failed } = v2Response(e);
  await s.send([map.toolResult(base, { callId: e.id, tool: e.tool, args: e.input }, response, failed)]);
}

function registerHooks(s: V2State, ctx: PluginContextLike) {
  const { log, rt } = s;
  const hookWait = CAPTURE_WAIT_MS * 2;
  return [
    () => register(log, 'session.hook("prompt")', () => ctx.session?.hook?.('prompt', guard(log, 'prompt', hookWait, (e: SessionPromptEvent) => onPrompt(s, e)))),
    () => register(log, 'session.hook("context")', () => ctx.session?.hook?.('context', guard(log, 'context', rt.contextBudgetMs() + 100, (e: SessionContextEvent) => onContext(s, e)))),
    () => register(log, 'session.hook("compaction")', () => ctx.session?.hook?.('compaction', guard(log, 'compaction', hookWait, (e: { sessionID?: string }) => onCompaction(s, e)))),
    () => register(log, 'tool.hook("execute.before")', () => ctx.tool?.hook?.('execute.before', guard(log, 'execute.before', hookWait, (e: ToolCallEvent) => onToolBefore(s, e)))),
    () => register(log, 'tool.hook("execute.after")', () => ctx.tool?.hook?.('execute.after', guard(log, 'execute.after', hookWait, (e: ToolCallEvent) => onToolAfter(s, e)))),
    () => register(log, 'tool.transform', () => ctx.tool?.transform?.((editor) => addRecallTools(s, editor))),
  ];
}

/** The recall tools run in the calling session's directory when the session is known. */
function addRecallTools(s: V2State, editor: ToolEditorLike) {
  for (const spec of s.rt.recall.tools) {
    editor.add({
      name: spec.name,
      description: spec.description,
      input: structuredClone(spec.parameters),
      execute: async (input, c) => {
        const sessionId = typeof c?.sessionID === 'string' ? c.sessionID : undefined;
        const cwd = sessionId && s.sessions.has(sessionId) ? s.sessions.get(sessionId).cwd : s.defaultCwd;
        return { content: await s.rt.recall.run(spec.name, input, { cwd, ...(sessionId && { sessionId }) }) };
      },
    });
  }
}

async function onBusEvent(s: V2State, ev: BusEvent) {
  const { sessions, rt, text, send, startIfNew } = s;
  const d = ev?.data ?? ev?.properties ?? {};
  const id = d.sessionID ?? d.info?.id;
  const base = sessions.base(id);
  if (!base) return;
  switch (ev.type) {
    case 'session.created':
      sessions.learn(base.sessionId, { directory: d.directory ?? d.info?.directory ?? ev.location?.directory, parentID: d.parentID ?? d.info?.parentID });
      rt.prefetchContext({ cwd: sessions.get(base.sessionId).cwd, sessionId: base.sessionId });
      await send(startIfNew(id, 'startup'));
      return;
    case 'session.text.delta':
      if (typeof d.delta === 'string') text.set(base.sessionId, ((text.get(base.sessionId) ?? '') + d.delta).slice(-MAX_TEXT));
      return;
    case 'session.idle': {
      const said = text.get(base.sessionId);
      text.delete(base.sessionId);
      await send([...startIfNew(id, 'resume'), map.assistantMessage(base, said), map.sessionEnd(base, 'idle')]);
      return;
    }
    case 'session.deleted':
      sessions.forget(base.sessionId);
      rt.forgetContext(base.sessionId);
      text.delete(base.sessionId);
      await send([map.sessionEnd(base, 'deleted')]);
      return;
    default:
  }
}

/** Not awaited: setup must return for OpenCode to finish loading plugins. Returns the stop. */
function followEvents(s: V2State, ctx: PluginContextLike): () => void {
  const { log } = s;
  const onEvent = guard(log, 'event', CAPTURE_WAIT_MS * 2, (ev: BusEvent) => onBusEvent(s, ev));
  let iterator: AsyncIterator<BusEvent> | undefined;
  let stopped = false;
  try {
    const stream = ctx.event?.subscribe?.();
    iterator = stream?.[Symbol.asyncIterator]();
    if (!iterator) log.detail('this OpenCode has no event.subscribe; session start/end are not recorded');
  } catch (err) {
    log.problem(`event.subscribe: ${(err as Error).message}`);
  }
  void (async () => {
    try {
      while (iterator && !stopped) {
        const next = await iterator.next();
        if (next.done) break;
        await onEvent(next.value);
      }
    } catch (err) {
      if (!stopped) log.detail(`event stream ended: ${(err as Error).message}`);
    }
  })();
  return () => {
    stopped = true;
    try {
      void iterator?.return?.();
    } catch {
      // Already closed.
    }
  };
}

export async function setupV2(rt: PluginRuntime, ctx: PluginContextLike): Promise<() => Promise<void>> {
  const s = v2State(rt, ctx);
  // In order, one at a time, as OpenCode registers them.
  for (const step of registerHooks(s, ctx)) await step();
  const stop = followEvents(s, ctx);
  return async () => {
    stop();
    await rt.flush(2_000);
  };
}
