/**
 * One-shot import of past transcripts (`claude-mem transcript ingest`, history import). Logs are
 * read from their checkpoints, so a second run over the same logs stores nothing new. A schema
 * with a history reader (SQLite stores, JSON documents) reads each matched file through it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Env } from '../shared/paths.js';
import type { MemoryStore } from '../store/types.js';
import type { ByteSource } from './byte-source.js';
import type { CompiledSchema } from './engine.js';
import { compileGlob, expandGlob } from './glob.js';
import { DEFAULT_MAX_LINE_BYTES, processFile, type FileMemory } from './processor.js';
import { historyReader } from './readers/index.js';

interface IngestSummary {
  files: number;
  bytes: number;
  lines: number;
  stored: number;
  duplicates: number;
  deadLetters: number;
  failed: Array<{ file: string; error: string }>;
}

interface IngestArgs {
  store: MemoryStore;
  schema: CompiledSchema;
  /** A file path or a glob. */
  pattern: string;
  subagentOnly?: boolean;
  maxLineBytes?: number;
  env?: Env;
  /** Attempts for a transient failure before the file is reported as failed. */
  attempts?: number;
  onFile?: (file: string, summary: { stored: number; duplicates: number; deadLetters: number }) => void;
}

export interface LogRead {
  status: 'done' | 'failed';
  bytes: number;
  lines: number;
  stored: number;
  duplicates: number;
  deadLetters: number;
  error?: string;
}

interface LogTask {
  store: MemoryStore;
  schema: CompiledSchema;
  /** The log (a file path, or `<store>#<session>`): what events name as their transcript. */
  key: string;
  /** Where the position is kept (default: `key`). */
  checkpointKey?: string;
  /** Checked between batches: once aborted, returns after the batch being committed. */
  signal?: AbortSignal;
  /** Bytes of log per transaction (processFile's default: 1 MiB). */
  batchBytes?: number;
  watchName: string;
  open?: () => Promise<ByteSource>;
  subagentOnly?: boolean;
  maxLineBytes?: number;
  attempts?: number;
  onProgress?: (offset: number) => void;
}

/** Reads one log to its end: retries a busy store with backoff, then one line per transaction. */
export async function readLogToEnd(t: LogTask): Promise<LogRead> {
  const sum: LogRead = { status: 'done', bytes: 0, lines: 0, stored: 0, duplicates: 0, deadLetters: 0 };
  const mem: FileMemory = {};
  let failures = 0;
  for (;;) {
    const r = await processFile(
      {
        path: t.key, checkpointKey: t.checkpointKey, watchName: t.watchName, schema: t.schema, subagentOnly: t.subagentOnly,
        maxLineBytes: t.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES, open: t.open,
      },
      t.store, mem, { timeBudgetMs: t.signal ? 250 : 2000, isolate: failures >= 3, batchBytes: t.batchBytes },
    );
    sum.bytes += r.bytes;
    sum.lines += r.lines;
    sum.stored += r.stored;
    sum.duplicates += r.duplicates;
    sum.deadLetters += r.deadLetters;
    t.onProgress?.(r.offset);
    // Stopped (Ctrl-C): the batches so far are committed with their checkpoint; a re-run resumes.
    if (t.signal?.aborted && r.status !== 'retry') return sum;
    if (r.status === 'more') continue;
    if (r.status === 'retry') {
      if (++failures >= (t.attempts ?? 6)) return { ...sum, status: 'failed', error: r.error ?? 'unknown error' };
      await sleep(50 * 2 ** failures);
      continue;
    }
    return sum;
  }
}

/**
 * A source for every processFile call (each closes what it opened): the one already made first,
 * then freshly opened ones. A log that vanished in between fails that call, which is retried.
 */
export function reopenable(first: ByteSource, reopen: () => Promise<ByteSource | null>): () => Promise<ByteSource> {
  let pending: ByteSource | undefined = first;
  return async () => {
    const s = pending ?? (await reopen());
    pending = undefined;
    if (!s) throw new Error('the log is gone');
    return s;
  };
}

/** The logs one matched file stands for: itself, or the sessions a reader finds in it. */
async function logsOf(file: string, schema: CompiledSchema): Promise<Array<{ key: string; open?: () => Promise<ByteSource | null> }>> {
  if (!schema.reader) return [{ key: file }];
  const reader = historyReader(schema.reader);
  const { stat } = await import('node:fs/promises');
  const st = await stat(file);
  return (await reader.list(file, { bytes: st.size, mtimeMs: st.mtimeMs })).map((log) => ({ key: log.key, open: () => reader.open(log) }));
}

export async function ingestFiles(a: IngestArgs): Promise<IngestSummary> {
  const files = await expandGlob(compileGlob(a.pattern, a.env));
  const sum: IngestSummary = { files: files.length, bytes: 0, lines: 0, stored: 0, duplicates: 0, deadLetters: 0, failed: [] };
  for (const file of files) {
    const per = { stored: 0, duplicates: 0, deadLetters: 0 };
    let logs;
    try { logs = await logsOf(file, a.schema); } catch (e) {
      sum.failed.push({ file, error: (e as Error).message });
      continue;
    }
    for (const log of logs) {
      let source: ByteSource | null | undefined;
      if (log.open) {
        try { source = await log.open(); } catch (e) { sum.failed.push({ file: log.key, error: (e as Error).message }); continue; }
        if (!source) continue;
      }
      const r = await readLogToEnd({
        store: a.store, schema: a.schema, key: log.key, watchName: `ingest:${a.schema.name}`, subagentOnly: a.subagentOnly,
        maxLineBytes: a.maxLineBytes, attempts: a.attempts, open: source && log.open ? reopenable(source, log.open) : undefined,
      });
      sum.bytes += r.bytes;
      sum.lines += r.lines;
      per.stored += r.stored;
      per.duplicates += r.duplicates;
      per.deadLetters += r.deadLetters;
      if (r.status === 'failed') sum.failed.push({ file: log.key, error: r.error ?? 'unknown error' });
    }
    sum.stored += per.stored;
    sum.duplicates += per.duplicates;
    sum.deadLetters += per.deadLetters;
    a.onFile?.(file, per);
  }
  return sum;
}
