/**
 * OpenCode payloads → CaptureEvents (host `opencode`, source `plugin`). Pure functions, shared by
 * the V1 and V2 plugins; the ids are always OpenCode's own: the session id (`ses_…`), the user
 * message id (`msg_…`) as promptId, the tool call id (`callID` / V2 `id`) as toolUseId.
 */
import type { CaptureEvent } from '../../shared/capture-event.js';
import { isValidSessionId } from '../../shared/capture-event.js';
import { normalizeToolName } from '../../shared/tool-names.js';
import { str } from '../../shared/values.js';
import { baseEvent, type EventBase } from '../shared/events.js';
import { isOwnRecallTool } from '../shared/recall-specs.js';

export const HOST = 'opencode' as const;

/** OpenCode's own tool ids the shared vocabulary does not know (V2 names its shell `shell`). */
const OPENCODE_TOOLS: Readonly<Record<string, string>> = { list: 'LS', patch: 'ApplyPatch', shell: 'Bash' };

/** OpenCode names an MCP tool `<server>_<tool>`, both sanitized to `[A-Za-z0-9_-]`. */
export const sanitizeMcpName = (name: string) => name.replace(/[^a-zA-Z0-9_-]/g, '_');

/**
 * The canonical tool name: OpenCode's built-ins mapped, MCP tools of a known server turned into
 * `mcp__<server>__<tool>` (servers come from the config the plugin saw), anything else as is.
 */
export function toolName(raw: string, mcpServers: ReadonlySet<string> = new Set()): string {
  const own = OPENCODE_TOOLS[raw.toLowerCase()];
  if (own) return own;
  for (const server of mcpServers) {
    const prefix = `${sanitizeMcpName(server)}_`;
    if (raw.startsWith(prefix) && raw.length > prefix.length) return `mcp__${server}__${raw.slice(prefix.length)}`;
  }
  return normalizeToolName(HOST, raw);
}

const record = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;

/** A usable session reference, or undefined when OpenCode gave no valid id. */
export function ref(sessionId: unknown, cwd: string, parentSessionId?: string): EventBase | undefined {
  if (!isValidSessionId(sessionId)) return undefined;
  return { sessionId, cwd, ...(isValidSessionId(parentSessionId) && { parentSessionId }) };
}

export function sessionStart(s: EventBase, reason: string, at?: string): CaptureEvent {
  return { ...baseEvent(HOST, 'session_start', s, at), reason };
}

export function sessionEnd(s: EventBase, reason: string, at?: string): CaptureEvent {
  return { ...baseEvent(HOST, 'session_end', s, at), reason };
}

export function compact(s: EventBase, reason: string, at?: string): CaptureEvent {
  return { ...baseEvent(HOST, 'compact', s, at), reason };
}

export function assistantMessage(s: EventBase, text: string | undefined, at?: string): CaptureEvent | undefined {
  return text?.trim() ? { ...baseEvent(HOST, 'assistant_message', s, at), message: text } : undefined;
}

/**
 * What the user typed: the text parts of the user message, minus the parts OpenCode adds itself
 * (`synthetic`: file contents, "the following tool was executed by the user", ...) and `ignored` ones.
 */
export function promptText(parts: unknown): string | undefined {
  if (!Array.isArray(parts)) return undefined;
  const text = parts
    .map(record)
    .filter((p) => p?.type === 'text' && typeof p.text === 'string' && p.synthetic !== true && p.ignored !== true)
    .map((p) => p!.text as string)
    .join('\n');
  return text.trim() ? text : undefined;
}

export function prompt(s: EventBase, messageId: unknown, text: string | undefined, model?: string, at?: string): CaptureEvent | undefined {
  if (text === undefined) return undefined;
  const promptId = str(messageId);
  return { ...baseEvent(HOST, 'prompt', s, at), prompt: text, ...(promptId && { promptId }), ...(model && { model }) };
}

/** `providerID/modelID` from `{providerID, modelID}` (V1) or `{providerID, id}` (V2). */
export function modelName(model: unknown): string | undefined {
  const m = record(model);
  const id = str(m?.modelID) ?? str(m?.id);
  const provider = str(m?.providerID);
  return id ? (provider ? `${provider}/${id}` : id) : undefined;
}

interface ToolCall {
  callId: unknown;
  tool: unknown;
  args: unknown;
  mcpServers?: ReadonlySet<string>;
}

function toolBase(kind: 'tool_use' | 'tool_result', s: EventBase, c: ToolCall, at?: string): CaptureEvent | undefined {
  const id = str(c.callId);
  const raw = str(c.tool);
  if (!id || !raw || isOwnRecallTool(raw)) return undefined;
  const name = toolName(raw, c.mcpServers);
  const filePath = str(record(c.args)?.filePath) ?? str(record(c.args)?.path);
  return {
    ...baseEvent(HOST, kind, s, at), toolUseId: id, toolName: name, rawToolName: raw,
    ...(c.args !== undefined && { toolInput: c.args }),
    ...(filePath && /^(Read|Write|Edit|ApplyPatch)$/.test(name) && { filePath }),
  };
}

/** `tool.execute.before` / V2 `execute.before`: a call starts. */
export function toolUse(s: EventBase, c: ToolCall, at?: string): CaptureEvent | undefined {
  return toolBase('tool_use', s, c, at);
}

/**
 * A finished call. `response` is OpenCode's result (`{title, output, metadata}` in V1; V2's
 * `{content, output, metadata}`), or `{error}` for a failed call (`failed` set).
 */
export function toolResult(s: EventBase, c: ToolCall, response: unknown, failed: boolean, at?: string): CaptureEvent | undefined {
  const e = toolBase('tool_result', s, c, at);
  if (!e) return undefined;
  const r = record(response);
  // Attachments are file payloads (images, PDFs): not memory material.
  const { attachments: _drop, ...rest } = r ?? {};
  return { ...e, toolResponse: r ? rest : response, ...(failed && { toolFailed: true }) };
}
