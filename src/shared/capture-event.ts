/**
 * The one event shape every capture path produces (hooks, transcript watcher, native plugins).
 * Kept free of dependencies: the hook bundle imports it.
 */
import { isAbsolute } from 'node:path';
import type { HostId } from './hosts.js';

export type CaptureSource = 'hook' | 'transcript' | 'plugin';

export type CaptureKind =
  | 'session_start'
  | 'prompt'
  | 'tool_use' // a tool call seen before its result (transcripts, plugins' "before" events)
  | 'tool_result' // a finished tool call: carries the response, and the input too where known
  //                (hooks' PostToolUse). Merged with the tool_use of the same toolUseId.
  | 'file_edit'
  | 'assistant_message'
  | 'observation' // a ready-made note (transcript `observation` action, plugins)
  | 'compact'
  // A turn finished (hosts that never report a session end, e.g. Kimi Code under `kimi -p`):
  // the session's summary is written from everything so far; the session stays open.
  | 'turn_end'
  | 'session_end';

export const CAPTURE_KINDS: readonly CaptureKind[] = [
  'session_start', 'prompt', 'tool_use', 'tool_result', 'file_edit',
  'assistant_message', 'observation', 'compact', 'turn_end', 'session_end',
];

export interface FileEdit {
  oldText?: string;
  newText?: string;
}

export interface CaptureEvent {
  host: HostId;
  source: CaptureSource;
  kind: CaptureKind;
  /** The host's own session id, validated against SESSION_ID_RE. */
  sessionId: string;
  /** The host's own prompt/turn id. Never invented. */
  promptId?: string;
  toolUseId?: string;
  /** Subagents: the agent's id and the session that spawned it. */
  agentId?: string;
  parentSessionId?: string;
  isSubagent?: boolean;
  /** Absolute working directory. */
  cwd: string;
  prompt?: string;
  /** Normalized tool name (Bash, Read, Edit, Write, Grep, Glob, WebFetch, WebSearch, Task, mcp__server__tool, ...). */
  toolName?: string;
  /** The host's own tool name before normalization. */
  rawToolName?: string;
  toolInput?: unknown;
  toolResponse?: unknown;
  /** True when the tool reported failure (PostToolUseFailure, non-zero exit, error flag). */
  toolFailed?: boolean;
  filePath?: string;
  edits?: FileEdit[];
  message?: string;
  /** session_end / turn_end / compact / session_start reason or source (startup, resume, clear, ...). */
  reason?: string;
  title?: string;
  transcriptPath?: string;
  /** ISO time of capture; set once and kept through spool and retries. */
  at: string;
  /**
   * Set on a prompt whose text was entirely `<private>`: the text is gone, and the store drops
   * the tool events of that turn (until the session's next prompt).
   */
  privateTurn?: boolean;
  /** Marks synthetic events written by `doctor`; removed after the round trip. */
  probe?: boolean;
  /** The host's model, when given. */
  model?: string;
}

export const SESSION_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Upper bound for any single free-text field before truncation (characters). */
export const MAX_FIELD_CHARS = 64 * 1024;
export const TRUNCATION_MARKER = '…[truncated by claude-mem]';

export function isValidSessionId(id: unknown): id is string {
  return typeof id === 'string' && SESSION_ID_RE.test(id);
}

export function isValidCwd(cwd: unknown): cwd is string {
  return typeof cwd === 'string' && cwd.length > 0 && cwd.length < 4096 && isAbsolute(cwd) && !cwd.includes('\0');
}

/** Truncates a string over `max` characters, keeping the head and a visible marker. */
export function truncateText(text: string, max = MAX_FIELD_CHARS): string {
  if (text.length <= max) return text;
  return text.slice(0, Math.max(0, max - TRUNCATION_MARKER.length)) + TRUNCATION_MARKER;
}
