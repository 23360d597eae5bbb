/**
 * OpenClaw typed plugin hooks → CaptureEvents (pure; the entry wires them). Shapes are the ones
 * OpenClaw 2026.9.6 delivered in ../shared/fixtures/hosts/openclaw/events/plugin-hooks.jsonl.
 *
 * Ids: `ctx.sessionId` is the session, `ctx.runId` is OpenClaw's own id of one agent run (one
 * user turn), used as the prompt id; tool calls carry `toolCallId`. `ctx.agentId` names an
 * OpenClaw agent (`main`), not a subagent, so it is not stored as one.
 */
import { isValidCwd, isValidSessionId, type CaptureEvent } from '../../shared/capture-event.js';
import { normalizeToolName } from '../../shared/tool-names.js';
import { str } from '../../shared/values.js';
import { isOwnRecallCall } from '../shared/api.js';
// OpenClaw's agent runtime keeps Pi-style messages: the same reader finds the final answer.
import { lastAssistantText } from '../pi-base/events.js';

export type Ev = Record<string, unknown>;
export interface HookCtx {
  sessionId?: unknown;
  sessionKey?: unknown;
  runId?: unknown;
  workspaceDir?: unknown;
  trigger?: unknown;
  toolCallId?: unknown;
}

/** The shared vocabulary, with OpenClaw's own tool ids (its facts). */
export function toolName(raw: string): string {
  return normalizeToolName('openclaw', raw);
}

/** Where a session works: remembered from the hooks that carry `workspaceDir` (tool hooks do not). */
export class Workspaces {
  private readonly bySession = new Map<string, string>();
  note(ctx: HookCtx | undefined): void {
    const id = str(ctx?.sessionId);
    const dir = str(ctx?.workspaceDir);
    if (id && dir && isValidCwd(dir)) this.bySession.set(id, dir);
  }
  cwd(ctx: HookCtx | undefined, hint?: unknown): string | undefined {
    const dir = str(ctx?.workspaceDir) ?? this.bySession.get(str(ctx?.sessionId) ?? '') ?? str(hint);
    return dir && isValidCwd(dir) ? dir : undefined;
  }
}

export interface Where {
  sessionId: string;
  cwd: string;
}

export function where(ctx: HookCtx | undefined, ws: Workspaces, hint?: unknown): Where | undefined {
  const sessionId = str(ctx?.sessionId);
  const cwd = ws.cwd(ctx, hint);
  return isValidSessionId(sessionId) && cwd ? { sessionId, cwd } : undefined;
}

/** A user's turn: heartbeat and cron runs are OpenClaw's own, not prompts. */
export const isUserTurn = (ctx: HookCtx | undefined) => ctx?.trigger === undefined || ctx.trigger === 'user';

function base(kind: CaptureEvent['kind'], w: Where, at: string): CaptureEvent {
  return { host: 'openclaw', source: 'plugin', kind, sessionId: w.sessionId, cwd: w.cwd, at };
}

/** `before_prompt_build {prompt, messages}`: the user's text as submitted (no timestamp prefix). */
export function prompt(w: Where, e: Ev, ctx: HookCtx, at: string): CaptureEvent | undefined {
  const text = str(e.prompt);
  if (!text?.trim()) return undefined;
  const runId = str(ctx.runId);
  return { ...base('prompt', w, at), prompt: text, ...(runId && { promptId: runId }) };
}

export function toolUse(w: Where, e: Ev, ctx: HookCtx, at: string): CaptureEvent | undefined {
  const id = str(e.toolCallId) ?? str(ctx.toolCallId);
  const raw = str(e.toolName);
  if (!id || !raw || isOwnRecallCall(raw, e.params)) return undefined;
  return { ...base('tool_use', w, at), toolUseId: id, toolName: toolName(raw), rawToolName: raw, toolInput: e.params };
}

/** `after_tool_call {toolName, params, toolCallId, result, error?, durationMs}`. */
export function toolResult(w: Where, e: Ev, ctx: HookCtx, at: string): CaptureEvent | undefined {
  const id = str(e.toolCallId) ?? str(ctx.toolCallId);
  const raw = str(e.toolName);
  if (!id || !raw || isOwnRecallCall(raw, e.params)) return undefined;
  const result = e.result as { details?: { status?: unknown; exitCode?: unknown } } | undefined;
  const failed = e.error !== undefined || (typeof result?.details?.exitCode === 'number' && result.details.exitCode !== 0);
  const response = e.error !== undefined && result === undefined ? { error: e.error } : result;
  return {
    ...base('tool_result', w, at), toolUseId: id, toolName: toolName(raw), rawToolName: raw,
    ...(e.params !== undefined && { toolInput: e.params }),
    ...(response !== undefined && { toolResponse: response }),
    ...(failed && { toolFailed: true }),
  };
}

/** `agent_end {messages, success}` (needs conversation access): the turn's final answer. */
export function assistantMessage(w: Where, e: Ev, at: string): CaptureEvent | undefined {
  const text = lastAssistantText(e.messages);
  return text ? { ...base('assistant_message', w, at), message: text } : undefined;
}

export function sessionStart(w: Where, e: Ev, at: string): CaptureEvent {
  const from = str(e.resumedFrom);
  return { ...base('session_start', w, at), reason: from ? 'resume' : 'startup' };
}

/** `session_end.reason`: new, reset, idle, daily, compaction, deleted, shutdown, restart or unknown. */
export function sessionEnd(w: Where, e: Ev, at: string): CaptureEvent {
  return { ...base('session_end', w, at), reason: str(e.reason) ?? 'unknown' };
}

export function compact(w: Where, at: string): CaptureEvent {
  return { ...base('compact', w, at), reason: 'compaction' };
}
