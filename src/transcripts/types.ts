/**
 * The transcript schema language and the watch configuration (src/transcripts/README.md).
 * Every host difference lives in JSON schemas of this shape; the code knows no host.
 */
import type { HostId } from '../shared/hosts.js';

export const ACTIONS = [
  'session_init', 'session_context', 'user_message', 'assistant_message', 'tool_use',
  'tool_result', 'observation', 'file_edit', 'session_end',
] as const;
export type Action = (typeof ACTIONS)[number];

export const MATCH_OPERATORS = [
  'equals', 'not_equals', 'in', 'not_in', 'exists', 'starts_with', 'not_starts_with', 'contains', 'regex',
] as const;
export type MatchOperator = (typeof MATCH_OPERATORS)[number];

/** `{ path, <operator>: operand }`, or `all` / `any` / `not` of nested rules. */
export type MatchRule =
  | { all: MatchRule[] }
  | { any: MatchRule[] }
  | { not: MatchRule }
  | ({ path: string; flags?: string } & Partial<Record<MatchOperator, unknown>>);

/**
 * A field: a path (`payload.content[0].text`, `$.x`, `$item.id`, `$ctx.promptId`, `$file.parts[-2]`),
 * or an object: `{coalesce:[…]}` (first non-empty), `{value:…}`, `{path, default}`; object forms may
 * add `parse: "json"`, `join: "<sep>"` (arrays of strings), `decode: "uri"`, `strip: "<regex>"`.
 */
export type FieldSpec =
  | string
  | {
      path?: string;
      coalesce?: FieldSpec[];
      value?: unknown;
      default?: unknown;
      parse?: 'json';
      join?: string;
      decode?: 'uri';
      /** A regex whose matches are removed from the text (each string or `{text}` block). */
      strip?: string;
    };

export interface EventRule {
  name?: string;
  /** Absent: every record matches. */
  match?: MatchRule;
  /** Path to an array: the rule runs once per element, reachable as `$item`. */
  each?: string;
  action: Action;
  fields?: Record<string, FieldSpec>;
}

export interface ToolSpec {
  /** Canonical name (Bash, Read, Edit, …). */
  name?: string;
  /** Renames top-level keys of the tool input (host key → our key). */
  rename?: Record<string, string>;
  /** Wraps a non-object input as `{ [wrap]: input }`. */
  wrap?: string;
}

export interface TranscriptSchema {
  description?: string;
  host: HostId;
  version?: number;
  /** Session fields used when the log itself does not carry them (e.g. from the file path). */
  session?: Record<string, FieldSpec>;
  /** Host tool name → canonical name or a ToolSpec. Unlisted names pass through. */
  tools?: Record<string, string | ToolSpec>;
  /** Regexes on the host's tool name: such calls and their results are not recorded (our own mem_* tools). */
  ignoreTools?: string[];
  /** Where this host keeps its logs: what an installer writes as the watch for this schema. */
  defaultWatch?: { path: string; startAtEnd?: boolean; subagentOnly?: boolean };
  /** Where the host keeps its past sessions, for a one-time import of its history. */
  history?: HistorySpec;
  events: EventRule[];
}

export interface HistorySpec {
  /** Globs (same language as watch paths) of the host's session logs. */
  paths: string[];
  /** A named reader for logs that are not JSON lines (a SQLite store, one JSON document per session). */
  reader?: string;
  /** False: the format is taken from the host's documentation, not from a captured real log. */
  verified?: boolean;
}

export interface WatchConfig {
  name: string;
  /** Glob with `~`, `$VAR`, `${VAR}` and `${VAR:-default}` expansion; `*`, `?`, `**`, `{a,b}`, `[ab]`. */
  path: string;
  /** A shipped schema name (templates/transcripts/<name>.json) or a key of `schemas`. */
  schema: string;
  /** Files that already exist when the watch is created are read from their end. */
  startAtEnd?: boolean;
  /** Record only sessions whose first record carries the subagent marker. */
  subagentOnly?: boolean;
  /** Who wrote this watch (e.g. `installer`); informational. */
  managedBy?: string;
  enabled?: boolean;
}

export interface WatcherOptions {
  /** How often known files are checked for growth (ms). */
  pollIntervalMs?: number;
  /** How often globs are re-expanded to find new files (ms). */
  discoveryIntervalMs?: number;
  /** Lines longer than this are dead-lettered without being read whole (bytes). */
  maxLineBytes?: number;
}

export interface TranscriptWatchConfig {
  version?: number;
  schemas?: Record<string, TranscriptSchema>;
  watches: WatchConfig[];
  options?: WatcherOptions;
}

export interface FileStatus {
  path: string;
  watch: string;
  offset: number;
  size: number;
  compressed: boolean;
  lastError?: string;
  retryAt?: string;
}

export interface WatcherStatus {
  running: boolean;
  configPath: string;
  /** The error list of the last rejected config; the previous valid one stays in force. */
  configError?: string;
  watches: { name: string; schema: string; path: string; files: number; subagentOnly: boolean; startAtEnd: boolean }[];
  files: FileStatus[];
  totals: { bytesRead: number; lines: number; eventsStored: number; duplicates: number; deadLetters: number; retries: number };
  lastScanAt?: string;
}
