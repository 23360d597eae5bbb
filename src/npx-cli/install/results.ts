/** Per-host results (the summary and the `--json` document) from the plan and what applying it did. */
import type { HostId } from '../../shared/hosts.js';
import type { EngineError } from '../engine/index.js';
import type { Detected } from './detect.js';
import { filesOf, hostChanges, type HostPlanned, type InstallPlan } from './plan.js';
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

/** Results for every host (selected ones from the plan); `writeFailures` are files applyPlan could not write. */
export function buildResults(plan: InstallPlan, opts: { dryRun: boolean; writeFailures?: ReadonlyMap<string, EngineError> }): HostResult[] {
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
    if (h.decision?.skip) return { ...base, status: 'skipped', reason: h.decision.skip, fix: 'claude-mem install --ide claude-code codex', nextSteps: [] };
    if (h.plan && h.plan.changes.length === 0 && base.capture === 'none' && base.recall === 'none') {
      // Nothing to write and nothing that would capture or recall: not "installed".
      return { ...base, status: 'skipped', reason: 'nothing to configure yet', fix: h.plan.nextSteps[0] ?? h.plan.notes[0], nextSteps: [] };
    }
    const files = filesFor(plan, h.id, opts.dryRun);
    const failed = opts.writeFailures?.get(h.id);
    if (failed) return { ...base, files, status: 'failed', reason: failed.message, fix: failed.fix };
    return withKillSwitch({ ...base, files }, h);
  });
}
