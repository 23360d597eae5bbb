/**
 * Uninstall: reverts exactly what the manifest records for the chosen hosts (our entries are found
 * again by key or matcher, so later user edits survive), never creates a file, stops the worker
 * when no host remains (or with --purge), and with --purge removes the data directory.
 */
import { existsSync, rmSync } from 'node:fs';
import { HOST_LABELS, isHostId, type HostId } from '../../shared/hosts.js';
import { dataPaths, dataDir, homeDir, type Env } from '../../shared/paths.js';
import { loadManifest, revertFromManifest, type PlannedFile, type RevertSummary } from '../engine/index.js';
import { dropHosts, installedHosts, readHostMeta } from './meta.js';
import type { FileResult, HostResult } from './types.js';

export interface UninstallOptions {
  /** Hosts to remove; undefined = every host the manifest records. */
  hosts?: HostId[];
  dryRun: boolean;
  purge: boolean;
  env: Env;
}

export interface UninstallOutcome {
  ok: boolean;
  dryRun: boolean;
  dataDir: string;
  hosts: HostResult[];
  /** Every changed file's diff (dry run). */
  diff: string;
  worker: { action: 'stopped' | 'not-running' | 'left-running' | 'would-stop' | 'failed'; detail: string };
  purged: boolean | 'would-purge';
  remaining: string[];
  /** Why --purge did not remove the data directory. */
  error?: string;
}

function fileResult(f: PlannedFile, dryRun: boolean): FileResult {
  const action = !f.changed ? 'unchanged' : f.after === null ? 'removed' : 'restored';
  return { path: f.path, action, ...(f.notes.length && { notes: f.notes }), ...(dryRun && f.changed && { diff: f.diff }) };
}

function hostResult(id: string, label: string, rev: RevertSummary | undefined, dryRun: boolean): HostResult {
  const files = (rev?.files ?? []).filter((f) => f.hosts.includes(id));
  const err = rev?.failed.find((f) => f.hosts.includes(id))?.error ?? files.find((f) => f.error)?.error;
  return {
    id: id as HostId, label, selected: true, detected: { installed: false, evidence: [] }, capture: null, captureDetail: [], recall: null,
    status: err ? 'failed' : 'ok', ...(err && { reason: err.message, fix: err.fix }),
    files: files.filter((f) => !f.error).map((f) => fileResult(f, dryRun)), nextSteps: [], notes: [], warnings: [],
  };
}

async function stopIfNeeded(o: UninstallOptions, remaining: string[]): Promise<UninstallOutcome['worker']> {
  if (remaining.length > 0 && !o.purge) return { action: 'left-running', detail: `still used by ${remaining.join(', ')}` };
  const paths = dataPaths(dataDir(o.env));
  if (o.dryRun) return { action: 'would-stop', detail: 'the worker would be stopped' };
  if (!existsSync(paths.root)) return { action: 'not-running', detail: 'no data directory' };
  const { stopWorker } = await import('../../worker/lifecycle/control.js');
  const r = await stopWorker(paths);
  if (r.result === 'stopped') return { action: 'stopped', detail: `pid ${r.pid} stopped` };
  if (r.result === 'not_running') return { action: 'not-running', detail: 'the worker was not running' };
  return { action: 'failed', detail: r.evidence.join('; ') };
}

/** Never remove HOME, one of its parents, or the file system root, whatever CLAUDE_MEM_DATA_DIR says. */
function purgeRefusal(root: string, env: Env): string | undefined {
  const home = homeDir(env);
  if (root === '/' || root === home || `${home}/`.startsWith(`${root}/`)) return `refused to purge ${root}: it is (or contains) the home directory`;
  return undefined;
}

export async function runUninstall(o: UninstallOptions): Promise<UninstallOutcome> {
  const paths = dataPaths(dataDir(o.env));
  const known = installedHosts(paths.manifest);
  const meta = readHostMeta(paths.manifest);
  const wanted = o.hosts ?? [...known];
  const todo = wanted.filter((h) => known.has(h));
  const rev = todo.length ? await revertFromManifest(paths.manifest, { hosts: todo, dryRun: o.dryRun }) : undefined;
  if (!o.dryRun && todo.length) {
    // Hosts whose files are all reverted leave the manifest; so do those that had metadata only.
    const failedHosts = new Set(rev?.failed.flatMap((f) => f.hosts) ?? []);
    dropHosts(paths.manifest, todo.filter((h) => !failedHosts.has(h)));
  }
  const label = (h: string) => meta[h]?.label ?? (isHostId(h) ? HOST_LABELS[h] : h);
  const hosts: HostResult[] = wanted.map((h) => (known.has(h)
    ? hostResult(h, label(h), rev, o.dryRun)
    : { ...hostResult(h, label(h), undefined, o.dryRun), status: 'skipped', reason: 'not installed (the install manifest has no record of it)' }));
  const remaining = o.dryRun ? [...known].filter((h) => !todo.includes(h)) : existsSync(paths.manifest) ? Object.keys(loadManifest(paths.manifest).hosts) : [];
  const worker = await stopIfNeeded(o, remaining);
  let purged: UninstallOutcome['purged'] = false;
  // A host that could not be reverted still needs the manifest: no purge then.
  const unsafe = purgeRefusal(paths.root, o.env)
    ?? (hosts.some((h) => h.status === 'failed') ? `kept ${paths.root}: some hosts could not be reverted and their record is needed to retry` : undefined);
  if (o.purge && !unsafe) {
    if (o.dryRun) purged = 'would-purge';
    else if (worker.action !== 'failed') {
      rmSync(paths.root, { recursive: true, force: true });
      purged = true;
    }
  }
  const diff = (rev?.files ?? []).filter((f) => f.changed).map((f) => f.diff).join('');
  const ok = hosts.every((h) => h.status !== 'failed') && worker.action !== 'failed' && (!o.purge || purged !== false);
  const refusal = o.purge ? unsafe : undefined;
  return { ok, dryRun: o.dryRun, dataDir: paths.root, hosts, diff, worker, purged, remaining, ...(refusal && { error: refusal }) };
}
