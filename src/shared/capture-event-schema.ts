/**
 * The event shape every capture path produces (hooks, transcript watcher, native plugins): one zod
 * definition, from which the TypeScript type is derived. The worker parses with it (routes, spool
 * drain); the hook imports only the type (src/shared/capture-event.ts), never zod.
 *
 * Values are checked for their types only (a wrong type is a caller bug); what they mean (known
 * host, session id pattern, absolute cwd) is the store's to check, one event at a time.
 */
import { z } from 'zod';
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

/** A string the store checks for its meaning; typed here as what it must be. */
const checkedLater = <T extends string>() => z.string() as unknown as z.ZodType<T, string>;
const optStr = z.string().optional();
const optBool = z.boolean().optional();

const FileEditShape = z.object({ oldText: optStr, newText: optStr });

const CAPTURE_EVENT_SHAPE = {
  host: checkedLater<HostId>(),
  source: checkedLater<CaptureSource>(),
  kind: checkedLater<CaptureKind>(),
  /** The host's own session id, validated against SESSION_ID_RE. */
  sessionId: z.string(),
  /** Absolute working directory. */
  cwd: z.string(),
  /** ISO time of capture; set once and kept through spool and retries. */
  at: z.string(),
  /** The host's own prompt/turn id. Never invented. */
  promptId: optStr,
  toolUseId: optStr,
  /** Subagents: the agent's id and the session that spawned it. */
  agentId: optStr,
  parentSessionId: optStr,
  isSubagent: optBool,
  prompt: optStr,
  /** Normalized tool name (Bash, Read, Edit, Write, Grep, Glob, WebFetch, WebSearch, Task, mcp__server__tool, ...). */
  toolName: optStr,
  /** The host's own tool name before normalization. */
  rawToolName: optStr,
  toolInput: z.unknown().optional(),
  toolResponse: z.unknown().optional(),
  /** True when the tool reported failure (PostToolUseFailure, non-zero exit, error flag). */
  toolFailed: optBool,
  filePath: optStr,
  edits: z.array(FileEditShape).optional(),
  message: optStr,
  /** session_end / turn_end / compact / session_start reason or source (startup, resume, clear, ...). */
  reason: optStr,
  title: optStr,
  transcriptPath: optStr,
  /**
   * Set on a prompt whose text was entirely `<private>`: the text is gone, and the store drops
   * the tool events of that turn (until the session's next prompt).
   */
  privateTurn: optBool,
  /** Marks synthetic events written by `doctor`; removed after the round trip. */
  probe: optBool,
  /** The host's model, when given. */
  model: optStr,
};

/** Parses one event; unknown keys pass through (newer senders), the store keeps what it knows. */
export const CaptureEventSchema = z.looseObject(CAPTURE_EVENT_SHAPE);

export type CaptureEvent = z.infer<z.ZodObject<typeof CAPTURE_EVENT_SHAPE>>;
export type FileEdit = z.infer<typeof FileEditShape>;

export const MAX_EVENTS_PER_BATCH = 5000;

export const EventsBody = z.object({
  events: z.array(CaptureEventSchema).min(1).max(MAX_EVENTS_PER_BATCH),
});
