/**
 * `status`: proves who runs on the recorded port instead of trusting worker.json.
 * running = worker.json + live pid + /api/health, signed for the recorded instance and answered
 *           with the worker's proof (so it holds the token), with the same instanceId, pid, dataDir;
 * stopped = no worker.json; stale = the record points at a dead pid or at no worker;
 * foreign = something else answers on the recorded port.
 */
import { readFileSync } from 'node:fs';
import { readLosses, type LossSummary } from '../../shared/losses.js';
import type { DataPaths } from '../../shared/paths.js';
import { readWorkerInfo, workerRequest, type WorkerInfo } from '../../shared/worker-client.js';
import { fetchHealth, isHealthBody, pidAlive, readStartError, recordedAuth, type HealthBody, type StartError } from '../../shared/worker-start.js';
import { describePid, findPortOwner, looksLikeWorker } from './proc.js';

export type WorkerState = 'running' | 'stopped' | 'stale' | 'foreign';

export interface StatusReport {
  state: WorkerState;
  dataDir: string;
  /** What was checked and what was found, in order. */
  evidence: string[];
  /** worker.json as found. */
  worker: WorkerInfo | null;
  health: HealthBody | null;
  tokenAccepted: boolean | null;
  /** GET /api/stats when running. */
  stats: unknown;
  /** Who holds the port when it is not our worker. */
  portOwner: { port: number; pid: number | null; description: string } | null;
  /** Why the last start failed, when it did and nothing runs. */
  lastError: StartError | null;
  /** Events that could be neither stored nor spooled (the loss record), whatever the worker's state. */
  losses: LossSummary | null;
  fix: string | null;
}

/** The port in settings.json, read without the full validation (status stays light: no zod). */
function storedPort(paths: DataPaths): number | undefined {
  try {
    const port = (JSON.parse(readFileSync(paths.settings, 'utf8')) as { port?: unknown }).port;
    return typeof port === 'number' && Number.isInteger(port) && port > 0 && port < 65536 ? port : undefined;
  } catch {
    return undefined;
  }
}

function owner(port: number): NonNullable<StatusReport['portOwner']> {
  const pid = findPortOwner(port);
  return { port, pid: pid ?? null, description: describePid(pid) };
}

export async function workerStatus(paths: DataPaths, timeoutMs = 1500): Promise<StatusReport> {
  const r: StatusReport = {
    state: 'stopped', dataDir: paths.root, evidence: [], worker: null, health: null, tokenAccepted: null,
    stats: null, portOwner: null, lastError: null, losses: readLosses(paths.root) ?? null, fix: null,
  };
  const info = readWorkerInfo(paths);
  if (!info) {
    r.evidence.push(`no ${paths.workerJson}`);
    r.lastError = readStartError(paths) ?? null;
    if (r.lastError) r.evidence.push(`last start failed: ${r.lastError.message}`);
    const port = storedPort(paths);
    if (port) {
      const o = owner(port);
      if (o?.pid) {
        r.portOwner = o;
        r.evidence.push(`port ${port} (settings.json) is in use by ${o.description}`);
      }
    }
    r.fix = r.lastError ? 'resolve the start error above, then: claude-mem start' : 'claude-mem start';
    return r;
  }
  r.worker = info;
  r.evidence.push(`worker.json: pid ${info.pid}, port ${info.port}, started ${info.startedAt}`);
  if (!pidAlive(info.pid)) {
    r.state = 'stale';
    r.evidence.push(`pid ${info.pid} is not running`);
    r.fix = 'claude-mem start (replaces the stale record)';
    return r;
  }
  r.evidence.push(`pid ${info.pid} is alive`);
  // Signed with the token for the recorded instance: only that worker can answer with a proof.
  const auth = recordedAuth(paths, info);
  const res = await fetchHealth(info.port, timeoutMs, auth);
  if (!res) {
    r.state = 'stale';
    r.evidence.push(`nothing answers on 127.0.0.1:${info.port}; pid ${info.pid} is not our worker: ${describePid(info.pid)}`);
    r.fix = 'claude-mem start (replaces the stale record)';
    return r;
  }
  const h = res.body;
  if (!res.verified || res.status !== 200 || !isHealthBody(h) || h.instanceId !== info.instanceId || h.dataDir !== paths.root || h.pid !== info.pid) {
    return unproven(r, paths, info, res.status, res.verified ? h : undefined);
  }
  r.health = h;
  r.evidence.push(`GET /api/health signed with ${paths.token}: token accepted, answer proven; instance ${h.instanceId}, data dir ${h.dataDir}, version ${h.version}`);
  r.tokenAccepted = true;
  try {
    const s = await workerRequest({ port: info.port, auth, path: '/api/stats', timeoutMs: Math.max(timeoutMs, 3000) });
    if (s.status === 200) r.stats = s.body;
    r.evidence.push(`GET /api/stats → ${s.status}`);
  } catch (err) {
    r.evidence.push(`GET /api/stats failed: ${(err as Error).message}`);
  }
  // Identity is proven by health; a slow stats answer (busy store) does not make the worker stale.
  r.state = 'running';
  return r;
}

/**
 * Something answers on the recorded port but cannot prove it is the recorded worker. When the
 * recorded pid itself holds the port (seen in /proc) and runs a worker entry, it is our worker of
 * an older claude-mem (which does not sign) or started with another token: stale, to restart.
 * Anything else is foreign, and is never signalled.
 */
function unproven(r: StatusReport, paths: DataPaths, info: WorkerInfo, status: number, health: unknown): StatusReport {
  const o = owner(info.port);
  // /proc shows the recorded pid holding the recorded port (so a process of this user) running a
  // worker entry: our own worker, of an older claude-mem or another token.
  if (o.pid === info.pid && looksLikeWorker(info.pid)) {
    r.state = 'stale';
    r.portOwner = o;
    if (status === 401) {
      r.tokenAccepted = false;
      r.evidence.push(`pid ${info.pid} holds port ${info.port} but refuses requests signed with ${paths.token}: the token changed after it started`);
    } else {
      r.evidence.push(`pid ${info.pid} holds port ${info.port} but answers (HTTP ${status}) without a proof: a worker of an older claude-mem (${info.version})`);
    }
    r.fix = 'claude-mem restart';
    return r;
  }
  r.state = 'foreign';
  r.portOwner = o;
  r.evidence.push(
    isHealthBody(health)
      ? `127.0.0.1:${info.port} answers as the claude-mem worker of ${health.dataDir} (pid ${health.pid}, instance ${health.instanceId}), not the one in worker.json`
      : `127.0.0.1:${info.port} answers HTTP ${status} without the worker's proof: not the claude-mem worker recorded in worker.json`,
  );
  if (o.pid) r.evidence.push(`port ${info.port} is held by ${o.description}`);
  r.fix = `free port ${info.port} or set another "port" in ${paths.settings}, then claude-mem start`;
  return r;
}
