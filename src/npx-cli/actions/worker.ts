/** `claude-mem start | stop | restart | status` at work. Loaded only when one of them runs. */
import { mkdirSync } from 'node:fs';
import { lossReason } from '../../shared/losses.js';
import { dataPaths, type DataPaths } from '../../shared/paths.js';
import { workerLogPath } from '../../shared/worker-start.js';
import { startWorker, stopWorker, type StopResult } from '../../worker/lifecycle/control.js';
import { workerStatus, type StatusReport } from '../../worker/lifecycle/status.js';
import type { StorageFailure } from '../../worker/storage-health.js';
import { eprintln, formatDuration, printJson, println, setExit, style } from '../output.js';

interface JsonOpt {
  json?: boolean;
}

type StartOpts = JsonOpt & { wait: number };

export function formatStatus(r: StatusReport): string[] {
  const colour = r.state === 'running' ? style.green : r.state === 'stopped' ? style.yellow : style.red;
  const lines = [`claude-mem worker: ${colour(r.state)}`];
  if (r.state === 'running' && r.worker && r.health) {
    lines.push(`  pid ${r.worker.pid}, port ${r.worker.port}, version ${r.health.version}, up ${formatDuration(r.health.uptimeMs)}`);
    const s = r.stats as { store?: { observations?: number; sessions?: number }; spool?: { files?: number }; deadLetters?: number } | null;
    if (s?.store) {
      lines.push(`  memory: ${s.store.observations ?? 0} observations in ${s.store.sessions ?? 0} sessions; spool: ${s.spool?.files ?? 0} file(s); dead letters: ${s.deadLetters ?? 0}`);
    }
  }
  const storage = (r.stats as { storage?: StorageFailure | null } | null)?.storage;
  if (storage) lines.push(style.red(`  database writes fail since ${storage.since} (${storage.code}: ${storage.message}); captures wait in the spool`));
  if (r.losses) lines.push(style.red(`  lost: ${r.losses.lost} event(s) could be neither stored nor spooled, last ${r.losses.lastAt} (${lossReason(r.losses)}); see claude-mem doctor`));
  lines.push(`  data dir: ${r.dataDir}`);
  lines.push('  evidence:', ...r.evidence.map((e) => `    - ${e}`));
  if (r.fix) lines.push(`  fix: ${r.fix}`);
  return lines;
}

/**
 * Starts the worker unless it runs. Prints human lines unless `json`; returns the JSON document
 * (the caller prints it, so restart can combine it with the stop result).
 */
export async function startCommand(paths: DataPaths, opts: StartOpts): Promise<{ ok: boolean; doc: Record<string, unknown> }> {
  const before = await workerStatus(paths);
  if (before.state === 'running') {
    if (!opts.json) println(`claude-mem worker already running (pid ${before.worker?.pid}, port ${before.worker?.port})`);
    return { ok: true, doc: { ok: true, result: 'already_running', status: before } };
  }
  mkdirSync(paths.root, { recursive: true, mode: 0o700 });
  const { ensure, status } = await startWorker(paths, opts.wait);
  const replaced = before.state === 'stale' && before.worker ? before.worker.pid : null;
  if (ensure.ok) {
    if (!opts.json) {
      if (replaced) println(`replaced a stale worker.json (pid ${replaced} was not our worker)`);
      println(`claude-mem worker ${ensure.started ? 'started' : 'running'} (pid ${ensure.info.pid}, port ${ensure.port}, data dir ${paths.root})`);
    }
    return { ok: true, doc: { ok: true, result: 'started', replacedStalePid: replaced, status } };
  }
  const result = ensure.state === 'starting' ? 'timeout' : 'failed';
  const reason = ensure.state === 'starting' ? `the worker did not become healthy within ${opts.wait} ms (${ensure.reason})` : ensure.reason;
  if (!opts.json) {
    eprintln(style.red(`claude-mem worker could not start: ${reason}`));
    eprintln(`  log: ${workerLogPath(paths)}`);
  }
  return { ok: false, doc: { ok: false, result, error: { code: ensure.error?.code ?? result, message: reason }, status } };
}

function reportStop(r: StopResult): boolean {
  const ok = r.result === 'stopped' || r.result === 'not_running';
  const text: Record<StopResult['result'], string> = {
    stopped: `claude-mem worker stopped (pid ${r.pid}, ${r.method === 'http' ? 'graceful shutdown' : r.method})`,
    not_running: 'claude-mem worker is not running',
    foreign: 'the recorded port belongs to another process; nothing was stopped',
    failed: `claude-mem worker could not be stopped (pid ${r.pid})`,
  };
  const print = ok ? println : eprintln;
  print(text[r.result]);
  if (r.result !== 'stopped') for (const e of r.evidence) print(`  - ${e}`);
  return ok;
}

const stopOk = (r: StopResult) => r.result === 'stopped' || r.result === 'not_running';

export async function start(opts: StartOpts): Promise<void> {
  const { ok, doc } = await startCommand(dataPaths(), opts);
  if (opts.json) printJson(doc);
  setExit(ok ? 0 : 1);
}

export async function stop(opts: JsonOpt): Promise<void> {
  const r = await stopWorker(dataPaths());
  if (opts.json) printJson({ ok: stopOk(r), ...r });
  else reportStop(r);
  setExit(stopOk(r) ? 0 : 1);
}

export async function restart(opts: StartOpts): Promise<void> {
  const stopped = await stopWorker(dataPaths());
  if (!opts.json) reportStop(stopped);
  // A worker that would not stop is not restarted (two would fight over the port).
  const started = stopped.result === 'failed' ? undefined : await startCommand(dataPaths(), opts);
  const ok = !!started?.ok;
  if (opts.json) printJson({ ok, stop: { ok: stopOk(stopped), ...stopped }, start: started?.doc ?? null });
  setExit(ok ? 0 : 1);
}

export async function status(opts: JsonOpt): Promise<void> {
  const r = await workerStatus(dataPaths());
  if (opts.json) printJson(r);
  else for (const line of formatStatus(r)) println(line);
  setExit(r.state === 'running' ? 0 : 1);
}
