/**
 * Past sessions hosts already wrote: where they are (each shipped schema's `history` block) and
 * how one of them is read into the store (the same engine, checkpoints and dead letters as the
 * watcher). Logs that are not JSON lines go through a named reader that makes the line stream.
 */
import { stat } from 'node:fs/promises';
import { HOST_IDS, HOST_LABELS, type HostId } from '../shared/hosts.js';
import type { Env } from '../shared/paths.js';
import type { MemoryStore } from '../store/types.js';
import { compileSchema, type CompiledSchema } from './engine.js';
import { compileGlob, expandGlob } from './glob.js';
import type { ByteSource } from './byte-source.js';
import { readLogToEnd, reopenable, type LogRead } from './ingest.js';
import { historyReader } from './readers/index.js';
import type { HistoryLog } from './readers/reader-types.js';

export type { HistoryLog } from './readers/reader-types.js';
import { loadShippedSchemas } from './shipped.js';
import type { TranscriptSchema } from './types.js';


export interface HistorySource {
  host: HostId;
  /** Shipped schema name (templates/transcripts/<schema>.json). */
  schema: string;
  label: string;
  /** False: the format comes from the host's documentation, not from a captured real log. */
  verified: boolean;
  /** Every log of this source under `env` (its HOME and the host's own variables), oldest first. */
  findLogs(env: Env): Promise<HistoryLog[]>;
}

/** What reading one log did: the same figures as any log read to its end. */
export type HistoryIngestResult = LogRead;

interface SourceImpl extends HistorySource {
  compiled: CompiledSchema;
  reader?: string;
}

const hostOrder = (h: HostId) => HOST_IDS.indexOf(h);

function sourceFor(name: string, schema: TranscriptSchema): SourceImpl | null {
  const h = schema.history;
  if (!h) return null;
  const compiled = compileSchema(name, schema);
  return {
    host: schema.host,
    schema: name,
    label: `${HOST_LABELS[schema.host]} (${schema.description ?? name})`,
    verified: h.verified !== false,
    compiled,
    reader: h.reader,
    async findLogs(env: Env): Promise<HistoryLog[]> {
      const seen = new Set<string>();
      const logs: HistoryLog[] = [];
      for (const pattern of h.paths) {
        for (const file of await expandGlob(compileGlob(pattern, env))) {
          if (seen.has(file)) continue;
          seen.add(file);
          let st;
          try { st = await stat(file); } catch { continue; }
          if (!st.isFile()) continue;
          if (h.reader) {
            try {
              const listed = await historyReader(h.reader).list(file, { bytes: st.size, mtimeMs: st.mtimeMs });
              logs.push(...listed.map((l) => ({ ...l, madeLines: true })));
            } catch (e) {
              logs.push({ key: file, path: file, bytes: st.size, mtimeMs: st.mtimeMs, unreadable: (e as Error).message, madeLines: true });
            }
          }
          else logs.push({ key: file, path: file, bytes: st.size, mtimeMs: st.mtimeMs });
        }
      }
      return logs.sort((a, b) => a.mtimeMs - b.mtimeMs || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    },
  };
}

/** Every importable source, in HOST_IDS order (a host may have several). */
export function historySources(): HistorySource[] {
  const { schemas } = loadShippedSchemas();
  return Object.entries(schemas)
    .map(([name, s]) => sourceFor(name, s))
    .filter((s): s is SourceImpl => s !== null)
    .sort((a, b) => hostOrder(a.host) - hostOrder(b.host) || a.schema.localeCompare(b.schema, 'en'));
}

export function historySourcesFor(hosts: readonly HostId[]): HistorySource[] {
  return historySources().filter((s) => hosts.includes(s.host));
}

export interface HistoryIngestArgs {
  store: MemoryStore;
  source: HistorySource;
  log: HistoryLog;
  maxLineBytes?: number;
  /** Attempts for a transient failure (a busy store) before the log is reported as failed. */
  attempts?: number;
  /** Called after each batch with the bytes of this log read so far. */
  onProgress?: (bytesDone: number) => void;
  /** Checked between batches: once aborted, returns after the batch being committed. */
  signal?: AbortSignal;
  /** Bytes of log per transaction (processFile's default: 1 MiB). */
  batchBytes?: number;
}

/** The import's own position in a log, apart from a live watch's (which may have started at the end). */
export function historyCheckpointKey(log: Pick<HistoryLog, 'key'>): string {
  return `history:${log.key}`;
}

/**
 * Reads one log into the store from its own checkpoint (`historyCheckpointKey(log)`): a second run stores
 * nothing new, an interrupted one resumes. Malformed or truncated records are dead-lettered; the
 * log never gets stuck. Everything is read (no subagentOnly): the events carry the host's own
 * session, prompt and tool ids for deduplication against live capture.
 */
export async function ingestHistoryLog(a: HistoryIngestArgs): Promise<HistoryIngestResult> {
  const source = a.source as SourceImpl;
  if (!source.compiled) throw new Error(`not a history source: ${String(a.source.schema)}`);
  if (a.log.unreadable) return { status: 'failed', bytes: 0, lines: 0, stored: 0, duplicates: 0, deadLetters: 0, error: `cannot read ${a.log.key}: ${a.log.unreadable}` };
  let open: (() => Promise<ByteSource>) | undefined;
  if (source.reader) {
    let made: ByteSource | null;
    try { made = await historyReader(source.reader).open(a.log); } catch (e) {
      return { status: 'failed', bytes: 0, lines: 0, stored: 0, duplicates: 0, deadLetters: 0, error: `cannot read ${a.log.key}: ${(e as Error).message}` };
    }
    if (!made) return { status: 'done', bytes: 0, lines: 0, stored: 0, duplicates: 0, deadLetters: 0 }; // the session is gone from the store
    const reader = historyReader(source.reader);
    open = reopenable(made, () => reader.open(a.log));
  }
  return readLogToEnd({
    store: a.store, schema: source.compiled, key: a.log.key, checkpointKey: historyCheckpointKey(a.log), watchName: `history:${source.schema}`,
    maxLineBytes: a.maxLineBytes, attempts: a.attempts, open, onProgress: a.onProgress, signal: a.signal, batchBytes: a.batchBytes,
  });
}
