/**
 * Detect, then plan: every selected host's changes, the single-writer decisions, and the engine's
 * per-file plan (new text and diff). Nothing is written here, so `--dry-run` stops after this.
 */
import { HOST_LABELS, type HostId } from '../../shared/hosts.js';
import { dataPaths, type DataPaths, type Env } from '../../shared/paths.js';
import { failedHosts, planChanges, type EngineError, type PlannedFile } from '../engine/index.js';
import type { HostModule, HostPlan, KillSwitch } from '../hosts/types.js';
import { baseContext, hostContext, type BaseContext } from './context.js';
import { detectAll, type Detected } from './detect.js';
import { installedHosts } from './meta.js';
import { loadHostModules } from '../hosts/modules.js';
import { planWriters } from './writer-planner.js';
import type { WriterDecision } from './types.js';

export interface Prepared {
  base: BaseContext;
  paths: DataPaths;
  detected: Detected[];
  /** Hosts an earlier install recorded in the manifest. */
  installed: Set<string>;
}

export async function prepare(env: Env, modules?: readonly HostModule[]): Promise<Prepared> {
  const base = baseContext(env);
  const paths = dataPaths(base.dataDir);
  const detected = await detectAll(modules ?? (await loadHostModules()), env);
  return { base, paths, detected, installed: installedHosts(paths.manifest) };
}

export const detectedIds = (p: Prepared): HostId[] => p.detected.filter((d) => d.detection.installed).map((d) => d.module.id);

export interface HostPlanned {
  id: HostId;
  label: string;
  detected: Detected;
  plan?: HostPlan;
  decision?: WriterDecision;
  /** plan() threw, or one of the host's files was refused by the engine. */
  error?: { reason: string; fix?: string };
  /** The host's own hook switch is off, and whether this install turns it on (only with consent). */
  killSwitch?: { off: KillSwitch; turnOn: boolean };
}

export interface InstallPlan {
  prepared: Prepared;
  selected: HostId[];
  hosts: Map<HostId, HostPlanned>;
  files: PlannedFile[];
}

const fixFor = (e: unknown) => (e as EngineError)?.fix;

export interface PlanOptions {
  codexSubagentTranscripts: boolean;
  /** The user agreed to turn on this host's own hook switch (--enable-hooks, or the question). */
  enableHooks?: (host: HostId) => boolean;
}

/** A host whose hooks the user switched off: its switch is turned on only with consent. */
function withKillSwitch(h: HostPlanned, plan: HostPlan, opts: PlanOptions): HostPlan {
  if (!plan.killSwitch) return plan;
  const turnOn = !!opts.enableHooks?.(h.id);
  h.killSwitch = { off: plan.killSwitch, turnOn };
  return turnOn ? { ...plan, changes: [...plan.changes, ...plan.killSwitch.enable] } : plan;
}

export async function planInstall(p: Prepared, selected: readonly HostId[], opts: PlanOptions): Promise<InstallPlan> {
  const hosts = new Map<HostId, HostPlanned>();
  const plans = new Map<HostId, HostPlan>();
  await Promise.all(selected.map(async (id) => {
    const detected = p.detected.find((d) => d.module.id === id);
    if (!detected) return;
    const h: HostPlanned = { id, label: detected.module.label ?? HOST_LABELS[id], detected };
    hosts.set(id, h);
    try {
      h.plan = withKillSwitch(h, await detected.module.plan(hostContext(p.base, detected.detection, selected)), opts);
      plans.set(id, h.plan);
    } catch (e) {
      h.error = { reason: (e as Error)?.message ?? String(e), fix: fixFor(e) ?? `Do what the message says, then run \`claude-mem install --ide ${id}\` again.` };
    }
  }));
  const order = selected.filter((id) => hosts.has(id));
  const { decisions, changes } = await planWriters({
    selected: order,
    plans,
    installed: p.installed,
    transcriptWatchPath: p.paths.transcriptWatch,
    modules: new Map(order.map((id) => [id, hosts.get(id)!.detected.module])),
    codexSubagentTranscripts: opts.codexSubagentTranscripts,
  });
  for (const [id, d] of decisions) hosts.get(id)!.decision = d;
  const files = await planChanges(order.flatMap((id) => (hosts.get(id)!.error ? [] : changes.get(id) ?? [])));
  for (const [host, err] of failedHosts(files)) {
    const h = hosts.get(host as HostId);
    if (h && !h.error) h.error = { reason: err.message, fix: err.fix };
  }
  return { prepared: p, selected: order, hosts, files };
}

/** Files each host's changes touch (refused files excluded). */
export function filesOf(plan: InstallPlan, host: HostId): PlannedFile[] {
  return plan.files.filter((f) => !f.error && f.hosts.includes(host));
}

/** Would this host's part of the file change anything? (A shared file may change for another host only.) */
export function hostChanges(f: PlannedFile, host: HostId): boolean {
  if (!f.existed) return true;
  const own = f.records.filter((r) => r.host === host);
  return own.length === 0 ? f.changed : own.some((r) => !r.noop);
}
