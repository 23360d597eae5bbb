/** Row shapes as SQLite returns them, and their mapping to the public types. */
import type { HostId } from '../shared/hosts.js';
import type { Observation, ObservationType, PromptRow, SessionRow } from './types.js';

export function parseList(json: string | null | undefined): string[] {
  if (!json) return [];
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  } catch {
    return [];
  }
}

/** Columns selected for an Observation (alias `o`, joined session alias `s`). */
export const OBSERVATION_COLUMNS = `o.id, o.session_id, s.host_session_id, o.host, o.project, o.prompt_number, o.type,
  o.title, o.subtitle, o.narrative, o.facts, o.files_read, o.files_modified, o.concepts, o.tool_name,
  o.tool_use_id, o.created_at`;

export interface ObservationDbRow {
  id: number;
  session_id: number;
  host_session_id: string;
  host: string;
  project: string;
  prompt_number: number | null;
  type: string;
  title: string;
  subtitle: string | null;
  narrative: string;
  facts: string;
  files_read: string;
  files_modified: string;
  concepts: string;
  tool_name: string | null;
  tool_use_id: string | null;
  created_at: string;
}

export function toObservation(r: ObservationDbRow): Observation {
  return {
    id: r.id,
    sessionId: r.session_id,
    hostSessionId: r.host_session_id,
    host: r.host as HostId,
    project: r.project,
    promptNumber: r.prompt_number,
    type: r.type as ObservationType,
    title: r.title,
    subtitle: r.subtitle,
    narrative: r.narrative,
    facts: parseList(r.facts),
    filesRead: parseList(r.files_read),
    filesModified: parseList(r.files_modified),
    concepts: parseList(r.concepts),
    toolName: r.tool_name,
    toolUseId: r.tool_use_id,
    createdAt: r.created_at,
  };
}

export const PROMPT_COLUMNS = `p.id, p.session_id, s.host_session_id, p.host, p.project, p.number, p.native_id, p.text, p.created_at`;

export interface PromptDbRow {
  id: number;
  session_id: number;
  host_session_id: string;
  host: string;
  project: string;
  number: number;
  native_id: string | null;
  text: string;
  created_at: string;
}

export function toPrompt(r: PromptDbRow): PromptRow {
  return {
    id: r.id,
    sessionId: r.session_id,
    hostSessionId: r.host_session_id,
    host: r.host as HostId,
    project: r.project,
    number: r.number,
    nativeId: r.native_id,
    text: r.text,
    createdAt: r.created_at,
  };
}

export interface SessionDbRow {
  id: number;
  host: string;
  host_session_id: string;
  project: string;
  cwd: string;
  parent_session_id: number | null;
  is_subagent: number;
  agent_id: string | null;
  started_at: string;
  ended_at: string | null;
  end_reason: string | null;
}

export function toSession(r: SessionDbRow): SessionRow {
  return {
    id: r.id,
    host: r.host as HostId,
    hostSessionId: r.host_session_id,
    project: r.project,
    cwd: r.cwd,
    parentSessionId: r.parent_session_id,
    isSubagent: r.is_subagent === 1,
    agentId: r.agent_id,
    startedAt: r.started_at,
    endedAt: r.ended_at,
    endReason: r.end_reason,
  };
}

const CANONICAL_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/** Normalizes an ISO-ish time to the stored form (UTC, milliseconds, `Z`), or null. */
export function isoTime(value: unknown): string | null {
  if (typeof value === 'string' && CANONICAL_TIME.test(value)) return value;
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const d = new Date(value);
  const year = d.getUTCFullYear();
  // Stored times compare as strings: keep to four-digit years.
  return Number.isNaN(d.getTime()) || year < 1 || year > 9999 ? null : d.toISOString();
}
