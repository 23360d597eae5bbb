/**
 * What each host really sent (doctor probes excluded): when it last delivered a prompt, a tool
 * result, a turn end and a session end, and how its most recent sessions look. Doctor's probes
 * prove a round trip with payloads claude-mem made up; these figures come from real sessions, so
 * they show a host whose real payloads are not understood (sessions without prompts or tool
 * results) or whose sessions never end.
 */
import type { HostId } from '../shared/hosts.js';
import type { StatementCache } from './statements.js';
import type { HostTraffic } from './types.js';
import type { RecentSessions } from './types.js';
export type { RecentSessions } from './types.js';
export type { HostTraffic } from './types.js';

/** How many of a host's newest real sessions are looked at. */
const RECENT_SESSIONS = 20;

/** Kinds reported per host (host_kind_activity keeps every kind: a host heard only at session start shows too). */
const TRACKED_KINDS = ['session_start', 'prompt', 'tool_result', 'turn_end', 'session_end'] as const;
type TrackedKind = (typeof TRACKED_KINDS)[number];



const FIELD: Record<TrackedKind, keyof Omit<HostTraffic, 'recent'>> = {
  session_start: 'lastSessionStartAt', prompt: 'lastPromptAt', tool_result: 'lastToolResultAt', turn_end: 'lastTurnEndAt', session_end: 'lastSessionEndAt',
};

/** `host\tkind` keys of not yet written activity (see SqliteStore.flushSearchIndex). */
export const kindKey = (host: string, kind: string): string => `${host}\t${kind}`;

export function writeKindActivity(stmts: StatementCache, pending: ReadonlyMap<string, string>): void {
  const upsert = stmts.get(`INSERT INTO host_kind_activity (host, kind, last_at) VALUES (?, ?, ?)
    ON CONFLICT (host, kind) DO UPDATE SET last_at = max(last_at, excluded.last_at)`);
  for (const [key, at] of pending) {
    const [host, kind] = key.split('\t');
    upsert.run(host, kind, at);
  }
}

function recentSessions(stmts: StatementCache, host: string): RecentSessions {
  // A session counts as ended when the host ended it, or a turn end summarized it.
  const rows = stmts.get(`SELECT s.started_at AS startedAt, s.prompt_count AS prompts,
      EXISTS (SELECT 1 FROM observations o WHERE o.session_id = s.id) AS observed,
      (s.ended_at IS NOT NULL OR EXISTS (SELECT 1 FROM summaries m WHERE m.session_id = s.id)) AS ended
    FROM sessions s WHERE s.host = ? AND s.probe = 0 AND s.is_subagent = 0 AND s.host_session_id NOT LIKE 'manual:%'
    ORDER BY s.id DESC LIMIT ${RECENT_SESSIONS}`).all(host) as { startedAt: string; prompts: number; observed: number; ended: number }[];
  return {
    sessions: rows.length,
    withoutPrompt: rows.filter((r) => r.prompts === 0).length,
    withoutToolResult: rows.filter((r) => !r.observed).length,
    notEnded: rows.filter((r) => !r.ended).length,
    newestStartedAt: rows[0]?.startedAt ?? null,
    oldestStartedAt: rows[rows.length - 1]?.startedAt ?? null,
  };
}

/** Every host with real traffic, with activity not yet written (`pending`) taken into account. */
export function readTraffic(stmts: StatementCache, pending: ReadonlyMap<string, string>): Partial<Record<HostId, HostTraffic>> {
  const out: Partial<Record<HostId, HostTraffic>> = {};
  let rows: { host: string; kind: string; at: string }[];
  try {
    rows = stmts.get('SELECT host, kind, last_at AS at FROM host_kind_activity').all() as typeof rows;
  } catch {
    return out; // a database not migrated yet (read-only, opened next to an older worker)
  }
  const latest = new Map<string, string>(rows.map((r) => [kindKey(r.host, r.kind), r.at]));
  for (const [key, at] of pending) if (at > (latest.get(key) ?? '')) latest.set(key, at);
  const hosts = new Set([...latest.keys()].map((k) => k.split('\t')[0]));
  for (const host of [...hosts].sort()) {
    const t: HostTraffic = { lastSessionStartAt: null, lastPromptAt: null, lastToolResultAt: null, lastTurnEndAt: null, lastSessionEndAt: null, recent: recentSessions(stmts, host) };
    for (const kind of TRACKED_KINDS) t[FIELD[kind]] = latest.get(kindKey(host, kind)) ?? null;
    out[host as HostId] = t;
  }
  return out;
}
