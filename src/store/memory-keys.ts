/**
 * Identities that hold across machines and re-reads: what a tombstone or a pin names, what export
 * writes and import matches on. Local row ids differ from one database to the next; these do not.
 *
 * - an event: its idempotency key (event-key.ts), the same however often it is delivered;
 * - a session: its host and the host's own session id;
 * - an observation: the tool call it came from (host, session, tool call id), else the event it
 *   came from, else (an explicit note) its session, time and text.
 */
import { createHash } from 'node:crypto';

type TombstoneKind = 'event' | 'session' | 'observation';

export const eventTombstone = (idemKey: string): string => `event:${idemKey}`;
export const sessionIdentity = (host: string, hostSessionId: string): string => `${host}|${hostSessionId}`;
export const sessionTombstone = (host: string, hostSessionId: string): string => `session:${sessionIdentity(host, hostSessionId)}`;
export const observationTombstone = (obsKey: string): string => `obs:${obsKey}`;

export function tombstoneKind(key: string): TombstoneKind | null {
  if (key.startsWith('event:')) return 'event';
  if (key.startsWith('session:')) return 'session';
  if (key.startsWith('obs:')) return 'observation';
  return null;
}

export interface ObservationIdentity {
  host: string; // the session's host
  hostSessionId: string;
  toolUseId: string | null;
  eventKey: string | null; // idempotency key of the event it came from
  createdAt: string;
  title: string;
  narrative: string;
}

export function observationKey(o: ObservationIdentity): string {
  const session = sessionIdentity(o.host, o.hostSessionId);
  if (o.toolUseId) return `${session}|t:${o.toolUseId}`;
  if (o.eventKey) return `ev:${o.eventKey}`;
  const digest = createHash('sha256').update(`${o.createdAt}\n${o.title}\n${o.narrative}`).digest('hex').slice(0, 32);
  return `${session}|m:${digest}`;
}

/**
 * Both halves of a tool call with a native id (`host|session|tool_use|t:id` and the tool_result
 * twin); any other key alone.
 */
export function eventKeyFamily(idemKey: string): string[] {
  const m = /^(.*)\|(tool_use|tool_result)\|(t:.*)$/s.exec(idemKey);
  if (!m) return [idemKey];
  return [`${m[1]}|tool_use|${m[3]}`, `${m[1]}|tool_result|${m[3]}`];
}

/** SQL selecting what observationKey needs, for observation alias `o` (joins sessions `s`, events `e`). */
export const OBS_IDENTITY_SQL = `s.host AS host, s.host_session_id AS hostSessionId, o.tool_use_id AS toolUseId,
  e.idem_key AS eventKey, o.created_at AS createdAt, o.title AS title, o.narrative AS narrative`;
export const OBS_IDENTITY_FROM = `observations o JOIN sessions s ON s.id = o.session_id LEFT JOIN events e ON e.id = o.event_id`;
