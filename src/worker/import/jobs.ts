/**
 * History imports run by the worker (routes/history.ts): when a worker is up, `import-history`
 * hands it the import instead of writing next to it, so there is one writer and no contention
 * for SQLite's write lock (a hook's write behind an import in another process waited up to
 * 0.8 s in the bench; here it waits at most for one batch). Each job is polled by its CLI; a job
 * nobody polls any more (the CLI was killed) stops after its batch, as Ctrl-C would.
 */
import { HOST_IDS, type HostId } from '../../shared/hosts.js';
import type { MemoryStore } from '../../store/types.js';
import { ingestHistoryLog } from '../../transcripts/history.js';
import { planImport, type PlannedHost } from './plan.js';
import { runImport, type ImportProgress, type ImportSummary } from './run.js';

/** Bytes of log per transaction in the worker: its event loop waits for one batch at most. */
export const WORKER_BATCH_BYTES = 256 * 1024;
const ABANDONED_AFTER_MS = 15_000;
const KEEP_FINISHED = 20;

interface JobRequest { hosts: HostId[]; sinceMs?: number; project?: string }

export interface JobState {
  job: string;
  hosts: Array<{ host: HostId; sessions: number; bytes: number; verified: boolean }>;
  progress?: ImportProgress;
  summary?: ImportSummary;
  error?: string;
  done: boolean;
}

interface Job { state: JobState; stop: AbortController; polledAt: number }

export class HistoryJobs {
  private readonly jobs = new Map<string, Job>();
  private seq = 0;
  private readonly watchdog: NodeJS.Timeout;

  constructor(private readonly store: MemoryStore, private readonly env: NodeJS.ProcessEnv = process.env) {
    this.watchdog = setInterval(() => this.sweep(), 1000);
    this.watchdog.unref();
  }

  async start(r: JobRequest): Promise<JobState> {
    const hosts = HOST_IDS.filter((h) => r.hosts.includes(h));
    const plan: PlannedHost[] = (await planImport({ hosts, sinceMs: r.sinceMs, project: r.project, env: this.env }));
    const id = `import-${Date.now().toString(36)}-${++this.seq}`;
    const job: Job = {
      state: { job: id, hosts: plan.map((h) => ({ host: h.host, sessions: h.sessions, bytes: h.bytes, verified: h.verified })), done: false },
      stop: new AbortController(),
      polledAt: Date.now(),
    };
    this.jobs.set(id, job);
    const ingest: typeof ingestHistoryLog = (a) => ingestHistoryLog({ ...a, batchBytes: WORKER_BATCH_BYTES });
    void runImport({ store: this.store, plan, signal: job.stop.signal, ingest, onProgress: (p) => { job.state.progress = p; } })
      .then((s) => { job.state.summary = s; })
      .catch((e: unknown) => { job.state.error = (e as Error).message; })
      .finally(() => { job.state.done = true; this.trim(); });
    return job.state;
  }

  status(id: string): JobState | undefined {
    const job = this.jobs.get(id);
    if (job) job.polledAt = Date.now();
    return job?.state;
  }

  stop(id: string): JobState | undefined {
    const job = this.jobs.get(id);
    job?.stop.abort();
    return job?.state;
  }

  /** Stops every job (worker shutdown): each ends after its committed batch. */
  close(): void {
    clearInterval(this.watchdog);
    for (const j of this.jobs.values()) j.stop.abort();
  }

  private sweep(): void {
    const now = Date.now();
    for (const j of this.jobs.values()) if (!j.state.done && now - j.polledAt > ABANDONED_AFTER_MS) j.stop.abort();
  }

  private trim(): void {
    const finished = [...this.jobs.entries()].filter(([, j]) => j.state.done);
    for (const [id] of finished.slice(0, Math.max(0, finished.length - KEEP_FINISHED))) this.jobs.delete(id);
  }
}
