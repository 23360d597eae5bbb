/** What a history reader is and what it lists: shared by the readers, their index and history.ts. */
import type { ByteSource } from '../byte-source.js';

export interface HistoryLog {
  /** Checkpoint key and what is shown: the file path, or `<store path>#<session id>` for a store. */
  key: string;
  /** The file on disk (the log itself, or the store that holds it). */
  path: string;
  /** Bytes this log stands for (the file's size; for a store, the session's records). */
  bytes: number;
  mtimeMs: number;
  /** Known without reading the log (stores), else undefined. */
  sessionId?: string;
  cwd?: string;
  /** The store could not be listed (not a database, locked, another shape): importing it fails with this. */
  unreadable?: string;
  /**
   * A reader makes this log's lines (a store, a side file first, merged chunks): its checkpoint
   * offsets count those lines' bytes, not the file's.
   */
  madeLines?: boolean;
}

export interface HistoryReader {
  /** The logs (sessions) one matched file holds. */
  list(path: string, file: { bytes: number; mtimeMs: number }): Promise<HistoryLog[]>;
  /** One log's JSON lines, or null when the session is gone. */
  open(log: HistoryLog): Promise<ByteSource | null>;
}
