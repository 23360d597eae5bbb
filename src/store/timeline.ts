/**
 * The story around a moment: prompts, observations, summaries and session starts/ends in time
 * order, centred on an observation or on the newest item of a session or project.
 * Each kind is read with its own indexed, LIMITed query and the results are merged here.
 */
import type { HostId } from '../shared/hosts.js';
import type { StatementCache } from './statements.js';
import type { TimelineItem, TimelineQuery } from './types.js';

type Kind = TimelineItem['kind'];
// Order of kinds at the same instant: a session starts, is prompted, works, is summarized, ends.
const KIND_ORDER: Record<Kind, number> = { session_start: 0, prompt: 1, observation: 2, summary: 3, session_end: 4 };
const MAX_SIDE = 100;

interface Row {
  id: number;
  title: string;
  host: string;
  host_session_id: string;
  project: string;
  created_at: string;
}

/** Per kind: the time column, the FROM clause and the title expression. */
const SOURCES: Record<Kind, { time: string; from: string; title: string; session: string; project: string }> = {
  observation: {
    time: 'o.created_at', from: 'observations o JOIN sessions s ON s.id = o.session_id', title: 'o.title',
    session: 'o.session_id', project: 'o.project',
  },
  prompt: {
    time: 'p.created_at', from: 'prompts p JOIN sessions s ON s.id = p.session_id',
    title: `'Prompt #' || p.number || ': ' || CASE WHEN p.private = 1 THEN '(private)' ELSE substr(p.text, 1, 200) END`,
    session: 'p.session_id', project: 'p.project',
  },
  summary: {
    time: 'm.created_at', from: 'summaries m JOIN sessions s ON s.id = m.session_id',
    title: `'Summary: ' || coalesce(nullif(m.request, ''), substr(m.text, 1, 200))`,
    session: 'm.session_id', project: 'm.project',
  },
  session_start: {
    time: 's.started_at', from: 'sessions s', title: `'Session started (' || s.host || ')'`,
    session: 's.id', project: 's.project',
  },
  session_end: {
    time: 's.ended_at', from: 'sessions s', title: `'Session ended' || coalesce(' (' || s.end_reason || ')', '')`,
    session: 's.id', project: 's.project',
  },
};

// Every read is scoped: observations have no time index across projects (see migrations.ts).
type Scope = { sessionIds: number[] } | { project: string } | null;

const clampSide = (v: number | undefined): number =>
  v === undefined || !Number.isFinite(v) ? 5 : Math.min(MAX_SIDE, Math.max(0, Math.trunc(v)));
const sortKey = (a: TimelineItem, b: TimelineItem): number =>
  a.createdAt.localeCompare(b.createdAt) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.id - b.id;

export class Timeline {
  constructor(private readonly stmts: StatementCache) {}

  timeline(q: TimelineQuery): TimelineItem[] {
    const before = clampSide(q.before);
    const after = clampSide(q.after);
    let scope: Scope = null;
    if (q.hostSessionId) {
      const rows = this.stmts
        .get(`SELECT id FROM sessions WHERE host_session_id = @sid AND (@host IS NULL OR host = @host)`)
        .all({ sid: q.hostSessionId, host: q.host ?? null }) as { id: number }[];
      if (!rows.length) return [];
      scope = { sessionIds: rows.map((r) => r.id) };
    } else if (q.project) {
      scope = { project: q.project };
    } else if (q.anchorId === undefined) {
      // Nothing named: the story of the project worked on most recently.
      const newest = this.stmts
        .get(`SELECT project FROM (SELECT project, id FROM observations ORDER BY id DESC LIMIT 1)
          UNION ALL SELECT project FROM (SELECT project FROM sessions ORDER BY id DESC LIMIT 1) LIMIT 1`)
        .get() as { project: string } | undefined;
      if (!newest) return [];
      scope = { project: newest.project };
    }

    let anchor: TimelineItem | undefined;
    if (q.anchorId !== undefined) {
      anchor = this.read('observation', scope, null, 'anchor', 1, q.anchorId)[0];
      if (!anchor) return [];
      // An anchor alone names its project: show that project's story around it.
      scope ??= { project: anchor.project };
    } else {
      anchor = (Object.keys(SOURCES) as Kind[])
        .flatMap((k) => this.read(k, scope, null, 'before', 1))
        .sort(sortKey)
        .pop();
      if (!anchor) return [];
    }

    const items = new Map<string, TimelineItem>();
    for (const kind of Object.keys(SOURCES) as Kind[]) {
      for (const it of this.read(kind, scope, anchor.createdAt, 'before', before + 1)) items.set(`${it.kind}:${it.id}`, it);
      for (const it of this.read(kind, scope, anchor.createdAt, 'after', after + 1)) items.set(`${it.kind}:${it.id}`, it);
    }
    items.set(`${anchor.kind}:${anchor.id}`, anchor);
    const sorted = [...items.values()].sort(sortKey);
    const at = sorted.findIndex((it) => it.kind === anchor.kind && it.id === anchor.id);
    return sorted.slice(Math.max(0, at - before), at + after + 1);
  }

  /** Up to `limit` items of one kind at or before/after `time` (or the one with id `anchorId`). */
  private read(kind: Kind, scope: Scope, time: string | null, dir: 'before' | 'after' | 'anchor', limit: number, anchorId?: number): TimelineItem[] {
    const src = SOURCES[kind];
    const where: string[] = [`${src.time} IS NOT NULL`];
    const params: unknown[] = [];
    if (kind === 'prompt') where.push('p.private = 0');
    // The synthetic sessions holding saved memories have no start or end worth showing.
    if (kind === 'session_start' || kind === 'session_end') where.push(`s.host_session_id NOT LIKE 'manual:%'`);
    if (scope && 'sessionIds' in scope) {
      where.push(`${src.session} IN (SELECT value FROM json_each(?))`);
      params.push(JSON.stringify(scope.sessionIds));
    } else if (scope) {
      where.push(`${src.project} = ?`);
      params.push(scope.project);
    }
    if (dir === 'anchor') {
      where.push('o.id = ?');
      params.push(anchorId);
    } else if (time !== null) {
      where.push(`${src.time} ${dir === 'before' ? '<=' : '>='} ?`);
      params.push(time);
    }
    const order = dir === 'after' ? 'ASC' : 'DESC';
    const idCol = kind.startsWith('session') ? 's.id' : `${src.session.split('.')[0]}.id`;
    const sql = `SELECT ${idCol} AS id, ${src.title} AS title, s.host AS host, s.host_session_id AS host_session_id,
        ${src.project} AS project, ${src.time} AS created_at
      FROM ${src.from} WHERE ${where.join(' AND ')} ORDER BY ${src.time} ${order}, ${idCol} ${order} LIMIT ?`;
    const rows = this.stmts.get(sql).all(...params, limit) as Row[];
    return rows.map((r) => ({
      kind, id: r.id, title: r.title, host: r.host as HostId, hostSessionId: r.host_session_id,
      project: r.project, createdAt: r.created_at,
    }));
  }
}
