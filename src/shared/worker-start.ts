/**
 * Finds a healthy worker for a data directory or starts one, detached, under a lock so that
 * concurrent starters (hooks, the MCP server, the CLI) never spawn two. Node built-ins only:
 * the hook bundle imports this file.
 *
 * The lock (`worker.start.lock`, O_EXCL) names the process responsible for the start: first the
 * starter, then the spawned worker itself, which removes the lock once it listens (or fails).
 * A lock older than LOCK_STALE_MS or naming a dead pid is broken.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataPaths, type DataPaths, type Env } from './paths.js';
import { UnprovenAnswerError, type WorkerAuth } from './worker-auth.js';
import { readToken, readWorkerInfo, workerRequest, type WorkerInfo } from './worker-client.js';

export const LOCK_STALE_MS = 10_000;

/** What the worker writes when it cannot start (corrupt database, port taken, bad settings). */
export interface StartError {
  code: string;
  message: string;
  at: string;
  pid: number;
  port?: number;
  /** The process holding the port, when it could be found. */
  holderPid?: number;
}

export function startErrorPath(paths: DataPaths): string {
  return join(paths.root, 'worker.error.json');
}

export function workerLogPath(paths: DataPaths): string {
  return join(paths.logs, 'worker.log');
}

/** The worker's raw stdout/stderr (crashes before its logger runs). Kept separate so rotation of worker.log is safe. */
export function workerOutPath(paths: DataPaths): string {
  return join(paths.logs, 'worker.out.log');
}

export function readStartError(paths: DataPaths): StartError | undefined {
  try {
    const e = JSON.parse(readFileSync(startErrorPath(paths), 'utf8')) as StartError;
    return typeof e.code === 'string' && typeof e.message === 'string' ? e : undefined;
  } catch {
    return undefined;
  }
}

export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: alive, owned by someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !isZombie(pid);
}

/** An exited process not yet reaped by its parent still answers kill(0); on Linux /proc tells. */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch (err) {
    // Gone since kill(0) → not alive; no /proc at all (macOS) → trust kill(0).
    return (err as NodeJS.ErrnoException).code === 'ENOENT' && existsSync('/proc/self/stat');
  }
}

/** Writes a file atomically (temp + rename) with the given mode. */
export function writeFileAtomic(path: string, text: string, mode = 0o600): void {
  const tmp = `${path}.${process.pid}.${Date.now().toString(36)}.tmp`;
  writeFileSync(tmp, text, { mode });
  renameSync(tmp, path);
}

// ---- health -------------------------------------------------------------------------------

/** What GET /api/health tells a caller that signed the request (anyone else gets ok, name, version). */
export interface HealthBody {
  ok: boolean;
  name: string;
  version: string;
  pid: number;
  instanceId: string;
  dataDir: string;
  startedAt: string;
  uptimeMs: number;
}

export type HealthCheck =
  | { ok: true; info: WorkerInfo; health: HealthBody }
  | { ok: false; info?: WorkerInfo; why: 'no_record' | 'pid_dead' | 'no_answer' | 'not_ours'; detail: string; health?: unknown };

export function isHealthBody(v: unknown): v is HealthBody {
  const h = v as HealthBody | null;
  return !!h && typeof h === 'object' && h.name === 'claude-mem' && typeof h.instanceId === 'string' && typeof h.dataDir === 'string';
}

export interface HealthAnswer {
  status: number;
  body: unknown;
  /** Signed by a process holding the token (only when the request was signed). */
  verified: boolean;
}

/** GET /api/health on a port, signed with `auth` when given; undefined when nothing answers in time. */
export async function fetchHealth(port: number, timeoutMs: number, auth?: WorkerAuth): Promise<HealthAnswer | undefined> {
  try {
    return await workerRequest({ port, path: '/api/health', timeoutMs, auth });
  } catch (err) {
    // Something answered, but not as our worker (no proof, or not JSON): still an answer.
    if (err instanceof UnprovenAnswerError) return { status: err.status, body: undefined, verified: false };
    if (/non-JSON/.test((err as Error).message)) return { status: 0, body: undefined, verified: false };
    return undefined;
  }
}

/** The worker recorded in worker.json and the token to prove it with. */
export function recordedAuth(paths: DataPaths, info: WorkerInfo | undefined = readWorkerInfo(paths)): WorkerAuth | undefined {
  const token = readToken(paths);
  return info && token && typeof info.instanceId === 'string' ? { token, instanceId: info.instanceId } : undefined;
}

/**
 * Proves that worker.json describes a live claude-mem worker of this data directory: a health
 * request signed with the token for the recorded instance, answered with the worker's proof.
 */
export async function checkHealth(paths: DataPaths, timeoutMs = 500): Promise<HealthCheck> {
  const info = readWorkerInfo(paths);
  if (!info) return { ok: false, why: 'no_record', detail: 'no worker.json' };
  if (!pidAlive(info.pid)) return { ok: false, info, why: 'pid_dead', detail: `pid ${info.pid} is not running` };
  const auth = recordedAuth(paths, info);
  if (!auth) return { ok: false, info, why: 'not_ours', detail: `cannot prove who answers on 127.0.0.1:${info.port}: ${paths.token} is missing` };
  const res = await fetchHealth(info.port, timeoutMs, auth);
  if (!res) return { ok: false, info, why: 'no_answer', detail: `nothing answered on 127.0.0.1:${info.port} within ${timeoutMs} ms` };
  const body = res.body;
  if (!res.verified || res.status !== 200 || !isHealthBody(body)) {
    return { ok: false, info, why: 'not_ours', detail: `127.0.0.1:${info.port} answered (HTTP ${res.status}) but could not prove it is the worker in worker.json`, health: body };
  }
  if (body.instanceId !== info.instanceId || body.dataDir !== paths.root || body.pid !== info.pid) {
    return {
      ok: false, info, why: 'not_ours', health: body,
      detail: `127.0.0.1:${info.port} is a claude-mem worker of ${body.dataDir} (pid ${body.pid}), not the one recorded in worker.json`,
    };
  }
  return { ok: true, info, health: body };
}

// ---- lock ---------------------------------------------------------------------------------

interface LockBody {
  pid: number;
  at: number;
  starter?: number;
}

function readLock(path: string): { text: string; body?: LockBody; mtimeMs: number } | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    const mtimeMs = statSync(path).mtimeMs;
    try {
      const body = JSON.parse(text) as LockBody;
      if (typeof body.pid === 'number' && typeof body.at === 'number') return { text, body, mtimeMs };
    } catch {
      // Torn or foreign content: judged by age below.
    }
    return { text, mtimeMs };
  } catch {
    return undefined;
  }
}

function lockIsStale(lock: { body?: LockBody; mtimeMs: number }, now = Date.now()): boolean {
  if (!lock.body) return now - lock.mtimeMs > LOCK_STALE_MS;
  return now - lock.body.at > LOCK_STALE_MS || !pidAlive(lock.body.pid);
}

/** Takes the start lock, breaking a stale one. True when this process now holds it. */
export function acquireStartLock(paths: DataPaths): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(paths.startLock, 'wx', 0o600);
      try {
        writeSync(fd, JSON.stringify({ pid: process.pid, at: Date.now() } satisfies LockBody));
      } finally {
        closeSync(fd);
      }
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const lock = readLock(paths.startLock);
    if (lock && !lockIsStale(lock)) return false;
    // Re-read just before removing, so a lock another breaker just created is left alone.
    const again = readLock(paths.startLock);
    if (again && lock && again.text !== lock.text) return false;
    try {
      unlinkSync(paths.startLock);
    } catch {
      // Someone else broke it first; the O_EXCL open decides.
    }
  }
  return false;
}

/** Hands the lock to the spawned worker: it stays held while the worker starts, even after the starter exits. */
function handOverLock(paths: DataPaths, childPid: number): void {
  writeFileAtomic(paths.startLock, JSON.stringify({ pid: childPid, at: Date.now(), starter: process.pid } satisfies LockBody));
}

/** Removes the lock if it names this process (the worker calls this once it listens or fails). */
export function releaseStartLock(paths: DataPaths, pid = process.pid): void {
  const lock = readLock(paths.startLock);
  if (lock?.body?.pid !== pid) return;
  try {
    unlinkSync(paths.startLock);
  } catch {
    // Already gone.
  }
}

// ---- spawn --------------------------------------------------------------------------------

/** This file once bundled: __filename in the CommonJS hook bundle, import.meta.url in the ES modules. */
function bundleFile(): string {
  return typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
}

/**
 * dist/worker.mjs next to the running bundle (or one level up from a shared chunk), started
 * directly rather than through its dist/worker.js shim (one module load less at every start);
 * env override for tests.
 */
export function workerEntry(env: Env = process.env): string {
  if (env.CLAUDE_MEM_WORKER_ENTRY) return env.CLAUDE_MEM_WORKER_ENTRY;
  const dir = dirname(bundleFile());
  for (const name of ['worker.mjs', 'worker.js']) {
    for (const candidate of [join(dir, name), join(dir, '..', name)]) {
      if (existsSync(candidate)) return candidate;
    }
  }
  return join(dir, 'worker.js');
}

const OUT_LOG_MAX = 1024 * 1024;

function openOutLog(paths: DataPaths): number | 'ignore' {
  try {
    mkdirSync(paths.logs, { recursive: true, mode: 0o700 });
    const out = workerOutPath(paths);
    // Raw output only carries crashes; keep one previous file and start fresh when it grows.
    try {
      if (statSync(out).size > OUT_LOG_MAX) renameSync(out, `${out}.1`);
    } catch {
      // No file yet.
    }
    return openSync(out, 'a', 0o600);
  } catch {
    return 'ignore';
  }
}

// node:child_process is loaded only here: the hook runs this path rarely and pays for it only then.
export async function spawnWorker(paths: DataPaths, env: Env = process.env): Promise<number> {
  const { spawn } = await import('node:child_process');
  const entry = workerEntry(env);
  if (!existsSync(entry)) throw new Error(`worker entry not found: ${entry}`);
  const out = openOutLog(paths);
  try {
    const child = spawn(process.execPath, [entry], {
      detached: true,
      stdio: ['ignore', out, out],
      cwd: paths.root,
      env: { ...env, CLAUDE_MEM_DATA_DIR: paths.root },
    });
    child.unref();
    if (!child.pid) throw new Error('the worker process could not be spawned');
    return child.pid;
  } finally {
    if (typeof out === 'number') closeSync(out);
  }
}

// ---- ensureWorker -------------------------------------------------------------------------

export interface EnsureOptions {
  paths?: DataPaths;
  /** How long to wait for the worker to become healthy; 0 = start it and return at once. */
  waitMs: number;
  /** Deadline of the health probe of an existing worker (default 500 ms). */
  probeTimeoutMs?: number;
  env?: Env;
}

export type EnsureResult =
  | { ok: true; port: number; auth: WorkerAuth; info: WorkerInfo; started: boolean }
  | { ok: false; state: 'starting' | 'failed'; reason: string; error?: StartError };

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function healthyResult(paths: DataPaths, info: WorkerInfo, started: boolean): EnsureResult {
  const auth = recordedAuth(paths, info);
  if (!auth) return { ok: false, state: 'failed', reason: `the worker runs but ${paths.token} is missing or empty` };
  return { ok: true, port: info.port, auth, info, started };
}

/** Returns the endpoint of a healthy worker, starting one if needed and waiting at most `waitMs`. */
export async function ensureWorker(opts: EnsureOptions): Promise<EnsureResult> {
  const paths = opts.paths ?? dataPaths();
  const env = opts.env ?? process.env;
  const probeMs = opts.probeTimeoutMs ?? 500;
  const deadline = Date.now() + Math.max(0, opts.waitMs);

  const first = await checkHealth(paths, probeMs);
  if (first.ok) return healthyResult(paths, first.info, false);

  mkdirSync(paths.root, { recursive: true, mode: 0o700 });
  let spawnedPid: number | undefined;
  let spawnedAt = 0;
  for (;;) {
    if (spawnedPid === undefined && acquireStartLock(paths)) {
      // Another starter may have finished between our probe and the lock.
      const again = await checkHealth(paths, probeMs);
      if (again.ok) {
        releaseStartLock(paths);
        return healthyResult(paths, again.info, false);
      }
      try {
        try {
          unlinkSync(startErrorPath(paths));
        } catch {
          // No previous failure recorded.
        }
        spawnedAt = Date.now();
        spawnedPid = await spawnWorker(paths, env);
        handOverLock(paths, spawnedPid);
      } catch (err) {
        releaseStartLock(paths);
        return { ok: false, state: 'failed', reason: (err as Error).message };
      }
    }
    if (Date.now() >= deadline) {
      return { ok: false, state: 'starting', reason: spawnedPid ? `worker (pid ${spawnedPid}) is starting` : 'another process is starting the worker' };
    }
    // A short poll: a starting worker is usually healthy within a few hundred ms.
    await sleep(Math.min(15, Math.max(1, deadline - Date.now())));
    const now = await checkHealth(paths, probeMs);
    if (now.ok) {
      // The worker normally removes the lock itself; this covers it listening before the handover.
      if (spawnedPid !== undefined) releaseStartLock(paths, spawnedPid);
      return healthyResult(paths, now.info, spawnedPid !== undefined);
    }
    if (spawnedPid !== undefined && !pidAlive(spawnedPid)) {
      const error = readStartError(paths);
      if (error && Date.parse(error.at) >= spawnedAt - 1000) return { ok: false, state: 'failed', reason: error.message, error };
      // Exit without an error record: another worker of this data directory won the port; keep waiting for it.
      if (!existsSync(paths.startLock) && !readWorkerInfo(paths)) {
        return { ok: false, state: 'failed', reason: `the worker (pid ${spawnedPid}) exited during start; see ${workerOutPath(paths)}` };
      }
    }
  }
}
