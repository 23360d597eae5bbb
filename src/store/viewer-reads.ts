/**
 * What the viewer shows, read straight from the tables: projects, sessions (subagents under their
 * parent), one session's whole story, and the rows captured after a cursor (the live feed).
 * Doctor probes and private prompts never show; the synthetic sessions that hold saved memories do.
 */
import type { HostId } from '../shared/hosts.js';
import { OBSERVATION_COLUMNS, toObservation, type ObservationDbRow, type SessionDbRow } from './rows.js';
import type { StatementCache } from './statements.js';
import type { Observation } from './types.js';
import type { FeedCursor, FeedRow, ViewerItem, ViewerProject, ViewerReader, ViewerSession, ViewerSessionDetail, ViewerSummary } from './types.js';
export type { ViewerProject, ViewerSession, ViewerItem, ViewerSummary, ViewerSessionDetail, FeedRow, FeedCursor } from './types.js';








const MAX_FEED = 200;
const MAX_SESSIONS = 500;
const MAX_ITEMS = 2000;
const REAL = 's.probe = 0';

/** A session row with what the list shows of it. */
interface SessionListRow extends SessionDbRow {
  prompts: number;
  observations: number;
  request: string | null;
}

const SESSION_SELECT = `SELECT s.id, s.host, s.host_session_id, s.project, s.cwd, s.parent_session_id, s.is_subagent,
    s.agent_id, s.started_at, s.ended_at, s.end_reason,
    (SELECT count(*) FROM prompts p WHERE p.session_id = s.id AND p.private = 0) AS prompts,
    (SELECT count(*) FROM observations o WHERE o.session_id = s.id) AS observations,
    coalesce((SELECT request FROM summaries m WHERE m.session_id = s.id),
      (SELECT text FROM prompts p WHERE p.session_id = s.id AND p.private = 0 ORDER BY number LIMIT 1)) AS request
  FROM sessions s`;

const toViewerSession = (r: SessionListRow): ViewerSession => ({
  id: r.id, host: r.host as HostId, hostSessionId: r.host_session_id, project: r.project, cwd: r.cwd,
  parentId: r.parent_session_id, isSubagent: r.is_subagent === 1, agentId: r.agent_id, startedAt: r.started_at,
  endedAt: r.ended_at, endReason: r.end_reason, prompts: r.prompts, observations: r.observations,
  request: r.request ?? '', children: [],
});

const clampLimit = (v: number | undefined, dflt: number, max: number): number =>
  v === undefined || !Number.isFinite(v) ? dflt : Math.min(max, Math.max(1, Math.trunc(v)));

export class ViewerReads implements ViewerReader {
  constructor(private readonly stmts: StatementCache) {}

  projects(): ViewerProject[] {
    const rows = this.stmts
      .get(`SELECT s.project, count(*) AS sessions, group_concat(DISTINCT s.host) AS hosts, max(s.started_at) AS last_at
        FROM sessions s WHERE ${REAL} GROUP BY s.project ORDER BY last_at DESC`)
      .all() as { project: string; sessions: number; hosts: string; last_at: string }[];
    return rows.map((r) => ({ project: r.project, sessions: r.sessions, hosts: (r.hosts ?? '').split(',') as HostId[], lastAt: r.last_at }));
  }

  /** The newest top-level sessions (of a project, of a host), each with its subagent sessions. */
  sessions(q: { project?: string; host?: HostId; limit?: number } = {}): ViewerSession[] {
    const limit = clampLimit(q.limit, 50, MAX_SESSIONS);
    const top = (this.stmts
      .get(`${SESSION_SELECT} WHERE ${REAL} AND s.parent_session_id IS NULL
        AND (@project IS NULL OR s.project = @project) AND (@host IS NULL OR s.host = @host)
        ORDER BY s.started_at DESC, s.id DESC LIMIT @limit`)
      .all({ project: q.project ?? null, host: q.host ?? null, limit }) as SessionListRow[]).map(toViewerSession);
    if (!top.length) return top;
    const children = (this.stmts
      .get(`${SESSION_SELECT} WHERE ${REAL} AND s.parent_session_id IN (SELECT value FROM json_each(?))
        ORDER BY s.started_at, s.id`)
      .all(JSON.stringify(top.map((s) => s.id))) as SessionListRow[]).map(toViewerSession);
    const byId = new Map(top.map((s) => [s.id, s]));
    for (const c of children) byId.get(c.parentId!)?.children.push(c);
    return top;
  }

  /** One session as a timeline (prompts, tool calls, replies in time order), its summary and subagents. */
  session(id: number, depth = 0): ViewerSessionDetail | undefined {
    const row = this.stmts.get(`${SESSION_SELECT} WHERE s.id = ? AND ${REAL}`).get(id) as SessionListRow | undefined;
    if (!row) return undefined;
    const session = toViewerSession(row);
    const parent = session.parentId === null ? null
      : ((this.stmts.get('SELECT id, host_session_id AS hostSessionId FROM sessions WHERE id = ?').get(session.parentId) as
        { id: number; hostSessionId: string } | undefined) ?? null);
    const childIds = depth >= 2 ? [] : (this.stmts
      .get(`SELECT s.id FROM sessions s WHERE s.parent_session_id = ? AND ${REAL} ORDER BY s.started_at, s.id`)
      .pluck().all(id) as number[]);
    return {
      session, parent, items: this.items(id), summary: this.summary(id),
      children: childIds.flatMap((c) => this.session(c, depth + 1) ?? []),
    };
  }

  private items(sessionId: number): ViewerItem[] {
    const prompts = this.stmts
      .get(`SELECT id, number, text, created_at FROM prompts WHERE session_id = ? AND private = 0 ORDER BY id LIMIT ${MAX_ITEMS}`)
      .all(sessionId) as { id: number; number: number; text: string; created_at: string }[];
    const observations = this.stmts
      .get(`SELECT ${OBSERVATION_COLUMNS} FROM observations o JOIN sessions s ON s.id = o.session_id
        WHERE o.session_id = ? ORDER BY o.id LIMIT ${MAX_ITEMS}`)
      .all(sessionId) as ObservationDbRow[];
    const replies = this.stmts
      .get(`SELECT id, prompt_number, text, created_at FROM assistant_messages WHERE session_id = ? ORDER BY id LIMIT ${MAX_ITEMS}`)
      .all(sessionId) as { id: number; prompt_number: number | null; text: string; created_at: string }[];
    const items: ViewerItem[] = [
      ...prompts.map((p): ViewerItem => ({ kind: 'prompt', id: p.id, number: p.number, text: p.text, createdAt: p.created_at })),
      ...observations.map((o): ViewerItem => ({ kind: 'observation', id: o.id, observation: toObservation(o), createdAt: o.created_at })),
      ...replies.map((a): ViewerItem => ({ kind: 'assistant', id: a.id, promptNumber: a.prompt_number, text: a.text, createdAt: a.created_at })),
    ];
    const order = { prompt: 0, observation: 1, assistant: 2 } as const;
    return items.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || order[a.kind] - order[b.kind] || a.id - b.id);
  }

  private summary(sessionId: number): ViewerSummary | null {
    const r = this.stmts
      .get('SELECT id, request, outcome, text, files_read, files_modified, commands, created_at FROM summaries WHERE session_id = ?')
      .get(sessionId) as { id: number; request: string; outcome: string; text: string; files_read: string; files_modified: string; commands: string; created_at: string } | undefined;
    if (!r) return null;
    const list = (s: string): string[] => {
      try {
        const v: unknown = JSON.parse(s);
        return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
      } catch {
        return [];
      }
    };
    return {
      id: r.id, request: r.request, outcome: r.outcome, text: r.text, filesRead: list(r.files_read),
      filesModified: list(r.files_modified), commands: list(r.commands), createdAt: r.created_at,
    };
  }

  /** The highest ids now: a live reader starts from here. */
  cursor(): FeedCursor {
    const max = (table: string): number => (this.stmts.get(`SELECT coalesce(max(id), 0) FROM ${table}`).pluck().get() as number);
    return { observation: max('observations'), prompt: max('prompts'), summary: max('summaries') };
  }

  /**
   * The newest rows (no cursor), or the rows stored after `after`, newest first. Reads by id, the
   * storage order: no scan of a large table.
   */
  feed(after?: FeedCursor, limit?: number): FeedRow[] {
    const n = clampLimit(limit, 50, MAX_FEED);
    const from = after ?? { observation: 0, prompt: 0, summary: 0 };
    const obs = (this.stmts
      .get(`SELECT ${OBSERVATION_COLUMNS} FROM observations o JOIN sessions s ON s.id = o.session_id
        WHERE o.id > ? AND ${REAL} ORDER BY o.id DESC LIMIT ?`)
      .all(from.observation, n) as ObservationDbRow[]).map(toObservation);
    const prompts = this.stmts
      .get(`SELECT p.id, p.session_id, s.host, s.host_session_id, s.project, p.number, p.text, p.created_at
        FROM prompts p JOIN sessions s ON s.id = p.session_id
        WHERE p.id > ? AND p.private = 0 AND ${REAL} ORDER BY p.id DESC LIMIT ?`)
      .all(from.prompt, n) as { id: number; session_id: number; host: string; host_session_id: string; project: string; number: number; text: string; created_at: string }[];
    const summaries = this.stmts
      .get(`SELECT m.id, m.session_id, s.host, s.host_session_id, s.project, m.request, m.outcome, m.files_modified, m.created_at
        FROM summaries m JOIN sessions s ON s.id = m.session_id
        WHERE m.id > ? AND ${REAL} ORDER BY m.id DESC LIMIT ?`)
      .all(from.summary, n) as { id: number; session_id: number; host: string; host_session_id: string; project: string; request: string; outcome: string; files_modified: string; created_at: string }[];
    const rows: FeedRow[] = [
      ...obs.map((o): FeedRow => ({
        kind: 'observation', id: o.id, sessionId: o.sessionId, host: o.host, hostSessionId: o.hostSessionId, project: o.project,
        type: o.type, title: o.title, text: o.narrative, files: [...o.filesModified, ...o.filesRead], createdAt: o.createdAt,
      })),
      ...prompts.map((p): FeedRow => ({
        kind: 'prompt', id: p.id, sessionId: p.session_id, host: p.host as HostId, hostSessionId: p.host_session_id, project: p.project,
        type: 'prompt', title: `Prompt ${p.number}`, text: p.text, files: [], createdAt: p.created_at,
      })),
      ...summaries.map((m): FeedRow => ({
        kind: 'summary', id: m.id, sessionId: m.session_id, host: m.host as HostId, hostSessionId: m.host_session_id, project: m.project,
        type: 'summary', title: 'Session summary', text: [m.request, m.outcome].filter(Boolean).join('\n'), files: [], createdAt: m.created_at,
      })),
    ];
    return rows.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id).slice(0, n);
  }
}
