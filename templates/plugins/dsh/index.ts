/**
 * claude-mem for DeepSeek Harness: a recall-only Cordis plugin. DeepSeek Harness sessions are
 * captured by the claude-mem worker from their session logs (the transcript watch, the single
 * writer), so this plugin never captures: it adds the project's memory context when a top-level
 * session starts. The memory tools come from the `@deepseek-ai/dsh-mcp-client` row beside it.
 *
 * Named exports (`name`, `inject`, `apply`), the shape DeepSeek Harness's own plugins use: a
 * default export can lose `inject`. Injected context is marked plugin-sourced, which the `dsh`
 * transcript schema leaves out, so it is never stored back as a prompt.
 */
import { isValidCwd, isValidSessionId } from '../../../src/shared/capture-event.js';
import { createPluginRuntime, withinBudget, type PluginRuntime } from '../shared/api.js';

export const name = 'claude-mem';
/** Needs no service of the harness. */
export const inject: string[] = [];

export interface SessionHeaderLike {
  id?: unknown;
  cwd?: unknown;
  parentSession?: unknown;
  delegationDepth?: unknown;
}

export interface AgentLike {
  session?: { header?: SessionHeaderLike };
  inject?(content: { type: 'text'; text: string }[], opts: { source: { kind: 'plugin'; plugin: string } }): unknown;
}

/** The part of a Cordis context this plugin uses. */
export interface CordisContextLike {
  on(event: string, listener: (...args: unknown[]) => unknown): unknown;
  effect?(fn: () => () => unknown, label?: string): unknown;
  logger?: { warn?(message: string): void };
}

const SOURCE = { kind: 'plugin' as const, plugin: 'claude-mem' };
/** How long after session start the context may still arrive (it is injected when it comes). */
const INJECT_WAIT_MS = 8_000;

/** The session a started agent runs: its header's id and workspace, top-level sessions only. */
export function sessionOf(agent: AgentLike | undefined): { sessionId: string; cwd: string } | undefined {
  const h = agent?.session?.header;
  if (!h || h.parentSession || (typeof h.delegationDepth === 'number' && h.delegationDepth > 0)) return undefined;
  return isValidSessionId(h.id) && isValidCwd(h.cwd) ? { sessionId: h.id, cwd: h.cwd } : undefined;
}

export function attach(ctx: CordisContextLike, rt: PluginRuntime): void {
  ctx.on('agent/session-start', (agentArg: unknown) => {
    const agent = agentArg as AgentLike;
    const s = sessionOf(agent);
    if (!s || typeof agent.inject !== 'function') return;
    // Detached: session start is not held up; the context is injected once it is there.
    void withinBudget(rt.log, 'dsh session-start context', INJECT_WAIT_MS, undefined, async () => {
      const text = await rt.context(s, INJECT_WAIT_MS - 500);
      if (text.trim()) agent.inject!([{ type: 'text', text }], { source: SOURCE });
    });
  });
}

export function apply(ctx: CordisContextLike): void {
  try {
    attach(ctx, createPluginRuntime({ host: 'dsh', moduleUrl: import.meta.url }));
  } catch (err) {
    ctx.logger?.warn?.(`claude-mem: not active (${err instanceof Error ? err.message : String(err)})`);
  }
}
