/**
 * claude-mem for DeepSeek Harness: a recall-only Cordis plugin. DeepSeek Harness sessions are
 * captured by the claude-mem worker from their session logs (the transcript watch, the single
 * writer), so this plugin never captures: it adds the project's memory context when a top-level
 * session starts. The memory tools come from the `@deepseek-ai/dsh-mcp-client` row beside it.
 *
 * Named exports (`name`, `inject`, `apply`), the shape DeepSeek Harness's own plugins use: a
 * default export can lose `inject`. Injected context is marked plugin-sourced, which the `dsh`
 * transcript schema leaves out, so it is never stored back as a prompt.
 *
 * The harness's agent API came in two generations, told apart by the listener's first argument:
 * - current (deepseek-ai/deepseek-harness `packages/core/agent/src/runtime-types.ts`): the
 *   listener gets one payload `{ agent, source }` (the agent dispatcher builds `{...payload, agent}`)
 *   and `agent.inject` takes one identified `UserMessage` `{ id, role: 'user', content, source }`;
 * - earlier releases: the listener gets `(agent, source)` and `agent.inject(content, { source })`.
 */
import { randomUUID } from 'node:crypto';
import { isValidCwd, isValidSessionId } from '../../shared/capture-event.js';
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

type TextBlock = { type: 'text'; text: string };
type PluginSource = { kind: 'plugin'; plugin: string };

/** The user-role message the current harness queues as model-facing context. */
export interface InjectedMessage {
  readonly id: string;
  readonly role: 'user';
  readonly content: readonly TextBlock[];
  readonly source: PluginSource;
}

export interface AgentLike {
  session?: { header?: SessionHeaderLike };
  inject?(...args: unknown[]): unknown;
}

/** The part of a Cordis context this plugin uses. */
export interface CordisContextLike {
  on(event: string, listener: (...args: unknown[]) => unknown): unknown;
  effect?(fn: () => () => unknown, label?: string): unknown;
  logger?: { warn?(message: string): void };
}

const SOURCE: PluginSource = Object.freeze({ kind: 'plugin', plugin: 'claude-mem' });
/** How long after session start the context may still arrive (it is injected when it comes). */
const INJECT_WAIT_MS = 8_000;

/** A started agent, and how its `inject` must be called. */
interface StartedAgent { agent: AgentLike; api: 'message' | 'positional' }

const hasSession = (v: unknown): v is AgentLike => !!v && typeof v === 'object' && 'session' in v;

/** The agent of an `agent/session-start` call, from either generation's arguments. */
export function startedAgent(args: readonly unknown[]): StartedAgent | undefined {
  const first = args[0];
  if (first && typeof first === 'object' && 'agent' in first && hasSession((first as { agent: unknown }).agent)) {
    return { agent: (first as { agent: AgentLike }).agent, api: 'message' };
  }
  return hasSession(first) ? { agent: first, api: 'positional' } : undefined;
}

/** The session a started agent runs: its header's id and workspace, top-level sessions only. */
export function sessionOf(agent: AgentLike | undefined): { sessionId: string; cwd: string } | undefined {
  const h = agent?.session?.header;
  if (!h || h.parentSession || (typeof h.delegationDepth === 'number' && h.delegationDepth > 0)) return undefined;
  return isValidSessionId(h.id) && isValidCwd(h.cwd) ? { sessionId: h.id, cwd: h.cwd } : undefined;
}

/** A frozen UserMessage, the shape the harness's own `createUserMessage` produces. */
export function contextMessage(text: string): InjectedMessage {
  return Object.freeze({ id: randomUUID(), role: 'user' as const, content: Object.freeze([Object.freeze({ type: 'text' as const, text })]), source: SOURCE });
}

function injectInto(started: StartedAgent, text: string): void {
  const { agent, api } = started;
  if (api === 'message') agent.inject!(contextMessage(text));
  else agent.inject!([{ type: 'text', text }], { source: SOURCE });
}

export function attach(ctx: CordisContextLike, rt: PluginRuntime): void {
  ctx.on('agent/session-start', (...args: unknown[]) => {
    const started = startedAgent(args);
    const s = sessionOf(started?.agent);
    if (!started || !s || typeof started.agent.inject !== 'function') return;
    // Detached: session start is not held up; the context is injected once it is there.
    void withinBudget(rt.log, 'dsh session-start context', INJECT_WAIT_MS, undefined, async () => {
      const text = await rt.context(s, INJECT_WAIT_MS - 500);
      if (text.trim()) injectInto(started, text);
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
