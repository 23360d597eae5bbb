/**
 * One import run as the CLI and the installer do it: the store opened in this process (the
 * worker keeps its event loop for hooks; the two share SQLite's write lock one batch at a time),
 * Ctrl-C stopping after the batch being committed (a second Ctrl-C exits at once), progress on
 * stderr.
 */
import type { HostId } from '../../shared/hosts.js';
import { dataPaths, type DataPaths } from '../../shared/paths.js';
import { openStore } from '../../worker/store/sqlite-store.js';
import { planImport, type PlannedHost } from '../../worker/import/plan.js';
import { runImport, type ImportSummary } from '../../worker/import/run.js';
import { historySources } from '../../worker/transcripts/history.js';
import { eprintln } from '../output.js';
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
}

export async function runHistoryImport(o: RunOptions): Promise<ImportSummary> {
  const paths: DataPaths = dataPaths(o.dataDir);
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
    return await runImport({ store, plan: o.plan, signal: stop.signal, onProgress: view ? (p) => view.update(p) : undefined });
  } finally {
    view?.done();
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
    store.close();
  }
}
