/** Per-host results (the summary and the `--json` document) from the plan and what applying it did. */
import { hostFacts, type HostId } from '../../shared/hosts.js';
import type { ApplySummary } from '../engine/index.js';
import type { Detected } from './detect.js';
import { filesOf, hostChanges, type HostPlanned, type InstallPlan } from './install-plan.js';
import type { FileResult, HostResult } from './types.js';

function detectedOf(d: Detected): HostResult['detected'] {
  return {
    installed: d.detection.installed,
    evidence: d.detection.evidence,
    ...(d.detection.version && { version: d.detection.version }),
    ...(d.error && { error: d.error }),
  };
}

function notSelected(d: Detected): HostResult {
  return {
    id: d.module.id, label: d.module.label, selected: false, detected: detectedOf(d), capture: null, captureDetail: [], recall: null,
    status: 'skipped', reason: d.detection.installed ? 'not selected' : 'not detected (not selected)',
    fix: `claude-mem install --ide ${d.module.id}`, files: [], nextSteps: [], notes: [], warnings: [],
  };
}

function filesFor(plan: InstallPlan, id: HostId, withDiff: boolean): FileResult[] {
  return filesOf(plan, id).map((f) => ({
    path: f.path,
    action: !hostChanges(f, id) ? 'unchanged' : f.existed ? 'modified' : 'created',
    ...(withDiff && f.changed && { diff: f.diff }),
  }));
}

/** What happened to each file of a host that failed while writing: nothing of it stays but what could not be put back. */
function failedFiles(files: FileResult[], id: HostId, applied: ApplySummary): FileResult[] {
  const has = (list: ReadonlyArray<{ path: string; hosts: string[] }>, path: string) => list.some((x) => x.path === path && x.hosts.includes(id));
  return files.map((f): FileResult => {
    if (f.action === 'unchanged') return f;
    const stuck = applied.rollbackFailed.find((x) => x.path === f.path && x.hosts.includes(id));
    if (stuck) return { ...f, notes: [`could not be put back (${stuck.error.message}); it keeps claude-mem's change, which uninstall removes`] };
    if (has(applied.rolledBack, f.path)) return { path: f.path, action: 'rolled-back', notes: ['written, then put back as it was'] };
    const failed = applied.failed.find((x) => x.path === f.path && x.hosts.includes(id));
    return { path: f.path, action: 'not-written', ...(failed && { notes: [failed.error.message] }) };
  });
}

/** Capture is off by the user's own switch: said in the status line, with how to turn it on. */
function withKillSwitch(r: HostResult, h: HostPlanned): HostResult {
  if (!h.killSwitch) return r;
  const ks = h.killSwitch.off;
  const where = `${ks.setting} in ${ks.file}`;
  if (h.killSwitch.turnOn) return { ...r, captureDetail: [...r.captureDetail, `hooks turned on as you asked: ${where} was off (uninstall puts it back)`] };
  return {
    ...r, status: 'off', reason: `capture is OFF: ${where} switches off every hook, claude-mem's included (your setting, left as it is)`,
    fix: `${ks.howToEnable}, or run \`claude-mem install --ide ${h.id} --enable-hooks\``,
  };
}

/** Results for every host (selected ones from the plan); `applied` is what writing the plan did. */
export function buildResults(plan: InstallPlan, opts: { dryRun: boolean; applied?: ApplySummary }): HostResult[] {
  return plan.prepared.detected.map((d) => {
    const h = plan.hosts.get(d.module.id);
    if (!h) return notSelected(d);
    const base: HostResult = {
      id: h.id, label: h.label, selected: true, detected: detectedOf(d),
      capture: h.decision?.capture ?? h.plan?.capture ?? null,
      captureDetail: h.decision?.detail ?? [],
      recall: h.decision?.recall ?? h.plan?.recall ?? null,
      status: 'ok', files: [], nextSteps: h.plan?.nextSteps ?? [], notes: h.plan?.notes ?? [], warnings: [],
    };
    if (h.error) return { ...base, status: 'failed', reason: h.error.reason, fix: h.error.fix, nextSteps: [] };
    if (h.decision?.skip) return { ...base, status: 'skipped', reason: h.decision.skip, fix: `claude-mem install --ide ${(hostFacts(h.id).providers ?? []).join(' ')}`, nextSteps: [] };
    if (h.plan && h.plan.changes.length === 0 && base.capture === 'none' && base.recall === 'none') {
      // Nothing to write and nothing that would capture or recall: not "installed".
      return { ...base, status: 'skipped', reason: 'nothing to configure yet', fix: h.plan.nextSteps[0] ?? h.plan.notes[0], nextSteps: [] };
    }
    const files = filesFor(plan, h.id, opts.dryRun);
    const failed = opts.applied?.failed.find((f) => f.hosts.includes(h.id))?.error;
    if (failed) {
      const all = failedFiles(files, h.id, opts.applied!);
      const kept = all.some((f) => f.action !== 'rolled-back' && f.action !== 'not-written' && f.action !== 'unchanged');
      const reason = `${failed.message}; ${kept ? 'a file could not be put back (see below)' : `nothing of ${h.label} was changed`}`;
      return { ...base, files: all, status: 'failed', reason, fix: failed.fix, nextSteps: [] };
    }
    return withKillSwitch({ ...base, files }, h);
  });
}
