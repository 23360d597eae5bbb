/** start / stop for the CLI (and doctor): built on ensureWorker and the identity-proving status. */
import type { DataPaths } from '../../shared/paths.js';
import { workerRequest } from '../../shared/worker-client.js';
import { ensureWorker, pidAlive, recordedAuth, type EnsureResult } from '../../shared/worker-start.js';
import { workerStatus, type StatusReport } from './status.js';
import { removeWorkerInfoIfOurs } from './worker-file.js';

export interface StopResult {
  result: 'stopped' | 'not_running' | 'foreign' | 'failed';
  pid: number | null;
  /** How the worker was stopped. */
  method: 'http' | 'sigterm' | 'sigkill' | null;
  evidence: string[];
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function waitExit(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (!pidAlive(pid)) return true;
    await sleep(25);
  }
  return !pidAlive(pid);
}

function signal(pid: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

/** Stops this data directory's worker: shutdown over HTTP, then SIGTERM, then SIGKILL; only a pid proven ours is signalled. */
export async function stopWorker(paths: DataPaths, graceMs = 10_000): Promise<StopResult> {
  const st = await workerStatus(paths);
  const evidence = [...st.evidence];
  const info = st.worker;
  if (st.state === 'stopped') return { result: 'not_running', pid: null, method: null, evidence };
  if (!info) return { result: 'failed', pid: null, method: null, evidence };
  if (st.state === 'foreign') return { result: 'foreign', pid: info.pid, method: null, evidence };
  // Signalled only when proven ours: by its signed answer (running), or by holding the recorded
  // port under the recorded pid as a worker process (an older worker, or another token's: stale).
  if (!st.health && !(st.state === 'stale' && st.portOwner?.pid === info.pid)) {
    if (!pidAlive(info.pid) && removeWorkerInfoIfOurs(paths, info.instanceId)) evidence.push('removed the stale worker.json');
    return { result: 'not_running', pid: info.pid, method: null, evidence };
  }
  const pid = info.pid;
  let method: StopResult['method'] = null;
  try {
    const res = await workerRequest({ port: info.port, auth: recordedAuth(paths, info), method: 'POST', path: '/api/admin/shutdown', body: {}, timeoutMs: 3000 });
    if (res.status >= 200 && res.status < 300) method = 'http';
    else evidence.push(`POST /api/admin/shutdown answered ${res.status}`);
  } catch (err) {
    evidence.push(`POST /api/admin/shutdown failed: ${(err as Error).message}`);
  }
  let exited = method === 'http' && (await waitExit(pid, graceMs));
  if (!exited) {
    if (signal(pid, 'SIGTERM')) method = 'sigterm';
    exited = await waitExit(pid, graceMs / 2);
  }
  if (!exited) {
    evidence.push(`pid ${pid} ignored SIGTERM for ${graceMs / 2} ms`);
    if (signal(pid, 'SIGKILL')) method = 'sigkill';
    exited = await waitExit(pid, 2000);
  }
  if (!exited) return { result: 'failed', pid, method, evidence: [...evidence, `pid ${pid} is still running`] };
  // A clean exit removed it already; after SIGKILL it is ours to remove.
  removeWorkerInfoIfOurs(paths, info.instanceId);
  evidence.push(`pid ${pid} exited (${method})`);
  return { result: 'stopped', pid, method, evidence };
}

export interface StartOutcome {
  ensure: EnsureResult;
  /** Status after the attempt (identity proven). */
  status: StatusReport;
}

export async function startWorker(paths: DataPaths, waitMs = 15_000, env?: NodeJS.ProcessEnv): Promise<StartOutcome> {
  const ensure = await ensureWorker({ paths, waitMs, env });
  const status = await workerStatus(paths);
  return { ensure, status };
}
