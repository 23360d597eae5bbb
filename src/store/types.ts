/**
 * The repository interface the worker, the MCP server, the transcript watcher and the CLI use.
 * SQLite (better-sqlite3) is the implementation; a PostgreSQL one can implement the same interface.
 */
import type { CaptureEvent } from '../shared/capture-event.js';
import type { HostId } from '../shared/hosts.js';
import type { ObservationDraft, ObservationType } from '../observer/types.js';
/** A pin with the observation it holds. */
export interface PinnedObservation extends PinRow {
  observation: Observation;
}

/** A tombstone: what was forgotten, by identity (memory-keys.ts); no content. */
export interface TombstoneRow {
  key: string;
  kind: 'event' | 'session' | 'observation';
  project: string | null;
  createdAt: string;
}

export type { ObservationType };

/** A stored observation: what the observer derived (ObservationDraft), plus where and when. */
export interface Observation extends ObservationDraft {
  id: number;
  sessionId: number; // internal row id of the session
  hostSessionId: string; // the host's own session id
  host: HostId;
  project: string;
  promptNumber: number | null;
  createdAt: string; // ISO
}

export interface PromptRow {
  id: number;
  sessionId: number;
  hostSessionId: string;
  host: HostId;
  project: string;
  number: number;
  nativeId: string | null;
  text: string;
  createdAt: string;
}

export interface SessionRow {
  id: number;
  host: HostId;
  hostSessionId: string;
  project: string;
  cwd: string;
  parentSessionId: number | null;
  isSubagent: boolean;
  agentId: string | null;
  startedAt: string;
  endedAt: string | null;
  endReason: string | null;
}

export interface IngestRejection {
  index: number;
  code: string; // stable, e.g. invalid_session_id, invalid_cwd, invalid_event
  reason: string;
}

/** An event as sync carries it between devices: what the capturing device stored, with its key. */
export interface ReplicaEvent {
  idemKey: string;
  /** The device that captured it. */
  origin: string;
  /** The project identity its session has there. */
  project: string;
  host: string;
  kind: string;
  /** The stored payload (after privacy), or the stub of a dropped event. */
  payload: string;
  dropped: string | null;
  at: string;
}

export interface ReplicaResult {
  stored: number;
  duplicates: number;
  /** Malformed (or from an unknown host or kind): not stored. */
  skipped: number;
}

export interface IngestResult {
  stored: number; // new events
  duplicates: number; // idempotency key already present
  rejected: IngestRejection[]; // permanent: never acceptable as given
}

type SearchType = ObservationType | 'prompt' | 'assistant' | 'summary';

export interface SearchQuery {
  query: string; // a question or a few words; "quoted phrase" must occur; `foo*` is a prefix; empty = recent
  project?: string; // only this project (callers default it to the caller's project)
  /** With a project that has no match: search every project instead (the answer says so). */
  widen?: boolean;
  host?: HostId;
  type?: SearchType;
  since?: string; // ISO date or time, inclusive
  until?: string; // ISO date or time, inclusive
  file?: string; // path or suffix of a file read/modified
  /** The asking session (host + its id): files it touched rank higher. */
  sessionHost?: HostId;
  hostSessionId?: string;
  limit?: number; // sessions, default 10, max 200
  offset?: number;
}

/** One matching row: the evidence a result rests on. Ids are per kind. */
export interface SearchEvidence {
  kind: 'observation' | 'prompt' | 'assistant' | 'summary';
  id: number;
  type: string; // the observation type, or the kind
  title: string;
  snippet: string; // matched words in **bold**
  promptNumber: number | null;
  files: string[];
  createdAt: string;
}

/** A turn of a result: what was asked, how the agent answered, the rows that matched. */
export interface SearchTurn {
  promptNumber: number | null; // null: rows outside any turn (summary, saved notes)
  promptId: number | null;
  request: string;
  outcome: string; // the turn's last reply ('' when none was captured)
  outcomeId: number | null; // its assistant message id
  evidence: SearchEvidence[];
}

/** One session answering the query, best first. */
export interface SearchResult {
  sessionId: number;
  hostSessionId: string;
  host: HostId;
  project: string;
  startedAt: string;
  endedAt: string | null;
  /** The machine and member a pulled session came from ('desktop (alice)'); null when captured here. */
  from?: string | null;
  summaryId: number | null;
  request: string; // what the session was asked (summary, else its first prompt)
  outcome: string; // how it ended (summary, else its last reply)
  turns: SearchTurn[];
  files: string[]; // files of the evidence
  createdAt: string; // time of the best evidence
  score: number; // higher is better; already sorted best first
}

export interface SearchAnswer {
  results: SearchResult[];
  /** The project searched; null = all projects. */
  project: string | null;
  /** True when the project had no match and every project was searched instead. */
  widened: boolean;
}

export interface TimelineQuery {
  /** Centre on an observation id, or on the newest item of a session / project. */
  anchorId?: number;
  hostSessionId?: string;
  host?: HostId;
  project?: string;
  before?: number; // items before the anchor (default 5)
  after?: number; // items after (default 5)
}

export interface TimelineItem {
  kind: 'observation' | 'prompt' | 'summary' | 'session_start' | 'session_end';
  id: number;
  title: string;
  host: HostId;
  hostSessionId: string;
  project: string;
  createdAt: string;
}

export interface ContextQuery {
  project?: string; // defaults to the project of cwd
  cwd?: string;
  host?: HostId;
  hostSessionId?: string; // the session asking (excluded from "recent")
  /**
   * Who asks: 'session' = a session (re)starts: the project memory, recorded as given to this
   * session; 'prompt' = a prompt was submitted: the project memory if this session has not had it,
   * else only memory relevant to `prompt` and not given yet (often nothing). Omitted: the project
   * memory, nothing recorded (mem_context).
   */
  mode?: 'session' | 'prompt';
  prompt?: string; // the submitted prompt (mode 'prompt')
  maxTokens?: number; // default 1500; approx 4 chars per token
  limit?: number; // recent observations, default 20
}

export interface ContextResult {
  project: string;
  text: string; // ready to inject; '' when there is nothing
  observationIds: number[];
  summaryId: number | null; // the newest summary shown
  summaryIds?: number[]; // every summary shown
  sessionIds?: number[]; // the past sessions shown (internal row ids)
  /** What was given: the project memory, memory relevant to the prompt, or nothing. */
  kind?: 'project' | 'relevant' | 'none';
  approxTokens: number;
}

export interface SaveMemoryInput {
  text: string;
  title?: string;
  project?: string;
  cwd?: string;
  host?: HostId;
  hostSessionId?: string;
  concepts?: string[];
  files?: string[];
}

/** One transcript file's reading state (src/transcripts/README.md). */
export interface TranscriptCheckpoint {
  filePath: string;
  watchName: string;
  offset: number; // bytes consumed (a line or zstd frame boundary)
  inode: number | null;
  fingerprint: string | null; // hash of a window of bytes before offset
  /** Tool calls seen but not yet answered, keyed by call id. */
  pending: Record<string, unknown>;
  /** Session context gathered so far (session id, cwd, model, subagent marker, ...). */
  context: Record<string, unknown>;
  updatedAt?: string;
}

export interface DeadLetter {
  id?: number;
  source: 'transcript' | 'spool' | 'api';
  filePath: string | null;
  offset: number | null;
  reason: string;
  raw: string; // bounded (first 64 KiB)
  createdAt?: string;
}

export interface StoreStats {
  sessions: number;
  prompts: number;
  observations: number;
  summaries: number;
  events: number;
  deadLetters: number;
  lastEventAtByHost: Partial<Record<HostId, string>>;
  /** Per host: its last real prompt, tool result, turn and session end, and its recent sessions (traffic.ts). */
  captureByHost: Partial<Record<HostId, HostTraffic>>;
  schemaVersion: number;
}

export interface MemoryStore {
  /** Stores events exactly once each (idempotency keys), deriving sessions, prompts, observations, summaries. One transaction. */
  ingest(events: CaptureEvent[]): IngestResult;
  /** Several independent batches in one transaction, one result each (group commit). Optional. */
  ingestMany?(batches: CaptureEvent[][]): IngestResult[];
  /** Same as ingest, plus the file's checkpoint, in the same transaction: both or neither. */
  ingestWithCheckpoint(events: CaptureEvent[], checkpoint: TranscriptCheckpoint): IngestResult;
  getCheckpoint(filePath: string): TranscriptCheckpoint | undefined;
  deleteCheckpoint(filePath: string): void;
  addDeadLetter(letter: DeadLetter): number;
  listDeadLetters(limit?: number): DeadLetter[];

  search(query: SearchQuery): SearchAnswer;
  timeline(query: TimelineQuery): TimelineItem[];
  /** What the viewer page reads (sessions, one session's story, the live feed). Optional. */
  viewer?(): ViewerReader;
  getObservations(ids: number[]): Observation[];
  getPrompts(ids: number[]): PromptRow[];
  getSession(host: HostId, hostSessionId: string): SessionRow | undefined;
  saveMemory(input: SaveMemoryInput): Observation;
  context(query: ContextQuery): ContextResult;
  /** True the first time memory is asked for a session, for hosts that take it once (then false). */
  claimContext(host: HostId, hostSessionId: string): boolean;

  /**
   * Forgets what the target names (rows, sessions, or a query's matches): gone from the tables,
   * the search index, the summaries and the events, with tombstones so it never comes back.
   * With dryRun, only says what would go.
   */
  forget(target: ForgetTarget, opts?: { dryRun?: boolean }): ForgetResult;
  /** Rewrites the database file (index merge, VACUUM, WAL truncated): forgotten bytes are gone from disk. */
  purge(): PurgeResult;
  /** Pins an observation to its project's session-start context. Throws not_found. */
  pin(observationId: number): PinnedObservation;
  /** True when it was pinned. */
  unpin(observationId: number): boolean;
  /** Pins, oldest first; one project or all. */
  listPins(project?: string): PinnedObservation[];
  /** Tombstones, oldest first, created after `since` (ISO) when given. */
  listTombstones(opts?: { since?: string; limit?: number; afterKey?: string }): TombstoneRow[];
  /** Imports records of an export (import.ts): matched by identity, so nothing is added twice. */
  importRecords(records: readonly unknown[]): ImportResult;
  /** Records tombstones (from an import or another machine) and forgets what they name. Returns the new ones. */
  applyTombstones(rows: readonly { key: string; project?: string | null; createdAt?: string }[]): number;

  /** Removes everything a doctor probe wrote (events with probe: true and what they derived). */
  deleteProbeData(hostSessionId: string): number;
  stats(): StoreStats;
  /** `PRAGMA quick_check` result: 'ok' or the problems. */
  quickCheck(): string;
  close(): void;
}

export interface ForgetQuery {
  /** Words that must all occur (a "quoted phrase" word for word; `word*` a prefix). */
  q: string;
  project?: string;
  host?: HostId;
  type?: string; // an observation type, or prompt / assistant / summary
  since?: string;
  until?: string;
  file?: string;
}

export interface ForgetTarget {
  observationIds?: number[];
  promptIds?: number[];
  assistantIds?: number[];
  summaryIds?: number[];
  /** Sessions by the host's own id (any host unless given); their subagent sessions go too. */
  sessions?: { hostSessionId: string; host?: HostId }[];
  query?: ForgetQuery;
}

export type ForgottenKind = 'session' | 'observation' | 'prompt' | 'assistant' | 'summary';

export interface ForgetCounts {
  sessions: number;
  observations: number;
  prompts: number;
  assistantMessages: number;
  summaries: number; // removed
  summariesRewritten: number; // written again without what was forgotten
  events: number;
  pins: number;
  deadLetters: number;
}

export interface ForgetItem {
  kind: ForgottenKind;
  id: number;
  host: HostId;
  hostSessionId: string;
  project: string;
  title: string; // a line of the row's text, to recognise it by
  createdAt: string;
}

export interface ForgetResult {
  dryRun: boolean;
  counts: ForgetCounts;
  /** The rows, at most MAX_ITEMS (sessions first); `truncated` when there were more. */
  items: ForgetItem[];
  truncated: boolean;
  /** Tombstones written (0 on a dry run). */
  tombstones: number;
}

export interface PurgeResult {
  /** Bytes of the database file and its WAL before and after. */
  before: { db: number; wal: number };
  after: { db: number; wal: number };
  /** False when a reader in another process kept the WAL from being emptied. */
  walTruncated: boolean;
}

export interface PinRow {
  observationId: number;
  /** The observation's identity across machines (memory-keys.ts). */
  obsKey: string;
  project: string;
  pinnedAt: string;
}

export type ImportCounts = Record<'sessions' | 'events' | 'prompts' | 'assistant' | 'observations' | 'summaries' | 'pins' | 'tombstones', number>;

export interface ImportResult {
  added: ImportCounts;
  /** Records already here (or named by a tombstone). */
  skipped: number;
  /** Records of a type this version does not know (a newer export): left out, counted. */
  unknown: number;
}

export interface ExportFilter {
  project?: string;
  host?: string;
  /** Rows from this ISO date or time on (a date alone: that day's start, UTC). */
  since?: string;
}

export interface HostTraffic {
  lastSessionStartAt: string | null;
  lastPromptAt: string | null;
  lastToolResultAt: string | null;
  lastTurnEndAt: string | null;
  lastSessionEndAt: string | null;
  recent: RecentSessions;
}

export interface RecentSessions {
  /** Sessions looked at (the host's newest real, non-subagent sessions). */
  sessions: number;
  /** Of those, sessions with no stored prompt. */
  withoutPrompt: number;
  /** Of those, sessions with no observation (no tool result was understood). */
  withoutToolResult: number;
  /** Of those, sessions with no end stored (no session end, no summary from a turn end). */
  notEnded: number;
  /** Start time of the newest and the oldest of them. */
  newestStartedAt: string | null;
  oldestStartedAt: string | null;
}

export interface ViewerProject {
  project: string;
  sessions: number;
  hosts: HostId[];
  lastAt: string;
}

export interface ViewerSession {
  id: number;
  host: HostId;
  hostSessionId: string;
  project: string;
  cwd: string;
  parentId: number | null;
  isSubagent: boolean;
  agentId: string | null;
  startedAt: string;
  endedAt: string | null;
  endReason: string | null;
  prompts: number;
  observations: number;
  /** The summary's request, else the first prompt. */
  request: string;
  children: ViewerSession[];
}

export type ViewerItem =
  | { kind: 'prompt'; id: number; number: number; text: string; createdAt: string }
  | { kind: 'observation'; id: number; observation: Observation; createdAt: string }
  | { kind: 'assistant'; id: number; promptNumber: number | null; text: string; createdAt: string };

export interface ViewerSummary {
  id: number;
  request: string;
  outcome: string;
  text: string;
  filesRead: string[];
  filesModified: string[];
  commands: string[];
  createdAt: string;
}

export interface ViewerSessionDetail {
  session: ViewerSession;
  parent: { id: number; hostSessionId: string } | null;
  items: ViewerItem[];
  summary: ViewerSummary | null;
  /** Subagent sessions, each with its own story. */
  children: ViewerSessionDetail[];
}

/** A row of the live feed. */
export interface FeedRow {
  kind: 'observation' | 'prompt' | 'summary';
  id: number;
  sessionId: number;
  host: HostId;
  hostSessionId: string;
  project: string;
  type: string;
  title: string;
  text: string;
  files: string[];
  createdAt: string;
}

/** Where a feed reader has got to: the highest id seen per table. */
export interface FeedCursor {
  observation: number;
  prompt: number;
  summary: number;
}

/** What the viewer reads (viewer-reads.ts implements it). */
export interface ViewerReader {
  projects(): ViewerProject[];
  sessions(q?: { project?: string; host?: HostId; limit?: number }): ViewerSession[];
  session(id: number, depth?: number): ViewerSessionDetail | undefined;
  cursor(): FeedCursor;
  feed(after?: FeedCursor, limit?: number): FeedRow[];
}
