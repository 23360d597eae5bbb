/**
 * Declarative config changes. A host module says *what* it owns; the engine decides how to
 * edit each file so that everything else in it stays byte-identical.
 */
import type { EngineError } from './errors.js';

/** A key path inside a JSON/YAML document (object keys only). */
export type KeyPath = readonly string[];

/**
 * Identifies one of our entries in an array (a hook group, a `[[hooks]]` table, a plugin string).
 * Every rule must hold. `path` is relative to the entry; without it, `contains` looks at every
 * string anywhere in the entry (the entry itself when it is a string).
 */
export interface MatchRule {
  path?: readonly string[];
  contains?: string;
  equals?: unknown;
  /** A regular expression (source) that one of those strings must match. */
  pattern?: string;
}
export type EntryMatcher = readonly MatchRule[];

interface Base {
  /** Absolute path of the file to edit. */
  file: string;
  /** Host id the change belongs to (manifest key; a failing file fails only its hosts). */
  host: string;
}

/** Set a value at a key path in a JSON/JSONC file. Owns that value; revert restores what it replaced. */
export interface JsonSetChange extends Base {
  kind: 'json-set';
  path: KeyPath;
  value: unknown;
}

/**
 * Upsert one entry, found by `match`, in the array at `path`. Owns that entry only, never the
 * array; further entries the matcher finds (an older install's, a second copy's) are ours too and
 * go. With `inner`, the entry is a group whose array at `inner` may also hold the user's items
 * (a Claude hook group the user added a hook to): then only the items `match` finds are ours.
 */
export interface JsonArrayUpsertChange extends Base {
  kind: 'json-array-upsert';
  path: KeyPath;
  match: EntryMatcher;
  entry: unknown;
  inner?: KeyPath;
}

/** One key in a table, e.g. `[features] hooks = true`. Owns that key; revert restores what it replaced. */
export interface TomlSetChange extends Base {
  kind: 'toml-set';
  table: KeyPath;
  key: string;
  value: TomlData;
}

/** A whole table such as `[mcp_servers.claude-mem]` (and any sub-tables under it). */
export interface TomlTableChange extends Base {
  kind: 'toml-table';
  table: KeyPath;
  value: Record<string, TomlData>;
}

/** One entry, found by `match`, of an array of tables such as `[[hooks]]`. */
export interface TomlArrayEntryChange extends Base {
  kind: 'toml-array-entry';
  array: KeyPath;
  match: EntryMatcher;
  entry: Record<string, TomlData>;
}

/** A map entry at a path, e.g. `extensions.claude-mem` in Goose's config.yaml. */
export interface YamlSetChange extends Base {
  kind: 'yaml-set';
  path: KeyPath;
  value: unknown;
}

export type CommentStyle = 'html' | 'hash' | 'slash';

/** A managed block between marker comments in a text or markdown file. */
export interface TextBlockChange extends Base {
  kind: 'text-block';
  /** Short stable id written into the markers, e.g. `context`. */
  id: string;
  content: string;
  /** Marker comment syntax; default from the file extension (markdown → html). */
  comment?: CommentStyle;
}

/** A whole file we create from content (a plugin, a hooks file). */
export interface FileChange extends Base {
  kind: 'file';
  content: string;
  mode?: number;
}

export type Change =
  | JsonSetChange
  | JsonArrayUpsertChange
  | TomlSetChange
  | TomlTableChange
  | TomlArrayEntryChange
  | YamlSetChange
  | TextBlockChange
  | FileChange;

export type ChangeKind = Change['kind'];

/** TOML has no null: values are strings, numbers, booleans, arrays and tables. */
export type TomlData = string | number | boolean | readonly TomlData[] | { readonly [k: string]: TomlData };

/**
 * A whole file as the manifest keeps it: its digest and size, not its text (a plugin bundle is
 * ~80 KB, and the manifest is rewritten on every install). Undoing it only needs to know whether
 * the file still holds what we wrote; a file we replaced is put back from its backup.
 */
export interface StoredFileChange {
  kind: 'file';
  /** sha256 (hex) of the text we wrote. */
  sha256: string;
  /** Its length in UTF-8 bytes. */
  size: number;
  mode?: number;
  /**
   * The text itself: kept by older manifests; on a loaded record, read on first use from the file
   * when it still holds exactly what we wrote (undefined otherwise). Never written back.
   */
  content?: string;
}

/** A change without its file/host (those are the manifest's keys). */
export type StoredChange = DistributiveOmit<Exclude<Change, FileChange>, 'file' | 'host'> | StoredFileChange;
type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

export type Previous =
  | { present: false }
  /** `raw` is the exact source text of the old value, so a restore is byte-identical. */
  | { present: true; value: unknown; raw?: string; hash?: string };

/** What the manifest keeps about one applied change: enough to find and undo it later. */
export interface ChangeRecord {
  id: string;
  change: StoredChange;
  /** The value this change replaced when it was first made (or its absence). */
  previous: Previous;
  /** Containers (key paths) that did not exist before and that we created; `[]` is the document root. */
  created: string[][];
  /** Exact text of the container we first inserted into when it was empty (`{}`, `{ }`, `extensions: {}`). */
  containerRaw?: string;
}

export interface ManifestFile {
  /** The file did not exist before we first wrote it. */
  createdByUs: boolean;
  /** Directories we created for it (outermost first), removed on revert when empty. */
  createdDirs: string[];
  hashBefore: string | null;
  hashAfter: string | null;
  backup?: string;
  /** `pending` until the file write finished (crash safety: the record exists before the write). */
  state: 'pending' | 'applied';
  changes: ChangeRecord[];
}

/** What the installer records about a host (capture writer, recall, version, time). The engine only carries it. */
export type HostMeta = Readonly<Record<string, unknown>>;

export interface ManifestHost {
  files: Record<string, ManifestFile>;
  /** Optional (older manifests have none); kept as is by apply, dropped with the host on revert. */
  meta?: HostMeta;
}

export interface Manifest {
  schemaVersion: 1;
  hosts: Record<string, ManifestHost>;
}

export type FileFormat = 'json' | 'toml' | 'yaml' | 'text' | 'file';

export interface PlannedRecord {
  host: string;
  record: ChangeRecord;
  /** The file already held exactly this change (nothing replaced this time). */
  noop: boolean;
}

/** One file's plan: its new text, what each change did, and why it was refused if it was. */
export interface PlannedFile {
  path: string;
  format: FileFormat;
  /** Hosts with changes in this file. */
  hosts: string[];
  existed: boolean;
  before: string | null;
  /** New text; null means the file is removed (revert). */
  after: string | null;
  changed: boolean;
  /** Mode to write (whole files we own); otherwise the file keeps its own. */
  mode?: number;
  /** Unified diff from `before` to `after` ('' when unchanged); computed on first read. */
  diff: string;
  records: PlannedRecord[];
  /** Directories that writing this file would create. */
  createdDirs: string[];
  /** The file was refused: nothing in it is written, and its hosts are left out everywhere. */
  error?: EngineError;
  notes: string[];
}

/** What applying a plan did, file by file. */
export interface ApplySummary {
  written: string[];
  unchanged: string[];
  backups: string[];
  /** Files whose write failed (e.g. permissions); their hosts are reported, the rest carry on. */
  failed: Array<{ path: string; hosts: string[]; error: EngineError }>;
  /** Files of failed hosts that had been written and were put back as they were. */
  rolledBack: Array<{ path: string; hosts: string[] }>;
  /** Files that could not be put back: they keep our change, recorded for uninstall. */
  rollbackFailed: Array<{ path: string; hosts: string[]; error: EngineError }>;
}
