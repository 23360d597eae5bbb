/**
 * What the hook knows about the worker during one run: where it is (worker.json + token, with a
 * cheap pid check instead of a health round trip) and how to get one started.
 */
import { statSync } from 'node:fs';
import type { DataPaths, Env } from '../shared/paths.js';
import type { WorkerAuth } from '../shared/worker-auth.js';
import { workerEndpoint } from '../shared/worker-client.js';
import { ensureWorker, startErrorPath } from '../shared/worker-start.js';
import type { HookLog } from './debug-log.js';
import { errorText } from './debug-log.js';

export interface Endpoint {
  port: number;
  /** Signs requests for the recorded worker instance; the token itself is never sent. */
  auth: WorkerAuth;
}

export interface WorkerLink {
  /** The recorded worker, unless it is known to be down. */
  endpoint(): Endpoint | undefined;
  /** Remember that the worker did not accept a connection, or that what answered was not it. */
  markDown(): void;
  /** Starts a worker (detached, under the start lock); waits at most waitMs for it to be healthy. */
  start(waitMs: number): Promise<Endpoint | undefined>;
}

/**
 * The recorded worker process exists and belongs to this user. A pid of another account (EPERM)
 * is not our worker, whatever listens on the port: events and token are not sent there.
 */
function ownProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A worker that failed to start moments ago is not respawned by every hook. */
const FAILED_START_BACKOFF_MS = 10_000;

export function createWorkerLink(paths: DataPaths, env: Env, log: HookLog): WorkerLink {
  let down = false;
  let cached: Endpoint | undefined | null = null;
  return {
    endpoint() {
      if (down) return undefined;
      if (cached === null) {
        const e = workerEndpoint(paths);
        cached = e && ownProcessAlive(e.info.pid) ? { port: e.port, auth: e.auth } : undefined;
        if (!cached) down = true;
      }
      return cached;
    },
    markDown() {
      down = true;
      cached = undefined;
    },
    async start(waitMs) {
      try {
        if (Date.now() - statSync(startErrorPath(paths)).mtimeMs < FAILED_START_BACKOFF_MS) {
          log.detail('worker failed to start moments ago; not retrying yet');
          return undefined;
        }
      } catch {
        // No recorded failure.
      }
      try {
        const r = await ensureWorker({ paths, env, waitMs: Math.max(0, waitMs), probeTimeoutMs: 150 });
        if (r.ok) {
          down = false;
          cached = { port: r.port, auth: r.auth };
          return cached;
        }
        log.detail(`worker not ready: ${r.reason}`);
      } catch (err) {
        log.problem(`could not start the worker: ${errorText(err)}`);
      }
      return undefined;
    },
  };
}
