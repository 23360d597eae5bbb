/**
 * One import run as the CLI and the installer do it. With a worker up, the worker runs it (one
 * writer: a hook's write waits for one 256 KiB batch at most, instead of competing for SQLite's
 * write lock with another process) and this process polls it; with none, the store is opened
 * here. Ctrl-C stops after the batch being committed (a second Ctrl-C exits at once); progress
 * on stderr.
 */
import type { HostId } from '../../shared/hosts.js';
import { dataPaths, type DataPaths } from '../../shared/paths.js';
import { openStore } from '../../store/sqlite-store.js';
import { planImport, type PlannedHost } from '../../worker/import/plan.js';
import { runImport, type ImportSummary } from '../../worker/import/run.js';
import { historySources } from '../../transcripts/history.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { workerRequest } from '../../shared/worker-client.js';
import { checkHealth, recordedAuth } from '../../shared/worker-start.js';
import type { JobState } from '../../worker/import/jobs.js';
import { CliError, eprintln } from '../output.js';
import { progressView } from './progress.js';

export interface FindOptions {
  /** Hosts asked for; undefined = every host with a history source. */
  hosts?: readonly HostId[];
  sinceMs?: number;
  project?: string;
  env: NodeJS.ProcessEnv;
}

/** Hosts that have logs to import (dry run, installer offer, and the run itself). */
export async function findHistory(o: FindOptions): Promise<PlannedHost[]> {
  const hosts = o.hosts ?? [...new Set(historySources().map((s) => s.host))];
  const plan = await planImport({ hosts, sinceMs: o.sinceMs, project: o.project, env: o.env });
  return o.hosts ? plan : plan.filter((h) => h.sessions > 0);
}

export interface RunOptions {
  plan: PlannedHost[];
  dataDir: string;
  /** Show progress on stderr (bar on a TTY, plain lines otherwise). */
  progress: boolean;
  /** What the worker is asked to import when it runs the job (the same filters as the plan). */
  request?: { sinceMs?: number; project?: string };
}

export async function runHistoryImport(o: RunOptions): Promise<ImportSummary> {
  const paths: DataPaths = dataPaths(o.dataDir);
  const hosts = o.plan.filter((h) => h.sessions > 0).map((h) => h.host);
  const health = hosts.length ? await checkHealth(paths).catch(() => undefined) : undefined;
  if (health?.ok) {
    const viaWorker = await runInWorker(paths, health.info.port, hosts, o);
    if (viaWorker) return viaWorker;
  }
  return runHere(paths, o);
}

const POLL_MS = 250;

/** Undefined when the worker cannot take the job (an older worker): the caller imports here. */
async function runInWorker(paths: DataPaths, port: number, hosts: HostId[], o: RunOptions): Promise<ImportSummary | undefined> {
  const auth = recordedAuth(paths);
  if (!auth) return undefined;
  const call = (path: string, body: unknown) => workerRequest<JobState>({ port, auth, path, body, timeoutMs: 30_000 });
  const started = await call('/api/history/import', { hosts, ...o.request }).catch(() => undefined);
  if (!started || started.status !== 202 || !started.verified) return undefined;
  const job = started.body.job;
  let stopping = false;
  const onSigint = () => {
    if (stopping) process.exit(130);
    stopping = true;
    eprintln('\nstopping after the batch being stored (Ctrl-C again to quit now); run the same command again to resume');
    void call('/api/history/stop', { job }).catch(() => undefined);
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  const view = o.progress ? progressView() : undefined;
  try {
    for (;;) {
      await sleep(POLL_MS);
      const r = await call('/api/history/status', { job });
      if (r.status !== 200 || !r.verified) throw new CliError(`the worker lost the import job (HTTP ${r.status}); run the command again to resume`);
      if (r.body.progress) view?.update(r.body.progress);
      if (!r.body.done) continue;
      if (r.body.error || !r.body.summary) throw new CliError(`the import failed in the worker: ${r.body.error ?? 'no summary'}; run the command again to resume`);
      return { ...r.body.summary, via: 'worker' };
    }
  } finally {
    view?.done();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}

async function runHere(paths: DataPaths, o: RunOptions): Promise<ImportSummary> {
  const store = openStore(paths.db);
  const stop = new AbortController();
  const onSigint = () => {
    if (stop.signal.aborted) process.exit(130);
    stop.abort();
    eprintln('\nstopping after the batch being stored (Ctrl-C again to quit now); run the same command again to resume');
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  const view = o.progress ? progressView() : undefined;
  try {
    return { ...(await runImport({ store, plan: o.plan, signal: stop.signal, onProgress: view ? (p) => view.update(p) : undefined })), via: 'here' };
  } finally {
    view?.done();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    store.close();
  }
}
