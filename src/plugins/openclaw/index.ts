/**
 * claude-mem for OpenClaw: a native plugin of typed hooks (`api.on`). Recall goes through MCP
 * (`mcp.servers.claude-mem`); this plugin captures and adds memory context.
 *
 * | OpenClaw hook        | stored as / does                                           |
 * |----------------------|------------------------------------------------------------|
 * | before_prompt_build  | prompt (promptId = runId); answers `{prependContext}`      |
 * | before_tool_call     | tool_use (toolCallId, params); never blocks                |
 * | after_tool_call      | tool_result (params, result, error)                        |
 * | agent_end            | assistant_message (the run's final answer)                 |
 * | session_start / _end | session_start / session_end (reason) — Gateway sessions    |
 * | after_compaction     | compact                                                    |
 *
 * before_prompt_build and agent_end are conversation hooks: OpenClaw delivers them to this
 * plugin only with `plugins.entries.claude-mem.hooks.allowConversationAccess: true` (install sets
 * it). `openclaw agent --local` runs one turn without session_start/session_end.
 */
import type { CaptureEvent } from '../../shared/capture-event.js';
import { isValidCwd } from '../../shared/capture-event.js';
import { createPluginRuntime, withinBudget, type PluginRuntime } from '../shared/api.js';
import * as map from './events.js';

export const PLUGIN_ID = 'claude-mem';

type Handler = (event: map.Ev, ctx: map.HookCtx) => unknown;

/** The part of OpenClaw's plugin API this plugin uses (`OpenClawPluginApi`). */
export interface OpenClawApiLike {
  registrationMode?: string;
  config?: { agents?: { defaults?: { workspace?: unknown } } };
  on(hook: string, handler: Handler, opts?: { timeoutMs?: number; priority?: number }): void;
}

export interface PluginEntry {
  id: string;
  name: string;
  description: string;
  register(api: OpenClawApiLike): void;
}

/** The entry shape `openclaw/plugin-sdk/plugin-entry`'s definePluginEntry returns (the bundle imports nothing from OpenClaw). */
export function definePluginEntry(entry: PluginEntry): PluginEntry {
  return { id: entry.id, name: entry.name, description: entry.description, register: entry.register };
}

/** Observation hooks: short, the delivery is spooled at exit if the worker is slow. */
const CAPTURE_MS = 3_000;
/** OpenClaw shares a 2 s drain across every session_end handler at shutdown. */
const SESSION_END_MS = 1_000;

export function registerHooks(api: OpenClawApiLike, rt: PluginRuntime): void {
  const ws = new map.Workspaces();
  const fallback = api.config?.agents?.defaults?.workspace;
  const defaultCwd = typeof fallback === 'string' && isValidCwd(fallback) ? fallback : undefined;
  const at = () => new Date().toISOString();
  const log = rt.log;

  const on = (hook: string, ms: number, fn: (e: map.Ev, ctx: map.HookCtx) => Promise<unknown> | unknown) =>
    api.on(hook, (e, ctx) => withinBudget<unknown>(log, `openclaw ${hook}`, ms, undefined, () => fn(e ?? {}, ctx ?? {})), { timeoutMs: ms + 500 });
  const place = (ctx: map.HookCtx, hint?: unknown) => map.where(ctx, ws, hint ?? defaultCwd);
  const send = (events: Array<CaptureEvent | undefined>) => rt.capture(events);

  on('before_prompt_build', Math.max(CAPTURE_MS, rt.contextBudgetMs() + 500), async (e, ctx) => {
    ws.note(ctx);
    if (!map.isUserTurn(ctx)) return undefined;
    const w = place(ctx);
    if (!w) return undefined;
    const stored = send([map.prompt(w, e, ctx, at())]);
    const context = await rt.context({ cwd: w.cwd, sessionId: w.sessionId });
    await stored;
    return context.trim() ? { prependContext: context } : undefined;
  });

  // A gate hook: OpenClaw blocks the tool when a handler throws or times out, so the capture is
  // queued and the handler answers at once, with nothing.
  on('before_tool_call', 500, (e, ctx) => {
    const w = place(ctx);
    if (w) void send([map.toolUse(w, e, ctx, at())]);
    return undefined;
  });

  on('after_tool_call', CAPTURE_MS, async (e, ctx) => {
    const details = (e.result as { details?: { cwd?: unknown } } | undefined)?.details;
    const w = place(ctx, details?.cwd);
    if (w) await send([map.toolResult(w, e, ctx, at())]);
  });

  on('agent_end', CAPTURE_MS, async (e, ctx) => {
    ws.note(ctx);
    const w = place(ctx);
    if (w && map.isUserTurn(ctx)) await send([map.assistantMessage(w, e, at())]);
  });

  on('session_start', CAPTURE_MS, async (e, ctx) => {
    const w = place({ ...ctx, sessionId: ctx.sessionId ?? e.sessionId });
    if (!w) return;
    rt.prefetchContext({ cwd: w.cwd, sessionId: w.sessionId });
    await send([map.sessionStart(w, e, at())]);
  });

  on('session_end', SESSION_END_MS, async (e, ctx) => {
    const w = place({ ...ctx, sessionId: ctx.sessionId ?? e.sessionId });
    if (!w) return;
    rt.forgetContext(w.sessionId);
    await send([map.sessionEnd(w, e, at())]);
  });

  on('after_compaction', CAPTURE_MS, async (_e, ctx) => {
    const w = place(ctx);
    if (!w) return;
    rt.forgetContext(w.sessionId);
    await send([map.compact(w, at())]);
  });

  on('gateway_stop', 2_000, () => rt.flush(1_500));
}

export default definePluginEntry({
  id: PLUGIN_ID,
  name: 'claude-mem',
  description: 'One shared local memory for every coding agent: captures OpenClaw sessions and adds memory context to prompts.',
  register(api) {
    // register() must stay synchronous; a failure here must not stop OpenClaw.
    let rt: PluginRuntime | undefined;
    try {
      rt = createPluginRuntime({ host: 'openclaw', moduleUrl: import.meta.url });
      registerHooks(api, rt);
    } catch (err) {
      rt?.log.problem(`openclaw register failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  },
});
