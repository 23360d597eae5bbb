/**
 * Applying an install plan: the data directory (0700, settings, port, token), the engine's writes
 * (backups, manifest), the per-host metadata, each host's own after-apply step (with consent), the worker.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { HostId } from '../../shared/hosts.js';
import type { DataPaths } from '../../shared/paths.js';
import { VERSION } from '../../shared/version.js';
import { runtimeLayout } from '../../shared/runtime-layout.js';
import { applyPlan } from '../engine/index.js';
import { CliError } from '../output.js';
import { writeHostMeta, type MetaInput } from './meta.js';
import { filesOf, type InstallPlan } from './install-plan.js';
import { buildResults } from './results.js';
import { installRuntime, runtimeWorkerEntry, type RuntimeInstall } from './runtime.js';
import type { HostResult } from './types.js';

export type ProgressLevel = 'info' | 'ok' | 'warn' | 'error';
export type Progress = (message: string, level: ProgressLevel) => void;

export interface ApplyInstallOptions {
  /** Consent to the hosts' own after-apply steps (e.g. trusting our Codex hooks). */
  consent: boolean;
  start: boolean;
  env: NodeJS.ProcessEnv;
  waitMs?: number;
  onProgress?: Progress;
}

export interface WorkerOutcome {
  ok: boolean;
  state: 'started' | 'running' | 'restarted' | 'failed' | 'not-started';
  detail: string;
  pid?: number;
  port?: number;
}

export interface InstallOutcome {
  results: HostResult[];
  dataDir: string;
  created: string[];
  port?: number;
  backups: string[];
  worker: WorkerOutcome;
  ok: boolean;
  runtime: RuntimeInstall;
}

/** Thrown by the test-only crash switch: the command exits at once, as a killed process would. */
export class SimulatedCrash extends Error {}

/** CLAUDE_MEM_TEST_CRASH_AFTER_WRITES=N stops after N file writes; honoured only inside the test harness. */
function crashSwitch(env: NodeJS.ProcessEnv): ((path: string, index: number) => void) | undefined {
  const n = Number(env.CLAUDE_MEM_TEST_CRASH_AFTER_WRITES);
  if (!env.CLAUDE_MEM_TEST_ROOT || !Number.isInteger(n) || n < 0 || env.CLAUDE_MEM_TEST_CRASH_AFTER_WRITES === undefined) return undefined;
  return (_path, index) => {
    if (index >= n) throw new SimulatedCrash(`simulated crash after ${n} file write(s)`);
  };
}

async function prepareDataDir(paths: DataPaths): Promise<{ created: string[]; port: number }> {
  // Loaded here: settings validation (zod) is not needed by --help or --dry-run.
  const { ensurePort, ensureSettingsFile } = await import('../../worker/settings.js');
  const { ensureToken } = await import('../../worker/lifecycle/token.js');
  const created: string[] = [];
  if (!existsSync(paths.root)) created.push(paths.root);
  for (const dir of [paths.root, paths.logs, paths.spool]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (ensureSettingsFile(paths)) created.push(paths.settings);
  const port = await ensurePort(paths);
  if (ensureToken(paths).created) created.push(paths.token);
  return { created, port };
}

/**
 * The worker runs from the installed copy. One that runs while the copy was switched (an upgrade)
 * is restarted on the new one: the copy it was loaded from may be removed by the next upgrade.
 */
async function startWorkerFor(paths: DataPaths, waitMs: number, rt: RuntimeInstall, env: NodeJS.ProcessEnv): Promise<WorkerOutcome> {
  const { startWorker, stopWorker } = await import('../../worker/lifecycle/control.js');
  const { workerStatus } = await import('../../worker/lifecycle/status.js');
  const before = await workerStatus(paths);
  let restarted = false;
  if (before.state === 'running') {
    if (!rt.switched) return { ok: true, state: 'running', detail: 'already running', pid: before.worker?.pid, port: before.worker?.port };
    const stop = await stopWorker(paths);
    if (stop.result !== 'stopped' && stop.result !== 'not_running') return { ok: false, state: 'failed', detail: `the worker could not be restarted on the new program: ${stop.evidence.join('; ')}` };
    restarted = true;
  }
  const workerEnv = { ...env, CLAUDE_MEM_WORKER_ENTRY: env.CLAUDE_MEM_WORKER_ENTRY ?? runtimeWorkerEntry(rt.dir) };
  const { ensure } = await startWorker(paths, waitMs, workerEnv);
  if (ensure.ok && restarted) return { ok: true, state: 'restarted', detail: 'restarted on the new program', pid: ensure.info.pid, port: ensure.port };
  if (ensure.ok) return { ok: true, state: 'started', detail: 'started', pid: ensure.info.pid, port: ensure.port };
  const reason = ensure.state === 'starting' ? `not healthy within ${waitMs} ms (${ensure.reason})` : ensure.reason;
  return { ok: false, state: 'failed', detail: `${reason}; see ${paths.logs}/worker.log` };
}

/** Each written host's own step, one host after the other (a step may ask the host itself). */
async function afterApply(plan: InstallPlan, results: HostResult[], opts: ApplyInstallOptions): Promise<void> {
  for (const r of results) {
    if (!r.selected || (r.status !== 'ok' && r.status !== 'off')) continue;
    const step = plan.hosts.get(r.id)?.detected.module.afterApply;
    if (!step) continue;
    await step.run({
      result: r, files: filesOf(plan, r.id).map((f) => f.path), consent: opts.consent, env: opts.env,
      paths: { manifest: plan.prepared.paths.manifest, backups: plan.prepared.paths.backups }, progress: opts.onProgress ?? (() => {}),
    });
  }
}

/** The program copy hosts will run; without it no host file is touched. */
function runtimeFor(plan: InstallPlan): RuntimeInstall {
  const { paths, base } = plan.prepared;
  try {
    return installRuntime(paths.root, base.packageRoot, base.nodePath);
  } catch (e) {
    throw new CliError(`could not install the program under ${runtimeLayout(paths.root).root}: ${(e as Error)?.message ?? String(e)}. No host file was changed.`);
  }
}

export async function applyInstall(plan: InstallPlan, opts: ApplyInstallOptions): Promise<InstallOutcome> {
  const { paths } = plan.prepared;
  const progress = opts.onProgress ?? (() => {});
  const { created, port } = await prepareDataDir(paths);
  const runtime = runtimeFor(plan);
  const summary = await applyPlan(plan.files, { manifestPath: paths.manifest, backupsDir: paths.backups, beforeWrite: crashSwitch(opts.env) });
  const results = buildResults(plan, { dryRun: false, applied: summary });
  const meta = new Map<string, MetaInput>();
  for (const r of results) {
    if (!r.selected) continue;
    progress(`${r.label}: ${r.status}${r.reason ? ` — ${r.reason}` : ''}`, r.status === 'ok' ? 'ok' : r.status === 'failed' ? 'error' : 'warn');
    const h = plan.hosts.get(r.id as HostId)!;
    if ((r.status === 'ok' || r.status === 'off') && h.decision) {
      meta.set(r.id, { label: r.label, decision: h.decision, version: h.detected.detection.version, claudeMemVersion: VERSION });
    }
  }
  if (meta.size > 0) writeHostMeta(paths.manifest, meta);

  await afterApply(plan, results, opts);

  let worker: WorkerOutcome = { ok: true, state: 'not-started', detail: 'not started (--no-start); run `claude-mem start` when ready' };
  if (opts.start) {
    progress('Starting the worker…', 'info');
    worker = await startWorkerFor(paths, opts.waitMs ?? 15_000, runtime, opts.env);
    progress(worker.ok ? `Worker ${worker.state} (pid ${worker.pid}, port ${worker.port})` : `Worker failed: ${worker.detail}`, worker.ok ? 'ok' : 'error');
  }
  const ok = worker.ok && results.every((r) => !r.selected || r.status !== 'failed');
  return { results, dataDir: paths.root, created, port, backups: summary.backups, worker, ok, runtime };
}
