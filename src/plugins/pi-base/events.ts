/**
 * Pi / OMP extension events → CaptureEvents. Pure functions: the extension wires them to the
 * host and delivers what they return.
 *
 * Ids: the session id is the host's own (`ctx.sessionManager.getSessionId()`), tool calls carry
 * the host's `toolCallId`. Neither host gives a prompt or turn id at `before_agent_start` (Pi's
 * `turnIndex` counts model calls inside one prompt and restarts at 0), so prompts carry no
 * `promptId`: the event key is then the content hash with the capture time, which makes a
 * redelivery one row and the same text typed twice two rows.
 */
import { isValidCwd, isValidSessionId, SESSION_ID_RE, type CaptureEvent } from '../../shared/capture-event.js';
import type { HostId } from '../../shared/hosts.js';
import { normalizeToolName } from '../../shared/tool-names.js';
import { str } from '../../shared/values.js';
import { isOwnRecallCall } from '../shared/api.js';
import type { ExtensionContextLike } from './host-api.js';

export interface SessionRef {
  sessionId: string;
  cwd: string;
  transcriptPath?: string;
  agentId?: string;
  isSubagent?: boolean;
}

/** Our own recall tools (native, through MCP, or as an OMP `xd://` device): calling them is not work worth remembering. */
export const isRecallCall = isOwnRecallCall;

function call<T>(fn: (() => T) | undefined): T | undefined {
  try {
    return fn?.();
  } catch {
    return undefined;
  }
}

/** The session a handler runs in, or undefined when the host gives no usable id or cwd. */
export function sessionRef(ctx: ExtensionContextLike | undefined): SessionRef | undefined {
  const sm = ctx?.sessionManager;
  const sessionId = call(sm?.getSessionId?.bind(sm));
  const cwd = typeof ctx?.cwd === 'string' ? ctx.cwd : call(sm?.getCwd?.bind(sm));
  if (!isValidSessionId(sessionId) || !isValidCwd(cwd)) return undefined;
  const ref: SessionRef = { sessionId, cwd };
  const file = call(sm?.getSessionFile?.bind(sm));
  if (typeof file === 'string' && isValidCwd(file)) ref.transcriptPath = file;
  // OMP runs subagents with `ctx.agent.kind === 'sub'`.
  const agent = ctx?.agent;
  if (agent?.kind === 'sub' && typeof agent.id === 'string' && SESSION_ID_RE.test(agent.id)) {
    ref.agentId = agent.id;
    ref.isSubagent = true;
  }
  return ref;
}

function base(host: HostId, kind: CaptureEvent['kind'], s: SessionRef, at: string): CaptureEvent {
  return {
    host, source: 'plugin', kind, sessionId: s.sessionId, cwd: s.cwd, at,
    ...(s.transcriptPath && { transcriptPath: s.transcriptPath }),
    ...(s.agentId && { agentId: s.agentId, isSubagent: true }),
  };
}


export function sessionStart(host: HostId, s: SessionRef, event: Record<string, unknown>, at: string): CaptureEvent {
  const reason = str(event.reason);
  return { ...base(host, 'session_start', s, at), ...(reason && { reason }) };
}

export function sessionEnd(host: HostId, s: SessionRef, event: Record<string, unknown>, at: string): CaptureEvent {
  return { ...base(host, 'session_end', s, at), reason: typeof event.reason === 'string' ? event.reason : 'shutdown' };
}

/** `before_agent_start.prompt`: the submitted text after template expansion, as the model gets it. */
export function prompt(host: HostId, s: SessionRef, event: Record<string, unknown>, at: string): CaptureEvent | undefined {
  const text = str(event.prompt);
  if (!text?.trim()) return undefined;
  return { ...base(host, 'prompt', s, at), prompt: text };
}

/** `tool_execution_start {toolCallId, toolName, args}` → the first half of a tool call. */
export function toolUse(host: HostId, s: SessionRef, event: Record<string, unknown>, at: string): CaptureEvent | undefined {
  const id = str(event.toolCallId);
  const raw = str(event.toolName);
  if (!id || !raw || isRecallCall(raw, event.args ?? event.input)) return undefined;
  return { ...base(host, 'tool_use', s, at), toolUseId: id, toolName: normalizeToolName(host, raw), rawToolName: raw, toolInput: event.args ?? event.input };
}

/** `tool_result {toolCallId, toolName, input, content, details, isError}` → the finished call. */
export function toolResult(host: HostId, s: SessionRef, event: Record<string, unknown>, at: string): CaptureEvent | undefined {
  const id = str(event.toolCallId);
  const raw = str(event.toolName);
  if (!id || !raw || isRecallCall(raw, event.input ?? event.args)) return undefined;
  const response: Record<string, unknown> = { content: event.content };
  if (event.details !== undefined) response.details = event.details;
  return {
    ...base(host, 'tool_result', s, at),
    toolUseId: id, toolName: normalizeToolName(host, raw), rawToolName: raw,
    ...(event.input !== undefined && { toolInput: event.input }),
    toolResponse: response,
    ...(event.isError === true && { toolFailed: true }),
  };
}

/** `session_compact {compactionEntry, fromExtension}` → a compaction marker with its summary. */
export function compact(host: HostId, s: SessionRef, event: Record<string, unknown>, at: string): CaptureEvent {
  const entry = event.compactionEntry as { summary?: unknown } | undefined;
  const summary = str(entry?.summary);
  return { ...base(host, 'compact', s, at), reason: event.fromExtension === true ? 'extension' : 'compaction', ...(summary && { message: summary }) };
}

/** The text of the last assistant message of a finished prompt (`agent_end.messages`). */
export function lastAssistantText(messages: unknown): string | undefined {
  if (!Array.isArray(messages)) return undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i] as { role?: unknown; content?: unknown } | null;
    if (m?.role !== 'assistant') continue;
    if (typeof m.content === 'string') return m.content.trim() || undefined;
    if (!Array.isArray(m.content)) return undefined;
    const text = m.content
      .filter((b: { type?: unknown; text?: unknown }) => b?.type === 'text' && typeof b.text === 'string')
      .map((b: { text: string }) => b.text)
      .join('\n')
      .trim();
    if (text) return text;
  }
  return undefined;
}

export function assistantMessage(host: HostId, s: SessionRef, event: Record<string, unknown>, at: string): CaptureEvent | undefined {
  const text = lastAssistantText(event.messages);
  return text ? { ...base(host, 'assistant_message', s, at), message: text } : undefined;
}
