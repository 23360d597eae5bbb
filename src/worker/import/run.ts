/**
 * Runs an import plan against the store, log by log, oldest first. Each batch of a log commits
 * with its checkpoint, so a stop (Ctrl-C: the signal is checked between batches) loses nothing
 * and a re-run resumes where the last commit left off. A log that keeps failing is reported and
 * the import goes on with the next; records that can never be stored become dead letters.
 */
import type { HostId } from '../../shared/hosts.js';
import type { MemoryStore } from '../store/types.js';
import { ingestHistoryLog, type HistoryIngestResult, type HistoryLog, type HistorySource } from '../transcripts/history.js';
import type { PlannedHost } from './plan.js';

export interface HostTotals {
  host: HostId;
  sessions: number;
  bytes: number;
  /** Logs read to their end in this run (or already read before it). */
  done: number;
  stored: number;
  duplicates: number;
  deadLetters: number;
  failed: Array<{ log: string; error: string }>;
}

export interface ImportProgress {
  host: HostId;
  log: string;
  logsDone: number;
  logsTotal: number;
  bytesDone: number;
  bytesTotal: number;
  stored: number;
}

export interface ImportSummary {
  hosts: HostTotals[];
  logs: number;
  bytes: number;
  stored: number;
  duplicates: number;
  deadLetters: number;
  /** True when the signal stopped the run before every log was read. */
  stopped: boolean;
  elapsedMs: number;
}

export interface RunImportArgs {
  store: MemoryStore;
  plan: PlannedHost[];
  signal?: AbortSignal;
  onProgress?: (p: ImportProgress) => void;
  /** The one-log step; the history module's by default (tests and the bench pass their own). */
  ingest?: typeof ingestHistoryLog;
}

export async function runImport(a: RunImportArgs): Promise<ImportSummary> {
  const started = Date.now();
  const logsTotal = a.plan.reduce((n, h) => n + h.sessions, 0);
  const bytesTotal = a.plan.reduce((n, h) => n + h.bytes, 0);
  const sum: ImportSummary = { hosts: [], logs: 0, bytes: 0, stored: 0, duplicates: 0, deadLetters: 0, stopped: false, elapsedMs: 0 };
  let bytesBefore = 0;
  let logsDone = 0;
  const ingest = a.ingest ?? ingestHistoryLog;
  for (const h of a.plan) {
    const t: HostTotals = { host: h.host, sessions: h.sessions, bytes: h.bytes, done: 0, stored: 0, duplicates: 0, deadLetters: 0, failed: [] };
    sum.hosts.push(t);
    for (const { source, logs } of h.sources) {
      for (const log of logs) {
        if (a.signal?.aborted) { sum.stopped = true; break; }
        const report = (bytes: number) => a.onProgress?.({
          host: h.host, log: log.key, logsDone, logsTotal, bytesDone: bytesBefore + Math.min(bytes, log.bytes), bytesTotal, stored: sum.stored + t.stored,
        });
        const r = await ingestOne(ingest, a.store, source, log, report, a.signal);
        add(t, r);
        if (r.status === 'failed') t.failed.push({ log: log.key, error: r.error ?? 'unknown error' });
        else if (r.status === 'done') t.done++;
        if (r.status === 'stopped') { sum.stopped = true; break; }
        bytesBefore += log.bytes;
        logsDone++;
        report(log.bytes);
      }
      if (sum.stopped) break;
    }
    sum.logs += t.done;
    sum.bytes += t.bytes;
    sum.stored += t.stored;
    sum.duplicates += t.duplicates;
    sum.deadLetters += t.deadLetters;
    if (sum.stopped) break;
  }
  sum.elapsedMs = Date.now() - started;
  return sum;
}

type OneResult = Omit<HistoryIngestResult, 'status'> & { status: HistoryIngestResult['status'] | 'stopped' };

async function ingestOne(
  ingest: typeof ingestHistoryLog, store: MemoryStore, source: HistorySource, log: HistoryLog,
  onProgress: (bytes: number) => void, signal?: AbortSignal,
): Promise<OneResult> {
  try {
    const r = await ingest({ store, source, log, onProgress, signal } as Parameters<typeof ingestHistoryLog>[0]);
    return signal?.aborted && r.status !== 'failed' && r.stopped ? { ...r, status: 'stopped' } : r;
  } catch (e) {
    return { status: 'failed', bytes: 0, lines: 0, stored: 0, duplicates: 0, deadLetters: 0, error: (e as Error).message };
  }
}

function add(t: HostTotals, r: OneResult): void {
  t.stored += r.stored;
  t.duplicates += r.duplicates;
  t.deadLetters += r.deadLetters;
}
