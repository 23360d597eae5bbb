/**
 * Search over observations, prompts and summaries: FTS5 BM25 for words, newest first for an
 * empty query. Ranking runs on ids only; titles, snippets and sessions are fetched for the few
 * rows returned, so the cost stays flat as the tables grow.
 */
import type { HostId } from '../../shared/hosts.js';
import { StoreError } from './errors.js';
import { toFtsQuery } from './fts-query.js';
import { isoTime } from './rows.js';
import type { StatementCache } from './statements.js';
import type { SearchHit, SearchQuery } from './types.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 200;
const MAX_OFFSET = 10_000;
const SNIPPET_TOKENS = 16;
const MAX_SNIPPET_CHARS = 300;
// Greater than any UTF-8 sequence: the exclusive upper bound of a prefix range.
const TOP = '\u{10FFFF}';

type Kind = SearchHit['kind'];

interface Candidate {
  kind: Kind;
  id: number;
  score: number;
  createdAt: string;
}

interface Filters {
  project?: string;
  host?: HostId;
  type?: string;
  since?: string;
  until?: string;
  file?: string;
}

const clip = (s: string, max: number): string => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? one.slice(0, max - 1) + '…' : one;
};
const reverse = (s: string): string => [...s].reverse().join('');

/** `2024-05-01` as `since` is that day's start, as `until` its end (UTC); times are taken as given. */
export function timeBound(value: string | undefined, edge: 'since' | 'until'): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T${edge === 'since' ? '00:00:00.000' : '23:59:59.999'}Z`;
  const iso = isoTime(value);
  if (!iso) throw new StoreError('invalid_input', `${edge} must be an ISO date or time, got ${JSON.stringify(value)}`);
  return iso;
}

function clampInt(v: number | undefined, dflt: number, min: number, max: number): number {
  if (v === undefined || !Number.isFinite(v)) return dflt;
  return Math.min(max, Math.max(min, Math.trunc(v)));
}

export class Searcher {
  constructor(private readonly stmts: StatementCache) {}

  search(q: SearchQuery): SearchHit[] {
    const limit = clampInt(q.limit, DEFAULT_LIMIT, 1, MAX_LIMIT);
    const offset = clampInt(q.offset, 0, 0, MAX_OFFSET);
    const f: Filters = {
      project: q.project || undefined,
      host: q.host || undefined,
      type: q.type || undefined,
      since: timeBound(q.since, 'since'),
      until: timeBound(q.until, 'until'),
      file: q.file?.trim() || undefined,
    };
    const match = toFtsQuery(q.query ?? '');
    const kinds = this.kindsFor(f);
    const want = offset + limit;

    const candidates: Candidate[] = [];
    for (const kind of kinds) candidates.push(...this.candidates(kind, match, f, want));
    candidates.sort(match
      ? (a, b) => a.score - b.score || b.createdAt.localeCompare(a.createdAt)
      : (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
    return this.hydrate(candidates.slice(offset, offset + limit), match);
  }

  /** Which tables a query can reach: a file filter or an observation type means observations only. */
  private kindsFor(f: Filters): Kind[] {
    if (f.type === 'prompt') return f.file ? [] : ['prompt'];
    if (f.type === 'summary') return f.file ? [] : ['summary'];
    if (f.type || f.file) return ['observation'];
    return ['observation', 'prompt', 'summary'];
  }

  private candidates(kind: Kind, match: string | null, f: Filters, want: number): Candidate[] {
    const t = { observation: 'o', prompt: 'p', summary: 'm' }[kind];
    const table = { observation: 'observations', prompt: 'prompts', summary: 'summaries' }[kind];
    const where: string[] = [];
    const params: unknown[] = [];
    if (kind === 'prompt') where.push('p.private = 0');
    if (f.project) (where.push(`${t}.project = ?`), params.push(f.project));
    if (f.host) (where.push(`${t}.host = ?`), params.push(f.host));
    if (kind === 'observation' && f.type) (where.push('o.type = ?'), params.push(f.type));
    if (f.since) (where.push(`${t}.created_at >= ?`), params.push(f.since));
    if (f.until) (where.push(`${t}.created_at <= ?`), params.push(f.until));
    if (kind === 'observation' && f.file) {
      // Exact path, or a suffix starting at a path separator ("store.ts" matches ".../store.ts").
      const exact = reverse(f.file);
      const suffix = reverse(f.file.startsWith('/') ? f.file : `/${f.file}`);
      where.push(`o.id IN (SELECT observation_id FROM observation_files
        WHERE rpath = ? OR (rpath >= ? AND rpath < ?))`);
      params.push(exact, suffix, suffix + TOP);
    }

    if (!match) {
      const sql = `SELECT ${t}.id AS id, ${t}.created_at AS createdAt FROM ${table} ${t}
        ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
        ORDER BY ${t}.created_at DESC, ${t}.id DESC LIMIT ?`;
      const rows = this.stmts.get(sql).all(...params, want) as { id: number; createdAt: string }[];
      return rows.map((r) => ({ kind, id: r.id, score: 0, createdAt: r.createdAt }));
    }

    const fts = `${table}_fts`;
    const sql = `SELECT ${fts}.rowid AS id, ${fts}.rank AS score, ${t}.created_at AS createdAt
      FROM ${fts} JOIN ${table} ${t} ON ${t}.id = ${fts}.rowid
      WHERE ${fts} MATCH ? ${where.map((w) => `AND ${w}`).join(' ')}
      ORDER BY ${fts}.rank LIMIT ?`;
    const rows = this.stmts.get(sql).all(match, ...params, want) as { id: number; score: number; createdAt: string }[];
    return rows.map((r) => ({ kind, id: r.id, score: r.score, createdAt: r.createdAt }));
  }

  /** Titles, sessions and snippets for the page being returned. */
  private hydrate(page: Candidate[], match: string | null): SearchHit[] {
    return page.flatMap((c): SearchHit[] => {
      const row = this.detail(c);
      if (!row) return [];
      const snippet = match ? this.snippet(c.kind, c.id, match) : null;
      return [{
        kind: c.kind,
        id: c.id,
        title: clip(row.title || '(untitled)', 200),
        snippet: clip(snippet || row.body || '', MAX_SNIPPET_CHARS),
        host: row.host as HostId,
        project: row.project,
        hostSessionId: row.host_session_id,
        type: row.type,
        createdAt: row.created_at,
        score: c.score,
      }];
    });
  }

  private detail(c: Candidate): { title: string; body: string; host: string; project: string; host_session_id: string; type: string; created_at: string } | undefined {
    const sql = {
      observation: `SELECT o.title, o.narrative AS body, o.host, o.project, s.host_session_id, o.type, o.created_at
        FROM observations o JOIN sessions s ON s.id = o.session_id WHERE o.id = ?`,
      prompt: `SELECT substr(p.text, 1, 400) AS title, substr(p.text, 1, 1000) AS body, p.host, p.project, s.host_session_id,
        'prompt' AS type, p.created_at FROM prompts p JOIN sessions s ON s.id = p.session_id WHERE p.id = ?`,
      summary: `SELECT coalesce(nullif(m.request, ''), substr(m.text, 1, 400)) AS title, substr(m.text, 1, 1000) AS body,
        m.host, m.project, s.host_session_id, 'summary' AS type, m.created_at
        FROM summaries m JOIN sessions s ON s.id = m.session_id WHERE m.id = ?`,
    }[c.kind];
    return this.stmts.get(sql).get(c.id) as ReturnType<Searcher['detail']>;
  }

  private snippet(kind: Kind, id: number, match: string): string | null {
    const fts = { observation: 'observations_fts', prompt: 'prompts_fts', summary: 'summaries_fts' }[kind];
    const sql = `SELECT snippet(${fts}, -1, '**', '**', '…', ${SNIPPET_TOKENS}) AS s FROM ${fts}
      WHERE ${fts} MATCH ? AND rowid = ?`;
    const r = this.stmts.get(sql).get(match, id) as { s: string | null } | undefined;
    return r?.s ?? null;
  }
}
