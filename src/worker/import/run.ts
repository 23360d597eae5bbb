/**
 * Runs an import plan against the store, log by log, oldest first. Each batch of a log commits
 * with its checkpoint, so a stop (Ctrl-C: the signal is checked between batches) loses nothing
 * and a re-run resumes where the last commit left off. A log that keeps failing is reported and
 * the import goes on with the next; records that can never be stored become dead letters.
 */
import type { CaptureEvent } from '../../shared/capture-event.js';
import type { HostId } from '../../shared/hosts.js';
import type { MemoryStore } from '../../store/types.js';
import { historyCheckpointKey, ingestHistoryLog, type HistoryIngestResult, type HistoryLog, type HistorySource } from '../../transcripts/history.js';
import type { PlannedHost } from './plan.js';
import { letterColdTail } from './tail.js';

interface HostTotals {
  host: HostId;
  sessions: number;
  bytes: number;
  /** Logs read to their end in this run (or already read before it). */
  done: number;
  /** Bytes read in this run (a resumed or already imported log counts only what was left). */
  read: number;
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
  read: number;
  stored: number;
  duplicates: number;
  deadLetters: number;
  /** True when the signal stopped the run before every log was read. */
  stopped: boolean;
  elapsedMs: number;
  /** Who wrote: the worker (a job it ran) or the importing process itself (no worker up). */
  via?: 'worker' | 'here';
}

interface RunImportArgs {
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
  const sum: ImportSummary = { hosts: [], logs: 0, bytes: 0, read: 0, stored: 0, duplicates: 0, deadLetters: 0, stopped: false, elapsedMs: 0 };
  let bytesBefore = 0;
  let logsDone = 0;
  const ingest = a.ingest ?? ingestHistoryLog;
  for (const h of a.plan) {
    const t: HostTotals = { host: h.host, sessions: h.sessions, bytes: h.bytes, done: 0, read: 0, stored: 0, duplicates: 0, deadLetters: 0, failed: [] };
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
        else if (r.status === 'done') {
          t.done++;
          t.stored += closeTurn(a.store, h.host, log);
          t.deadLetters += await letterColdTail(a.store, log).catch(() => 0);
        }
        if (r.status === 'stopped') { sum.stopped = true; break; }
        logsDone++;
        report(log.bytes);
        bytesBefore += log.bytes;
      }
      if (sum.stopped) break;
    }
    sum.logs += t.done;
    sum.bytes += t.bytes;
    sum.read += t.read;
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
    const r = await ingest({ store, source, log, onProgress, signal });
    // A log the signal interrupted is not done: its checkpoint holds what was committed.
    return signal?.aborted && r.status !== 'failed' && r.bytes < log.bytes ? { ...r, status: 'stopped' } : r;
  } catch (e) {
    return { status: 'failed', bytes: 0, lines: 0, stored: 0, duplicates: 0, deadLetters: 0, error: (e as Error).message };
  }
}

/**
 * A log read to its end gets a turn_end for its session: the summary live capture would have
 * written at the session's end, from everything stored (the session stays open, so a later
 * resume goes on). Its time is the log's last record, so a re-run over an unchanged log
 * delivers the same event again and stores nothing.
 */
function closeTurn(store: MemoryStore, host: HostId, log: HistoryLog): number {
  const cp = store.getCheckpoint(historyCheckpointKey(log));
  const ctx = (cp?.context ?? {}) as Record<string, unknown>;
  const s = (k: string) => (typeof ctx[k] === 'string' ? (ctx[k] as string) : undefined);
  const sessionId = log.sessionId ?? s('sessionId');
  const cwd = log.cwd ?? s('cwd');
  if (!sessionId || !cwd) return 0;
  const event: CaptureEvent = {
    host, source: 'transcript', kind: 'turn_end', sessionId, cwd, reason: 'imported',
    at: s('lastAt') ?? new Date(log.mtimeMs).toISOString(), transcriptPath: log.path,
  };
  if (s('agentId')) event.agentId = s('agentId');
  if (s('parentSessionId')) event.parentSessionId = s('parentSessionId');
  if (ctx.isSubagent === true) event.isSubagent = true;
  try { return store.ingest([event]).stored; } catch { return 0; } // the summary waits for the next run
}

function add(t: HostTotals, r: OneResult): void {
  t.read += r.bytes;
  t.stored += r.stored;
  t.duplicates += r.duplicates;
  t.deadLetters += r.deadLetters;
}
