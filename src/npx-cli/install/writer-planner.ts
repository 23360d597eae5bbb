/**
 * The single-writer planner: exactly one capture writer per host, and every overlap between hosts
 * resolved and said out loud (docs/architecture.md). Host modules propose; this decides. A host
 * whose writers need more than the rules below settles them itself (its module's settleWriters).
 *
 * - A transcript watch next to another writer of the same host is left out (it would store twice).
 * - A host with `providers` in its facts has nothing of its own: the providers it runs capture it.
 * - Hosts that run another host's hooks (`runsHooksOf`): the hook identifies its real caller and
 *   drops the call that belongs to the other host's writer, so nothing is stored twice.
 */
import { resolve } from 'node:path';
import { hostFacts, HOST_LABELS, type HostId } from '../../shared/hosts.js';
import type { Change } from '../engine/index.js';
import type { HostModule, HostPlan, WriterDecision, WriterRun, WriterSettlement } from '../hosts/types.js';

export interface PlannerInput extends WriterRun {
  selected: readonly HostId[];
  plans: ReadonlyMap<HostId, HostPlan>;
  /** Hosts already installed by an earlier run (from the manifest): they still capture. */
  installed: ReadonlySet<string>;
  transcriptWatchPath: string;
  /** The selected hosts' modules (a module may settle its own writers). */
  modules: ReadonlyMap<HostId, Pick<HostModule, 'settleWriters'>>;
}

interface PlannerOutput {
  decisions: Map<HostId, WriterDecision>;
  changes: Map<HostId, Change[]>;
}

const label = (h: HostId) => HOST_LABELS[h];
const runsHooksOf = (h: HostId) => (hostFacts(h).runsHooksOf ?? []) as readonly HostId[];

function isWatch(c: Change, path: string): boolean {
  return resolve(c.file) === path;
}

/** The default: a transcript watch is kept only when it is the host's capture writer. */
export function settleWatch(host: HostId, { plan, input, decision, changes }: WriterSettlement): Change[] {
  if (plan.capture === 'transcript' || !changes.some((c) => isWatch(c, input.transcriptWatchPath))) return changes;
  decision.detail.push(`transcript watch left out: ${plan.capture} already captures ${label(host)}`);
  return changes.filter((c) => !isWatch(c, input.transcriptWatchPath));
}

function planProviders(host: HostId, inp: PlannerInput, d: WriterDecision): void {
  const all = (hostFacts(host).providers ?? []) as readonly HostId[];
  if (all.length === 0) return;
  const providers = all.filter((p) => inp.selected.includes(p) || inp.installed.has(p));
  if (providers.length === 0) {
    d.skip = `${label(host)} has no capture of its own: it is captured through the providers it runs (${all.map(label).join(', ')}), and neither is selected or installed`;
    return;
  }
  d.detail.push(`captured by the providers it runs: ${providers.map(label).join(', ')} (their hooks fire inside ${label(host)})`);
  const missing = all.filter((p) => !providers.includes(p));
  if (missing.length) d.detail.push(`sessions ${label(host)} runs with ${missing.map(label).join(', ')} are not captured (that host is not selected)`);
}

function hookRunners(host: HostId, inp: PlannerInput, d: WriterDecision): void {
  const present = (h: HostId) => inp.selected.includes(h) || inp.installed.has(h);
  for (const other of runsHooksOf(host)) {
    if (!present(other)) continue;
    d.detail.push(`${label(host)} also runs ${label(other)}'s hooks: the hook recognises ${label(host)} as the caller and drops that copy, so each event is stored once`);
    d.overlaps.push({ with: other, resolution: `caller identification drops ${host} events arriving through ${other}'s hooks` });
  }
  // The other direction: this host's hooks are also run by a selected runner.
  for (const runner of Object.keys(HOST_LABELS) as HostId[]) {
    if (runsHooksOf(runner).includes(host) && present(runner) && runner !== host) {
      d.detail.push(`${label(runner)} runs these hooks too; its calls are recognised and left to ${label(runner)}'s own writer`);
    }
  }
}

export async function planWriters(inp: PlannerInput): Promise<PlannerOutput> {
  const decisions = new Map<HostId, WriterDecision>();
  const out = new Map<HostId, Change[]>();
  for (const host of inp.selected) {
    const plan = inp.plans.get(host);
    if (!plan) continue;
    const d: WriterDecision = { capture: plan.capture, recall: plan.recall, detail: [], overlaps: [] };
    const s: WriterSettlement = { plan, input: inp, decision: d, changes: plan.changes.map((c) => ({ ...c, host })) };
    const settle = inp.modules.get(host)?.settleWriters;
    const changes = settle ? await settle(s) : settleWatch(host, s);
    planProviders(host, inp, d);
    hookRunners(host, inp, d);
    decisions.set(host, d);
    out.set(host, d.skip ? [] : changes);
  }
  return { decisions, changes: out };
}

/** Plain words for a capture writer. */
export function captureText(c: string | null): string {
  const words: Record<string, string> = {
    hooks: 'native hooks', transcript: 'transcript watch', plugin: 'native plugin', providers: 'via its providers', none: 'not captured',
  };
  return c ? words[c] ?? c : '—';
}

export function recallText(r: string | null): string {
  const words: Record<string, string> = {
    mcp: 'MCP tools', 'native-tools': 'plugin tools', 'mcp+native-tools': 'MCP + plugin tools', providers: 'via its providers', none: 'none',
  };
  return r ? words[r] ?? r : '—';
}
