/**
 * The OpenCode V1 hooks object (a plugin file in ~/.config/opencode/plugins/ exporting
 * `async (input) => hooks`), as OpenCode 1.18.33 calls it (../shared/fixtures/hosts/opencode):
 *
 * - `event` (bus events; OpenCode calls it without awaiting): `session.created` → session_start,
 *   `session.idle` → the turn's last assistant text + session_end (reason `idle`: `opencode run`
 *   ends there, and no other callback marks an end), `session.deleted` → session_end (`deleted`),
 *   `session.compacted` → compact, a tool part that ends in `error` → its failed tool_result.
 * - `chat.message` → prompt (promptId = the user message id); `tool.execute.before/after` →
 *   tool_use / tool_result (toolUseId = callID); `experimental.text.complete` → last text.
 * - `experimental.chat.system.transform` → the memory context pushed onto `output.system`, once
 *   fetched per session, within the context budget.
 * - `tool` → mem_search, mem_timeline, mem_get_observations, mem_save, mem_context.
 * - `dispose` (awaited by OpenCode when the instance closes) → flush what is in flight.
 *
 * Every handler catches everything and returns within its budget; the `(input, output)` hooks are
 * awaited by OpenCode and a thrown error would fail the host's operation.
 */
import { guard, withinBudget } from '../shared/guard.js';
import type { PluginRuntime } from '../shared/runtime.js';
import * as map from './map.js';
import { Sessions } from './sessions.js';
import { fixDefinition, recallTools, type V1ToolContext, type V1ToolDefinition } from './tools.js';

/** How long a capturing handler waits for its delivery before letting the host go on. */
const CAPTURE_WAIT_MS = 300;
/** Bound on handlers that only record state. */
const QUICK_MS = 200;

export interface V1PluginInput {
  directory?: string;
  worktree?: string;
  project?: unknown;
  client?: unknown;
}

type Obj = Record<string, any>;

interface V1Hooks {
  config(cfg: Obj): Promise<void>;
  event(arg: { event?: { type?: string; properties?: Obj } }): Promise<void>;
  'chat.message'(input: Obj, output: Obj): Promise<void>;
  'tool.execute.before'(input: Obj, output: Obj): Promise<void>;
  'tool.execute.after'(input: Obj, output: Obj): Promise<void>;
  'experimental.text.complete'(input: Obj, output: Obj): Promise<void>;
  'experimental.chat.system.transform'(input: Obj, output: Obj): Promise<void>;
  'tool.definition'(input: Obj, output: Obj): Promise<void>;
  tool: Record<string, V1ToolDefinition>;
  dispose(): Promise<void>;
}

/** The title request's system prompt: no use for project memory there. */
const TITLE_PROMPT = /^You are a title generator/;

/** What every V1 handler shares: the sessions seen, the MCP server names, and a bounded send. */
interface V1State {
  rt: PluginRuntime;
  sessions: Sessions;
  mcpServers: Set<string>;
  defaultCwd: string;
  send(events: Parameters<PluginRuntime['capture']>[0]): Promise<unknown>;
  startIfNew(id: unknown, reason: string): ReturnType<typeof map.sessionStart>[];
}

function v1State(rt: PluginRuntime, input: V1PluginInput): V1State {
  const defaultCwd = typeof input.directory === 'string' && input.directory.startsWith('/') ? input.directory : process.cwd();
  const sessions = new Sessions(defaultCwd);
  return {
    rt, sessions, defaultCwd,
    mcpServers: new Set<string>(),
    send: (events) => withinBudget(rt.log, 'capture', CAPTURE_WAIT_MS, undefined, () => rt.capture(events)),
    /** A session seen for the first time without `session.created` (continued, or loaded late): record its start. */
    startIfNew: (id, reason) => {
      const base = sessions.base(id);
      if (!base) return [];
      const st = sessions.get(base.sessionId);
      if (st.started) return [];
      st.started = true;
      return [map.sessionStart(base, reason)];
    },
  };
}

async function onBusEvent(s: V1State, type: string, p: Obj) {
  const { sessions, rt, send, startIfNew } = s;
  const id = p.sessionID ?? p.info?.id;
  switch (type) {
    case 'session.created': {
      if (typeof id !== 'string') return;
      sessions.learn(id, p.info);
      const events = startIfNew(id, 'startup');
      const base = sessions.base(id);
      if (base) rt.prefetchContext({ cwd: base.cwd, sessionId: base.sessionId });
      await send(events);
      return;
    }
    case 'session.updated':
      if (typeof id === 'string' && sessions.has(id)) sessions.learn(id, p.info);
      return;
    case 'session.idle': {
      const base = sessions.base(id);
      if (!base) return;
      const st = sessions.get(base.sessionId);
      const text = st.lastText;
      st.lastText = undefined;
      await send([...startIfNew(id, 'resume'), map.assistantMessage(base, text), map.sessionEnd(base, 'idle')]);
      return;
    }
    case 'session.deleted': {
      const base = sessions.base(id);
      if (!base) return;
      sessions.forget(base.sessionId);
      rt.forgetContext(base.sessionId);
      await send([map.sessionEnd(base, 'deleted')]);
      return;
    }
    case 'session.compacted': {
      const base = sessions.base(id);
      if (base) await send([map.compact(base, 'compacted')]);
      return;
    }
    case 'message.part.updated':
      return onFailedToolPart(s, id, p.part);
    default:
  }
}

/** A failed call never reaches tool.execute.after; its part says so. */
async function onFailedToolPart(s: V1State, id: unknown, part: Obj | undefined) {
  if (part?.type !== 'tool' || part.state?.status !== 'error') return;
  const base = s.sessions.base(part.sessionID ?? id);
  if (!base) return;
  const c = { callId: part.callID, tool: part.tool, args: part.state.input, mcpServers: s.mcpServers };
  await s.send([map.toolResult(base, c, { error: part.state.error }, true)]);
}

async function onChatMessage(s: V1State, inp: Obj, out: Obj) {
  const id = inp?.sessionID ?? out?.message?.sessionID;
  const base = s.sessions.base(id);
  if (!base) return;
  s.rt.prefetchContext({ cwd: base.cwd, sessionId: base.sessionId });
  const text = map.promptText(out?.parts);
  const promptId = out?.message?.id ?? inp?.messageID;
  await s.send([...s.startIfNew(id, 'resume'), map.prompt(base, promptId, text, map.modelName(inp?.model))]);
}

async function onToolBefore(s: V1State, inp: Obj, out: Obj) {
  const base = s.sessions.base(inp?.sessionID);
  if (!base) return;
  await s.send([...s.startIfNew(inp.sessionID, 'resume'), map.toolUse(base, { callId: inp.callID, tool: inp.tool, args: out?.args, mcpServers: s.mcpServers })]);
}

async function onToolAfter(s: V1State, inp: Obj, out: Obj) {
  const base = s.sessions.base(inp?.sessionID);
  if (!base) return;
  const c = { callId: inp.callID, tool: inp.tool, args: inp.args, mcpServers: s.mcpServers };
  await s.send([map.toolResult(base, c, out, false)]);
}

async function onSystemTransform(s: V1State, inp: Obj, out: Obj) {
  const system = out?.system;
  // No session: an agent-generation request. The title request gets no memory either.
  if (!Array.isArray(system) || typeof inp?.sessionID !== 'string' || TITLE_PROMPT.test(String(system[0] ?? ''))) return;
  const base = s.sessions.base(inp.sessionID);
  if (!base) return;
  const text = await s.rt.context({ cwd: base.cwd, sessionId: base.sessionId });
  if (text && !system.includes(text)) system.push(text);
}

/** A recall tool runs in the directory OpenCode names, else its session's, else the plugin's. */
function toolCwd(s: V1State, ctx: V1ToolContext | undefined): string {
  const dir = ctx?.directory;
  if (typeof dir === 'string' && dir.startsWith('/')) return dir;
  return typeof ctx?.sessionID === 'string' && s.sessions.has(ctx.sessionID) ? s.sessions.get(ctx.sessionID).cwd : s.defaultCwd;
}

export function createV1Hooks(rt: PluginRuntime, input: V1PluginInput = {}): V1Hooks {
  const s = v1State(rt, input);
  const log = rt.log;
  const sessions = s.sessions;
  return {
    config: guard(log, 'config', QUICK_MS, (cfg) => {
      for (const name of Object.keys(cfg?.mcp ?? {})) s.mcpServers.add(name);
    }),

    event: guard(log, 'event', CAPTURE_WAIT_MS * 2, async (arg) => {
      const e = arg?.event;
      if (typeof e?.type === 'string') await onBusEvent(s, e.type, e.properties ?? {});
    }),

    'chat.message': guard(log, 'chat.message', CAPTURE_WAIT_MS * 2, (inp, out) => onChatMessage(s, inp, out)),
    'tool.execute.before': guard(log, 'tool.execute.before', CAPTURE_WAIT_MS * 2, (inp, out) => onToolBefore(s, inp, out)),
    'tool.execute.after': guard(log, 'tool.execute.after', CAPTURE_WAIT_MS * 2, (inp, out) => onToolAfter(s, inp, out)),

    'experimental.text.complete': guard(log, 'experimental.text.complete', QUICK_MS, (inp, out) => {
      if (typeof inp?.sessionID === 'string' && typeof out?.text === 'string' && out.text.trim()) sessions.get(inp.sessionID).lastText = out.text;
    }),

    'experimental.chat.system.transform': guard(log, 'system.transform', rt.contextBudgetMs() + 100, (inp, out) => onSystemTransform(s, inp, out)),
    'tool.definition': guard(log, 'tool.definition', QUICK_MS, (inp, out) => fixDefinition(rt, inp?.toolID, out)),
    tool: recallTools(rt, (ctx: V1ToolContext | undefined) => toolCwd(s, ctx)),
    dispose: guard(log, 'dispose', 2_500, () => rt.flush(2_000)),
  };
}
