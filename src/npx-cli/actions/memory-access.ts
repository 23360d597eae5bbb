/**
 * How forget, export and import reach memory: through the worker when it runs (it is the one
 * writer), else the database file directly. Unlike search, these never start a worker.
 */
import { existsSync } from 'node:fs';
import type { DataPaths } from '../../shared/paths.js';
import type { WorkerAuth } from '../../shared/worker-auth.js';
import { workerError, workerRequest } from '../../shared/worker-client.js';
import { checkHealth, recordedAuth } from '../../shared/worker-start.js';
import type { SqliteStore } from '../../store/sqlite-store.js';
import { CliError, UsageError } from '../output.js';

export interface RunningWorker {
  port: number;
  auth: WorkerAuth;
}

/** The worker of this data directory, when one runs and proves it is ours. */
export async function runningWorker(paths: DataPaths): Promise<RunningWorker | undefined> {
  const h = await checkHealth(paths, 1000);
  if (!h.ok) return undefined;
  const auth = recordedAuth(paths, h.info);
  return auth ? { port: h.info.port, auth } : undefined;
}

/** A POST to the worker; its error answer becomes a CLI error (400: a usage error). */
export async function workerPost<T>(w: RunningWorker, path: string, body: unknown, timeoutMs = 600_000): Promise<T> {
  const res = await workerRequest<T>({ port: w.port, auth: w.auth, method: 'POST', path, body, timeoutMs });
  if (res.status >= 200 && res.status < 300 && res.verified) return res.body;
  const error = workerError(res.body);
  const message = `the worker answered ${res.status}${error ? `: ${error.message}` : ''}`;
  throw res.status === 400 ? new UsageError(error?.message ?? message) : new CliError(message);
}

/** Opens the database for a command that writes (creating it when `create`), and closes it after. */
export async function withStore<T>(paths: DataPaths, opts: { readonly: boolean; create?: boolean }, fn: (s: SqliteStore) => T | Promise<T>): Promise<T | undefined> {
  if (!existsSync(paths.db) && !opts.create) return undefined;
  const { openStore } = await import('../../store/sqlite-store.js');
  const store = openStore(paths.db, { readonly: opts.readonly });
  try {
    return await fn(store);
  } finally {
    store.close();
  }
}

/** A store error the user caused (bad query, unknown id) as a usage error. */
export function asUsage(err: unknown): never {
  const code = (err as { code?: unknown })?.code;
  if (code === 'invalid_input' || code === 'not_found') throw new UsageError((err as Error).message);
  throw err;
}
