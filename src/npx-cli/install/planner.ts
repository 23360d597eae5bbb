/**
 * The single-writer planner: exactly one capture writer per host, and every overlap between hosts
 * resolved and said out loud (architecture §7). Host modules propose; this decides.
 *
 * - Codex: native hooks capture top-level sessions; its transcript watch is kept only for subagent
 *   sessions and only with --codex-subagent-transcripts.
 * - DeepSeek Harness: the transcript watch captures; its plugin only recalls.
 * - T3 Code: nothing of its own; captured by the providers it runs (Claude Code, Codex).
 * - Hosts that run another host's hooks (Cursor, Grok, Copilot CLI): the hook identifies its real
 *   caller and drops the call that belongs to the other host's writer, so nothing is stored twice.
 */
import { resolve } from 'node:path';
import { HOST_LABELS, type HostId } from '../../shared/hosts.js';
import type { Change, JsonArrayUpsertChange } from '../engine/index.js';
import type { HostPlan } from '../hosts/types.js';
import type { WriterDecision } from './types.js';

/** Whose hook files each host also runs (HOSTS.md cross-cutting finding 1). */
export const RUNS_HOOKS_OF: Partial<Record<HostId, HostId[]>> = {
  cursor: ['claude-code'],
  grok: ['claude-code', 'cursor'],
  copilot: ['claude-code'],
};

/** The providers T3 Code runs. */
export const T3_PROVIDERS: readonly HostId[] = ['claude-code', 'codex'];

export interface PlannerInput {
  selected: readonly HostId[];
  plans: ReadonlyMap<HostId, HostPlan>;
  /** Hosts already installed by an earlier run (from the manifest): they still capture. */
  installed: ReadonlySet<string>;
  transcriptWatchPath: string;
  codexSubagentTranscripts: boolean;
  /** The Codex subagent watch, when the Codex module proposes none (built from the shipped schema). */
  codexSubagentWatch: () => unknown;
}

export interface PlannerOutput {
  decisions: Map<HostId, WriterDecision>;
  changes: Map<HostId, Change[]>;
}

const label = (h: HostId) => HOST_LABELS[h];

function isWatch(c: Change, path: string): boolean {
  return resolve(c.file) === path;
}

/** Forces `subagentOnly: true` on a Codex watch entry (top-level sessions belong to the hooks). */
function subagentOnly(c: Change): Change {
  if (c.kind !== 'json-array-upsert' || typeof c.entry !== 'object' || c.entry === null) return c;
  return { ...c, entry: { ...(c.entry as Record<string, unknown>), subagentOnly: true } };
}

function planCodex(plan: HostPlan, inp: PlannerInput, d: WriterDecision, changes: Change[]): Change[] {
  if (plan.capture !== 'hooks') return changes; // no hooks (old Codex): the watch is the only writer
  const watch = changes.filter((c) => isWatch(c, inp.transcriptWatchPath));
  const rest = changes.filter((c) => !isWatch(c, inp.transcriptWatchPath));
  d.detail.push('top-level sessions: Codex native hooks');
  if (!inp.codexSubagentTranscripts) {
    d.detail.push('subagent sessions: not captured (add --codex-subagent-transcripts to read them from the rollout logs)');
    return rest;
  }
  d.detail.push('subagent sessions: rollout transcript watch (subagent sessions only)');
  d.overlaps.push({ with: 'codex:transcript', resolution: 'watch limited to subagent sessions; hooks own top-level sessions' });
  if (watch.length > 0) return [...rest, ...watch.map(subagentOnly)];
  const added: JsonArrayUpsertChange = {
    kind: 'json-array-upsert', file: inp.transcriptWatchPath, host: 'codex', path: ['watches'],
    match: [{ path: ['name'], equals: 'codex' }], entry: inp.codexSubagentWatch(),
  };
  return [...rest, added];
}

function planT3(inp: PlannerInput, d: WriterDecision): void {
  const providers = T3_PROVIDERS.filter((p) => inp.selected.includes(p) || inp.installed.has(p));
  if (providers.length === 0) {
    d.skip = `T3 Code has no capture of its own: it is captured through the providers it runs (${T3_PROVIDERS.map(label).join(', ')}), and neither is selected or installed`;
    return;
  }
  d.detail.push(`captured by the providers it runs: ${providers.map(label).join(', ')} (their hooks fire inside T3 Code)`);
  const missing = T3_PROVIDERS.filter((p) => !providers.includes(p));
  if (missing.length) d.detail.push(`sessions T3 Code runs with ${missing.map(label).join(', ')} are not captured (that host is not selected)`);
}

function hookRunners(host: HostId, inp: PlannerInput, d: WriterDecision): void {
  const present = (h: HostId) => inp.selected.includes(h) || inp.installed.has(h);
  for (const other of RUNS_HOOKS_OF[host] ?? []) {
    if (!present(other)) continue;
    d.detail.push(`${label(host)} also runs ${label(other)}'s hooks: the hook recognises ${label(host)} as the caller and drops that copy, so each event is stored once`);
    d.overlaps.push({ with: other, resolution: `caller identification drops ${host} events arriving through ${other}'s hooks` });
  }
  // The other direction: this host's hooks are also run by a selected runner.
  for (const [runner, sources] of Object.entries(RUNS_HOOKS_OF) as Array<[HostId, HostId[]]>) {
    if (sources.includes(host) && present(runner) && runner !== host) {
      d.detail.push(`${label(runner)} runs these hooks too; its calls are recognised and left to ${label(runner)}'s own writer`);
    }
  }
}

export function planWriters(inp: PlannerInput): PlannerOutput {
  const decisions = new Map<HostId, WriterDecision>();
  const out = new Map<HostId, Change[]>();
  for (const host of inp.selected) {
    const plan = inp.plans.get(host);
    if (!plan) continue;
    const d: WriterDecision = { capture: plan.capture, recall: plan.recall, detail: [], overlaps: [] };
    let changes: Change[] = plan.changes.map((c) => ({ ...c, host }));
    if (host === 'codex') changes = planCodex(plan, inp, d, changes);
    else if (plan.capture !== 'transcript' && changes.some((c) => isWatch(c, inp.transcriptWatchPath))) {
      // A watch next to another writer would store the host's sessions twice.
      changes = changes.filter((c) => !isWatch(c, inp.transcriptWatchPath));
      d.detail.push(`transcript watch left out: ${plan.capture} already captures ${label(host)}`);
    }
    if (host === 'dsh') d.detail.push('the transcript watch captures; the DeepSeek Harness plugin only recalls and never captures');
    if (host === 't3code') planT3(inp, d);
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
