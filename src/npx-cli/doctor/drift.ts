/**
 * Drift: re-planning the manifest's recorded changes against the files as they are now. A change
 * the engine would make again is an entry of ours that is missing or was changed; a file the
 * engine refuses no longer parses. `--fix` applies that same plan, for the drifted hosts only,
 * and the engine's edits touch nothing but our entries.
 */
import type { HostId } from '../../shared/hosts.js';
import { applyPlan, planChanges, type Change, type Manifest, type PlannedFile } from '../engine/index.js';
import type { DoctorContext } from './context.js';
import type { Check } from './types.js';

export function recordedChanges(m: Manifest, host: string): Change[] {
  const out: Change[] = [];
  for (const [file, entry] of Object.entries(m.hosts[host]?.files ?? {})) {
    for (const r of entry.changes) out.push({ ...r.change, file, host } as Change);
  }
  return out;
}

/** One plan per file, so a broken file never hides the state of another. */
async function planPerFile(changes: readonly Change[]): Promise<PlannedFile[]> {
  const byFile = new Map<string, Change[]>();
  for (const c of changes) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  const plans = await Promise.all([...byFile.values()].map((list) => planChanges(list)));
  return plans.flat();
}

/** Would re-applying change this host's part of the file? */
function hostDrifted(f: PlannedFile, host: string): boolean {
  if (f.error) return false;
  if (!f.existed) return true;
  return f.records.some((r) => r.host === host && !r.noop);
}

const MAX_DIFF_LINES = 60;

function clipDiff(diff: string): string {
  const lines = diff.trimEnd().split('\n').filter((l) => !/^(Index: |={20,}$)/.test(l));
  return lines.length <= MAX_DIFF_LINES ? lines.join('\n') : [...lines.slice(0, MAX_DIFF_LINES), `… ${lines.length - MAX_DIFF_LINES} more line(s)`].join('\n');
}

interface HostFilesState {
  host: HostId;
  plans: PlannedFile[];
}

export async function planHosts(ctx: DoctorContext, hosts: readonly HostId[]): Promise<HostFilesState[]> {
  if (!ctx.manifest) return [];
  const all = await planPerFile(hosts.flatMap((h) => recordedChanges(ctx.manifest!, h)));
  return hosts.map((host) => ({ host, plans: all.filter((f) => f.hosts.includes(host)) }));
}

export function driftChecks(s: HostFilesState): Check[] {
  const { host, plans } = s;
  // A whole file of ours is kept in the manifest by its digest: once changed it cannot be
  // re-planned, and the engine says so. That is drift, not a file that fails to parse.
  const replaced = plans.filter((f) => f.error && f.format === 'file');
  const broken = plans.filter((f) => f.error && f.format !== 'file');
  const drifted = plans.filter((f) => hostDrifted(f, host));
  const out: Check[] = [];
  out.push(broken.length
    ? {
      id: `${host}.parse`, area: 'hosts', host, status: 'fail',
      evidence: broken.map((f) => f.error!.message).join('; '),
      fix: broken.map((f) => f.error!.fix).join(' '),
    }
    : { id: `${host}.parse`, area: 'hosts', host, status: 'ok', evidence: plans.length ? `${plans.length} file(s) parse` : 'no files of its own' });
  if (drifted.length || replaced.length) {
    const what = [
      ...(drifted.length ? ["puts back only claude-mem's entries; your other edits stay"] : []),
      ...(replaced.length ? [`writes ${replaced.map((f) => f.path).join(', ')} again (wholly claude-mem's)`] : []),
    ];
    out.push({
      id: `${host}.drift`, area: 'hosts', host, status: 'fail',
      evidence: [
        ...drifted.map((f) => (f.existed ? `claude-mem's entries in ${f.path} are missing or changed` : `${f.path} is gone`)),
        ...replaced.map((f) => f.error!.message),
      ].join('; '),
      fix: `claude-mem doctor --fix --ide ${host} (${what.join('; ')})`,
      ...(drifted.length && { detail: clipDiff(drifted.map((f) => f.diff).join('')) }),
    });
  } else {
    const checked = plans.length - broken.length;
    out.push(broken.length
      ? { id: `${host}.drift`, area: 'hosts', host, status: 'warn', evidence: `${checked} file(s) hold claude-mem's entries; ${broken.length} could not be read (see ${host}.parse)` }
      : { id: `${host}.drift`, area: 'hosts', host, status: 'ok', evidence: plans.length ? `claude-mem's entries are in place in ${plans.length} file(s)` : 'nothing recorded to hold' });
  }
  return out;
}

/** Re-applies the drifted hosts' recorded changes (parseable files only). */
export async function repairDrift(ctx: DoctorContext, hosts: readonly HostId[]): Promise<{ written: string[]; failed: string[] }> {
  if (!ctx.manifest || hosts.length === 0) return { written: [], failed: [] };
  const plans = (await planPerFile(hosts.flatMap((h) => recordedChanges(ctx.manifest!, h))))
    .filter((f) => !f.error && f.changed);
  if (plans.length === 0) return { written: [], failed: [] };
  const r = await applyPlan(plans, { manifestPath: ctx.paths.manifest, backupsDir: ctx.paths.backups });
  return { written: r.written, failed: r.failed.map((f) => `${f.path}: ${f.error.message}`) };
}
