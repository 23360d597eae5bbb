/**
 * Search over observations, prompts and summaries: FTS5 BM25 for words, newest first for an
 * empty query. Ranking runs on ids only; titles, snippets and sessions are fetched for the few
 * rows returned, so the cost stays flat as the tables grow.
 */
import type { HostId } from '../../shared/hosts.js';
import { StoreError } from './errors.js';
import { parseQuery, phraseToFts, type QueryPhrase } from './fts-query.js';
import { isoTime, parseList } from './rows.js';
import { makeSnippet } from './snippet.js';
import { fileTag, hostTag, projectTag, queryFileSuffixes, typeTag } from './tags.js';
import type { StatementCache } from './statements.js';
import type { SearchHit, SearchQuery } from './types.js';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 200;
const MAX_OFFSET = 10_000;
const MAX_SNIPPET_CHARS = 300;
// Ranking scores every match; past this many, only the newest matches are ranked.
const RANK_WINDOW = 2000;

const TABLES = {
  observation: { table: 'observations', fts: 'observations_fts', alias: 'o' },
  prompt: { table: 'prompts', fts: 'prompts_fts', alias: 'p' },
  summary: { table: 'summaries', fts: 'summaries_fts', alias: 'm' },
} as const;
// Text columns, for the rare user word that could collide with a filter tag (see userExpression).
const TEXT_COLUMNS = {
  observation: '{title subtitle narrative facts concepts files_read files_modified}',
  prompt: '{text}',
  summary: '{text}',
} as const;
// Same weights as the 'rank' configured in migrations.ts.
const BM25 = {
  observation: 'bm25(observations_fts, 8.0, 3.0, 1.0, 1.5, 3.0, 3.0, 3.0, 0.0)',
  prompt: 'bm25(prompts_fts, 1.0, 0.0)',
  summary: 'bm25(summaries_fts, 1.0, 0.0)',
} as const;

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

/**
 * The user's words as an FTS5 expression. Column filters make BM25 several times slower, so only
 * words that could meet a filter tag (they start with z) are confined to the text columns.
 */
function userExpression(kind: Kind, phrases: QueryPhrase[]): string | null {
  if (!phrases.length) return null;
  return phrases.map((p) => (/^z/i.test(p.tokens[0]) ? `${TEXT_COLUMNS[kind]} : ${phraseToFts(p)}` : phraseToFts(p))).join(' ');
}

/** JSON string arrays (facts, concepts, files) as plain text for snippets. */
const words = (json: string | null): string | null => (json ? parseList(json).join('; ') || null : null);

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
    const phrases = parseQuery(typeof q.query === 'string' ? q.query : '');
    const kinds = this.kindsFor(f);
    const want = offset + limit;

    const candidates: Candidate[] = [];
    for (const kind of kinds) candidates.push(...this.candidates(kind, userExpression(kind, phrases), f, want));
    const match = phrases.length > 0;
    candidates.sort(match
      ? (a, b) => a.score - b.score || b.id - a.id
      : (a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
    return this.hydrate(candidates.slice(offset, offset + limit), phrases);
  }

  /** Which tables a query can reach: a file filter or an observation type means observations only. */
  private kindsFor(f: Filters): Kind[] {
    if (f.type === 'prompt') return f.file ? [] : ['prompt'];
    if (f.type === 'summary') return f.file ? [] : ['summary'];
    if (f.type || f.file) return ['observation'];
    return ['observation', 'prompt', 'summary'];
  }

  private candidates(kind: Kind, match: string | null, f: Filters, want: number): Candidate[] {
    const { table, fts, alias: t } = TABLES[kind];
    // Filters on indexed words: host, project, observation type, file.
    const tagTerms: string[] = [];
    if (f.project) tagTerms.push(`"${projectTag(f.project)}"`);
    if (f.host) tagTerms.push(`"${hostTag(f.host)}"`);
    if (kind === 'observation' && f.type) tagTerms.push(`"${typeTag(f.type)}"`);
    if (kind === 'observation' && f.file) {
      const suffixes = queryFileSuffixes(f.file);
      if (!suffixes.length) return [];
      tagTerms.push(`(${suffixes.map((x) => `"${fileTag(x)}"`).join(' OR ')})`);
    }
    // Time bounds need the row itself.
    const timeWhere: string[] = [];
    const timeParams: string[] = [];
    if (f.since) (timeWhere.push(`${t}.created_at >= ?`), timeParams.push(f.since));
    if (f.until) (timeWhere.push(`${t}.created_at <= ?`), timeParams.push(f.until));

    // Without words, project and time filters have indexes of their own; host, type and file
    // filters are found through the tags.
    const onlyIndexed = !f.host && !(kind === 'observation' && (f.type || f.file));
    if (!match && onlyIndexed) return this.recent(kind, f, timeWhere, timeParams, want);

    const expr = [
      ...(match ? [match] : []),
      ...tagTerms.map((x) => `tags : ${x}`),
    ].join(' AND ');
    const from = timeWhere.length ? `${fts} JOIN ${table} ${t} ON ${t}.id = ${fts}.rowid` : fts;
    const timeSql = timeWhere.map((w) => ` AND ${w}`).join('');

    if (!match) {
      // Filters only: the newest rows by insertion order (rowid), a close match for time order.
      const rows = this.stmts
        .get(`SELECT ${fts}.rowid AS id, ${t}.created_at AS createdAt FROM ${fts} JOIN ${table} ${t} ON ${t}.id = ${fts}.rowid
          WHERE ${fts} MATCH ?${timeSql}${kind === 'prompt' ? ' AND p.private = 0' : ''} ORDER BY ${fts}.rowid DESC LIMIT ?`)
        .all(expr, ...timeParams, want) as { id: number; createdAt: string }[];
      return rows.map((r) => ({ kind, id: r.id, score: 0, createdAt: r.createdAt }));
    }

    // BM25 needs every match scored; on very common words, score only the newest RANK_WINDOW.
    let floor: number | null = null;
    if (want * 4 <= RANK_WINDOW) {
      const r = this.stmts
        .get(`SELECT ${fts}.rowid AS id FROM ${from} WHERE ${fts} MATCH ?${timeSql}
          ORDER BY ${fts}.rowid DESC LIMIT 1 OFFSET ${RANK_WINDOW - 1}`)
        .get(expr, ...timeParams) as { id: number } | undefined;
      floor = r?.id ?? null;
    }
    const rows = this.stmts
      .get(`SELECT ${fts}.rowid AS id, ${BM25[kind]} AS score FROM ${from}
        WHERE ${fts} MATCH ?${timeSql}${floor === null ? '' : ` AND ${fts}.rowid >= ?`}
        ORDER BY score LIMIT ?`)
      .all(expr, ...timeParams, ...(floor === null ? [] : [floor]), want) as { id: number; score: number }[];
    return rows.map((r) => ({ kind, id: r.id, score: r.score, createdAt: '' }));
  }

  /** No words, no tag filters: the newest rows through the (project, created_at) indexes. */
  private recent(kind: Kind, f: Filters, timeWhere: string[], timeParams: string[], want: number): Candidate[] {
    const { table, alias: t } = TABLES[kind];
    const where: string[] = [];
    const params: unknown[] = [];
    if (kind === 'prompt') where.push('p.private = 0');
    if (f.project) (where.push(`${t}.project = ?`), params.push(f.project));
    where.push(...timeWhere);
    params.push(...timeParams);
    // Observations have no time index across projects: storage order stands in for time there.
    const order = kind === 'observation' && !f.project ? 'o.id DESC' : `${t}.created_at DESC, ${t}.id DESC`;
    const sql = `SELECT ${t}.id AS id, ${t}.created_at AS createdAt FROM ${table} ${t}
      ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY ${order} LIMIT ?`;
    const rows = this.stmts.get(sql).all(...params, want) as { id: number; createdAt: string }[];
    return rows.map((r) => ({ kind, id: r.id, score: 0, createdAt: r.createdAt }));
  }

  /** Titles, sessions and snippets for the page being returned. */
  private hydrate(page: Candidate[], phrases: QueryPhrase[]): SearchHit[] {
    return page.flatMap((c): SearchHit[] => {
      const row = this.stmts.get(DETAIL_SQL[c.kind]).get(c.id) as DetailRow | undefined;
      if (!row) return [];
      const fields = [row.title, row.f1, row.f2, words(row.f3), words(row.f4), words(row.f5), words(row.f6)];
      const snippet = (phrases.length ? makeSnippet(fields, phrases) : null) ?? row.f1 ?? row.title;
      return [{
        kind: c.kind,
        id: c.id,
        title: clip(row.title || '(untitled)', 200),
        snippet: clip(snippet ?? '', MAX_SNIPPET_CHARS),
        host: row.host as HostId,
        project: row.project,
        hostSessionId: row.host_session_id,
        type: row.type,
        createdAt: row.created_at,
        score: c.score,
      }];
    });
  }
}

interface DetailRow {
  title: string;
  f1: string | null;
  f2: string | null;
  f3: string | null;
  f4: string | null;
  f5: string | null;
  f6: string | null;
  host: string;
  project: string;
  host_session_id: string;
  type: string;
  created_at: string;
}

// What a hit shows: its title and the text fields a snippet may come from (f1 is the fallback).
const DETAIL_SQL: Record<Kind, string> = {
  observation: `SELECT o.title, o.narrative AS f1, o.subtitle AS f2, o.facts AS f3, o.concepts AS f4,
      o.files_read AS f5, o.files_modified AS f6, o.host, o.project, s.host_session_id, o.type, o.created_at
    FROM observations o JOIN sessions s ON s.id = o.session_id WHERE o.id = ?`,
  prompt: `SELECT substr(p.text, 1, 400) AS title, p.text AS f1, NULL AS f2, NULL AS f3, NULL AS f4,
      NULL AS f5, NULL AS f6, p.host, p.project, s.host_session_id, 'prompt' AS type, p.created_at
    FROM prompts p JOIN sessions s ON s.id = p.session_id WHERE p.id = ?`,
  summary: `SELECT coalesce(nullif(m.request, ''), substr(m.text, 1, 400)) AS title, m.text AS f1,
      NULL AS f2, NULL AS f3, NULL AS f4, NULL AS f5, NULL AS f6, m.host, m.project, s.host_session_id, 'summary' AS type, m.created_at
    FROM summaries m JOIN sessions s ON s.id = m.session_id WHERE m.id = ?`,
};
