/**
 * Capture seen in real traffic. The round-trip probes prove that a hook runs and stores a payload
 * doctor made up; they stay green when a host's real payloads are not understood (Kimi Code's
 * prompts as content parts stored nothing while every probe passed). These checks read what real
 * sessions left (probes excluded, see src/store/traffic.ts): when each installed host last
 * sent a prompt, a tool result and a session end, and whether its recent sessions lack them.
 */
import { join } from 'node:path';
import { HOST_LABELS, type HostId } from '../../shared/hosts.js';
import type { HostTraffic } from '../../store/traffic.js';
import { storeStats } from './capture.js';
import type { DoctorContext } from './context.js';
import { age } from './timebox.js';
import type { Check } from './types.js';
import { HOST_FACTS } from '../../hosts/registry.js';

/** Fewer recent sessions than this prove nothing either way. */
const MIN_SESSIONS = 3;
/** Sessions with prompts but no tool result at all: a handful of chats is plausible, this many is not. */
const MIN_SESSIONS_FOR_TOOLS = 5;
/** A session younger than this may simply still be running. */
export const OPEN_SESSION_GRACE_MS = 6 * 3600_000;

/**
 * Hosts whose sessions legitimately never end in claude-mem, and why (each host's facts, `noSessionEnd`).
 * Kimi Code is not here: its turns end with a summary (turn_end), which counts as an end.
 */
const NO_SESSION_END: Partial<Record<HostId, string>> = Object.fromEntries(
  HOST_FACTS.flatMap((f) => (f.noSessionEnd ? [[f.id, f.noSessionEnd]] : [])),
);

const CAPTURING = new Set(['hooks', 'plugin', 'transcript']);

function when(at: string | null, now: number): string {
  return at ? `${age(now - Date.parse(at))} ago` : 'never';
}

function evidenceLine(label: string, t: HostTraffic, now: number): string {
  const r = t.recent;
  const end = t.lastSessionEndAt ? when(t.lastSessionEndAt, now) : t.lastTurnEndAt ? `${when(t.lastTurnEndAt, now)} (a turn end)` : 'never';
  return `${label}, real sessions: last prompt ${when(t.lastPromptAt, now)}, tool result ${when(t.lastToolResultAt, now)}, session end ${end}; `
    + `of its ${r.sessions} most recent session(s) ${r.withoutPrompt} without a prompt, ${r.withoutToolResult} without a tool result, ${r.notEnded} not ended`;
}

function report(host: HostId, label: string, logs: string): string {
  return `Report this to the claude-mem project with: claude-mem doctor --json, claude-mem --version, the ${label} version, and ` +
    `${join(logs, 'hook.log')} after one ${label} session started with CLAUDE_MEM_DEBUG=1 in its environment (it records what each hook received). ` +
    `First, claude-mem install --yes --ide ${host} brings its hooks up to date with this claude-mem (an older install may lack one it now needs).`;
}

/** The failure a host's recent sessions show, if any: the first that applies. */
export function problem(host: HostId, label: string, t: HostTraffic, now: number, logs: string): Omit<Check, 'id' | 'area' | 'host'> | undefined {
  const r = t.recent;
  if (r.sessions >= MIN_SESSIONS && r.withoutPrompt === r.sessions) {
    return {
      status: 'fail',
      evidence: `none of ${label}'s ${r.sessions} most recent real sessions has a prompt: its prompt events are not captured (likely cause: ${label} sends them in a shape this claude-mem does not read, or the prompt hook is not installed)`,
      fix: report(host, label, logs),
    };
  }
  const withPrompt = r.sessions - r.withoutPrompt;
  if (withPrompt >= MIN_SESSIONS_FOR_TOOLS && r.withoutToolResult === r.sessions) {
    return {
      status: 'fail',
      evidence: `none of ${label}'s ${r.sessions} most recent real sessions has a tool result although ${withPrompt} have prompts: its tool calls are not captured (likely cause: ${label}'s tool-result payload is not understood, or ${label} stops the hook before it delivers)`,
      fix: report(host, label, logs),
    };
  }
  const settled = r.newestStartedAt !== null && now - Date.parse(r.newestStartedAt) > OPEN_SESSION_GRACE_MS;
  if (!NO_SESSION_END[host] && r.sessions >= MIN_SESSIONS && r.notEnded === r.sessions && settled) {
    return {
      status: 'fail',
      evidence: `none of ${label}'s ${r.sessions} most recent real sessions ever ended (the newest started ${when(r.newestStartedAt, now)}): no session end reaches claude-mem, so these sessions have no summary (likely cause: ${label} does not fire its session-end hook in the way it is run, or that hook is not installed)`,
      fix: report(host, label, logs),
    };
  }
  return undefined;
}

export async function realTrafficChecks(ctx: DoctorContext, now = Date.now()): Promise<Check[]> {
  const hosts = ctx.hosts.filter((h) => CAPTURING.has(ctx.meta(h)?.capture ?? 'hooks'));
  if (!hosts.length) return [];
  const { stats, error } = await storeStats(ctx);
  return hosts.map((host): Check => {
    const id = `${host}.real-traffic`;
    const label = ctx.meta(host)?.label ?? HOST_LABELS[host];
    const base = { id, area: 'capture' as const, host };
    if (!stats) return { ...base, status: 'warn', evidence: `${label}: real traffic unknown (${error})` };
    const t = stats.captureByHost?.[host];
    if (!t) return { ...base, status: 'ok', evidence: `${label}: no real session captured yet` };
    const line = evidenceLine(label, t, now);
    const bad = problem(host, label, t, now, ctx.paths.logs);
    if (bad) return { ...base, ...bad, detail: line };
    const note = NO_SESSION_END[host] ? ` (${NO_SESSION_END[host]})` : '';
    return { ...base, status: 'ok', evidence: `${line}${note}` };
  });
}
