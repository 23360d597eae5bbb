/**
 * Uninstall: reverts exactly what the manifest records for the chosen hosts (our entries are found
 * again by key or matcher, so later user edits survive), and what is recognisably ours in host
 * files it does not record (install/discover.ts: the data directory was deleted, say). It never
 * creates a file, stops the worker when no host remains (or with --purge), and with --purge
 * removes the data directory, the installed program included.
 */
import { existsSync, rmSync } from 'node:fs';
import { HOST_IDS, HOST_LABELS, isHostId, type HostId } from '../../shared/hosts.js';
import { dataPaths, dataDir, homeDir, type Env } from '../../shared/paths.js';
import { loadManifest, revertFromManifest, revertManifest, type Manifest, type PlannedFile, type RevertSummary } from '../engine/index.js';
import { dropHosts, installedHosts, readHostMeta } from './meta.js';
import type { FileResult, HostResult } from './types.js';

export interface UninstallOptions {
  /** Hosts to remove; undefined = every host the manifest records or whose files hold our entries. */
  hosts?: HostId[];
  dryRun: boolean;
  purge: boolean;
  env: Env;
  /** Told, before anything is written, which host files hold entries of ours the manifest does not record. */
  onFound?: (found: Found[]) => void;
}

/** Entries of ours found in a host's files without a record in the install manifest. */
export interface Found {
  host: HostId;
  label: string;
  files: string[];
  /** Settings install may have made, left as they are: what they held before is unknown without the record. */
  left: string[];
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

/** What is ours in host files the manifest has no record of (install/discover.ts), and the revert of exactly that. */
async function unrecorded(o: UninstallOptions, recorded: Manifest): Promise<{ found: Found[]; rev?: RevertSummary }> {
  const { prepare } = await import('./install-plan.js');
  const { discoverUnrecorded } = await import('./discover.js');
  const prepared = await prepare(o.env);
  const { manifest, left } = await discoverUnrecorded(prepared, o.hosts ?? HOST_IDS, recorded);
  const preview = await revertManifest(manifest, { dryRun: true }, () => {});
  // Only files where removing ours changes something (or that cannot be read) count as found.
  for (const [h, entry] of Object.entries(manifest.hosts)) {
    for (const file of Object.keys(entry.files)) if (!preview.files.some((f) => f.path === file && f.hosts.includes(h) && (f.changed || f.error))) delete entry.files[file];
    if (Object.keys(entry.files).length === 0) delete manifest.hosts[h];
  }
  const found = Object.entries(manifest.hosts).map(([h, entry]) => ({ host: h as HostId, label: HOST_LABELS[h as HostId], files: Object.keys(entry.files), left: left.get(h as HostId) ?? [] }));
  if (found.length === 0) return { found };
  o.onFound?.(found);
  return { found, rev: o.dryRun ? preview : await revertManifest(manifest, { dryRun: false }, () => {}) };
}

function merge(a: RevertSummary | undefined, b: RevertSummary | undefined): RevertSummary | undefined {
  if (!a || !b) return a ?? b;
  return { files: [...a.files, ...b.files], written: [...a.written, ...b.written], deleted: [...a.deleted, ...b.deleted], failed: [...a.failed, ...b.failed] };
}

export async function runUninstall(o: UninstallOptions): Promise<UninstallOutcome> {
  const paths = dataPaths(dataDir(o.env));
  const recorded = loadManifest(paths.manifest);
  const known = installedHosts(paths.manifest);
  const meta = readHostMeta(paths.manifest);
  const extra = await unrecorded(o, recorded);
  const foundHosts = new Map<string, Found>(extra.found.map((f) => [f.host, f]));
  const wanted = o.hosts ?? HOST_IDS.filter((h) => known.has(h) || foundHosts.has(h));
  const todo: string[] = wanted.filter((h) => known.has(h));
  const rev = merge(todo.length ? await revertFromManifest(paths.manifest, { hosts: todo, dryRun: o.dryRun }) : undefined, extra.rev);
  if (!o.dryRun && todo.length) {
    // Hosts whose files are all reverted leave the manifest; so do those that had metadata only.
    const failedHosts = new Set(rev?.failed.flatMap((f) => f.hosts) ?? []);
    dropHosts(paths.manifest, todo.filter((h) => !failedHosts.has(h)));
  }
  const label = (h: string) => meta[h]?.label ?? (isHostId(h) ? HOST_LABELS[h] : h);
  const hosts: HostResult[] = wanted.map((h) => {
    if (!known.has(h) && !foundHosts.has(h)) return { ...hostResult(h, label(h), undefined, o.dryRun), status: 'skipped', reason: 'not installed (no record in the install manifest, nothing of ours in its files)' };
    const r = hostResult(h, label(h), rev, o.dryRun);
    const f = foundHosts.get(h);
    return f ? { ...r, captureDetail: ['found in its files: the install manifest had no record of them', ...f.left.map((x) => `left as it is: ${x} (what it held before install is unknown without the record)`)] } : r;
  });
  const remaining = o.dryRun ? [...known].filter((h) => !todo.includes(h)) : existsSync(paths.manifest) ? Object.keys(loadManifest(paths.manifest).hosts) : [];
  // Computed now: --purge may remove the program this runs from, and the diff library with it.
  const diff = (rev?.files ?? []).filter((f) => f.changed).map((f) => f.diff).join('');
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
  const ok = hosts.every((h) => h.status !== 'failed') && worker.action !== 'failed' && (!o.purge || purged !== false);
  const refusal = o.purge ? unsafe : undefined;
  return { ok, dryRun: o.dryRun, dataDir: paths.root, hosts, diff, worker, purged, remaining, ...(refusal && { error: refusal }) };
}
