/**
 * The rows a search ranks: per kind (observations, prompts, assistant messages, summaries), the
 * best BM25 matches of the query within the kind's rowid range of memory_fts, filters applied as
 * tag words. Ids and scores only; search-results.ts fetches what is shown.
 *
 * BM25 must score every match, about 0.4 µs a row. When a kind has more than WINDOW matches, the
 * newest WINDOW are scored with every term, and the rare terms (at most RARE matches each) are
 * scored over all rows: an old row that holds a rare word of the query is still found, while the
 * common words that make the match list long carry little weight anyway.
 */
import type { HostId } from '../shared/hosts.js';
import { termToFts, toFtsExpression, type ParsedQuery, type QueryTerm } from './fts-query.js';
import { FTS_TABLE, KIND_BASE, KIND_SPAN, TEXT_COLUMNS, type IndexedKind } from './search-layout.js';
import type { StatementCache } from './statements.js';
import { fileTag, hostTag, projectTag, queryFileSuffixes, typeTag } from './tags.js';

const WINDOW = 1000;
const RARE = 2000;
/**
 * A word with more matches than this is not also searched as a prefix: it finds plenty as it is,
 * and BM25 of a prefix reads the whole posting list of every word it covers (the largest cost of
 * a search at 100,000 rows). Prefixes are for words that are rare or absent (`auth`, `migr`).
 */
const PREFIX_WHEN_AT_MOST = 500;

/** Column weights per kind: head, body, files, extra (compound words), tags. */
const BM25: Readonly<Record<IndexedKind, string>> = {
  observation: `bm25(${FTS_TABLE}, 3.0, 1.0, 2.0, 0.5, 0.0)`,
  prompt: `bm25(${FTS_TABLE}, 1.0, 1.0, 1.0, 0.5, 0.0)`,
  assistant: `bm25(${FTS_TABLE}, 1.0, 1.0, 1.0, 0.5, 0.0)`,
  summary: `bm25(${FTS_TABLE}, 1.5, 1.0, 1.0, 0.5, 0.0)`,
};

export const SOURCE_TABLE: Readonly<Record<IndexedKind, string>> = {
  observation: 'observations', prompt: 'prompts', assistant: 'assistant_messages', summary: 'summaries',
};

export interface Filters {
  project?: string;
  host?: HostId;
  type?: string;
  since?: string;
  until?: string;
  file?: string;
}

export interface Candidate {
  kind: IndexedKind;
  id: number;
  /** Text relevance, higher is better (minus SQLite's BM25); 0 without query words. */
  score: number;
}

interface Plan {
  kind: IndexedKind;
  tags: string[];
  timeSql: string;
  timeParams: string[];
  from: string;
  lo: number;
  hi: number;
}

/** The `want` best candidates, best first (newest first among equals). */
function top(list: Candidate[], want: number): Candidate[] {
  return list.length <= want ? list : [...list].sort((a, b) => b.score - a.score || b.id - a.id).slice(0, want);
}

export class CandidateFinder {
  constructor(private readonly stmts: StatementCache) {}

  /** Which kinds a query can reach: an observation type or a file filter means observations only. */
  kindsFor(f: Filters): IndexedKind[] {
    if (f.type === 'prompt' || f.type === 'summary' || f.type === 'assistant') return f.file ? [] : [f.type];
    if (f.type || f.file) return ['observation'];
    return ['observation', 'prompt', 'assistant', 'summary'];
  }

  /** The query as searched: automatic prefixes dropped from words that are common on their own. */
  prepare(q: ParsedQuery, autoPrefix = true): ParsedQuery {
    const terms = q.terms.map((t): QueryTerm => {
      const exact = t.alts.filter((a) => !a.auto);
      if (exact.length === t.alts.length || !exact.length) return t;
      if (!autoPrefix) return { ...t, alts: exact };
      const common = this.matches(toFtsExpression([{ ...t, alts: exact }], TEXT_COLUMNS), PREFIX_WHEN_AT_MOST + 1) > PREFIX_WHEN_AT_MOST;
      return common ? { ...t, alts: exact } : t;
    });
    return { ...q, terms };
  }

  /** Rows of any kind matching `expr`, counted up to `cap`. */
  private matches(expr: string | null, cap: number): number {
    if (!expr) return 0;
    return (this.stmts.get(`SELECT count(*) AS n FROM (SELECT 1 FROM ${FTS_TABLE} WHERE ${FTS_TABLE} MATCH ? LIMIT ${cap})`).get(expr) as { n: number }).n;
  }

  find(kind: IndexedKind, q: ParsedQuery, f: Filters, want: number): Candidate[] {
    const plan = this.plan(kind, f);
    if (!plan) return [];
    const expr = toFtsExpression(q.terms, TEXT_COLUMNS);
    if (!expr) {
      // Project and time filters have indexes of their own; host, type and file go through the tags.
      if (f.host || (kind === 'observation' && (f.type || f.file))) return this.newestTagged(plan, want);
      // A reply is not news on its own: recent sessions show through their prompts and tool calls.
      return kind === 'assistant' ? [] : this.newest(kind, f, want);
    }
    const full = this.withTags(expr, plan);
    const newest = this.window(full, plan);
    if (newest.length < WINDOW) return top(newest, want);
    const found = new Map<number, Candidate>();
    for (const c of top(newest, want)) found.set(c.id, c);
    const rare = this.rareExpression(q.terms, plan);
    if (rare) for (const c of this.ranked(rare, plan, want)) if (!found.has(c.id)) found.set(c.id, c);
    return [...found.values()];
  }

  private plan(kind: IndexedKind, f: Filters): Plan | null {
    const tags: string[] = [];
    if (f.project) tags.push(`"${projectTag(f.project)}"`);
    if (f.host) tags.push(`"${hostTag(f.host)}"`);
    if (kind === 'observation' && f.type) tags.push(`"${typeTag(f.type)}"`);
    if (kind === 'observation' && f.file) {
      const suffixes = queryFileSuffixes(f.file);
      if (!suffixes.length) return null;
      tags.push(`(${suffixes.map((x) => `"${fileTag(x)}"`).join(' OR ')})`);
    }
    const timeWhere: string[] = [];
    const timeParams: string[] = [];
    if (f.since) (timeWhere.push('r.created_at >= ?'), timeParams.push(f.since));
    if (f.until) (timeWhere.push('r.created_at <= ?'), timeParams.push(f.until));
    const base = KIND_BASE[kind];
    const from = timeWhere.length ? `${FTS_TABLE} JOIN ${SOURCE_TABLE[kind]} r ON r.id = ${FTS_TABLE}.rowid - ${base}` : FTS_TABLE;
    return {
      kind, tags, timeParams, from, lo: base + 1, hi: base + KIND_SPAN - 1,
      timeSql: timeWhere.map((w) => ` AND ${w}`).join(''),
    };
  }

  private withTags(expr: string, p: Plan): string {
    return [expr, ...p.tags.map((t) => `tags : ${t}`)].join(' AND ');
  }

  private where(p: Plan): string {
    return `${FTS_TABLE} MATCH ? AND ${FTS_TABLE}.rowid BETWEEN ${p.lo} AND ${p.hi}${p.timeSql}`;
  }

  private count(expr: string, p: Plan, cap: number): number {
    return (this.stmts.get(`SELECT count(*) AS n FROM (SELECT 1 FROM ${p.from} WHERE ${this.where(p)} LIMIT ${cap})`)
      .get(expr, ...p.timeParams) as { n: number }).n;
  }

  /** The newest WINDOW matches with their scores (all of them when there are fewer). */
  private window(expr: string, p: Plan): Candidate[] {
    const rows = this.stmts.get(`SELECT ${FTS_TABLE}.rowid AS id, ${BM25[p.kind]} AS score FROM ${p.from}
      WHERE ${this.where(p)} ORDER BY ${FTS_TABLE}.rowid DESC LIMIT ${WINDOW}`).all(expr, ...p.timeParams) as { id: number; score: number }[];
    return this.candidates(p.kind, rows);
  }

  private ranked(expr: string, p: Plan, want: number): Candidate[] {
    const rows = this.stmts.get(`SELECT ${FTS_TABLE}.rowid AS id, ${BM25[p.kind]} AS score FROM ${p.from}
      WHERE ${this.where(p)} ORDER BY score LIMIT ?`).all(expr, ...p.timeParams, want) as { id: number; score: number }[];
    return this.candidates(p.kind, rows);
  }

  private candidates(kind: IndexedKind, rows: { id: number; score: number }[]): Candidate[] {
    const base = KIND_BASE[kind];
    return rows.map((r) => ({ kind, id: r.id - base, score: -r.score }));
  }

  /** The optional terms with few matches (and the required ones), or null when none is rare. */
  private rareExpression(terms: readonly QueryTerm[], p: Plan): string | null {
    const rare = terms.filter((t) => !t.required && this.count(this.withTags(termToFts(t, TEXT_COLUMNS), p), p, RARE + 1) <= RARE);
    if (!rare.length) return null;
    const expr = toFtsExpression([...terms.filter((t) => t.required), ...rare], TEXT_COLUMNS);
    return expr ? this.withTags(expr, p) : null;
  }

  /** Filter words only: the newest tagged rows by insertion order (rowid). */
  private newestTagged(p: Plan, want: number): Candidate[] {
    const rows = this.stmts.get(`SELECT ${FTS_TABLE}.rowid AS id FROM ${p.from} WHERE ${this.where(p)}
      ORDER BY ${FTS_TABLE}.rowid DESC LIMIT ?`).all(p.tags.map((t) => `tags : ${t}`).join(' AND '), ...p.timeParams, want) as { id: number }[];
    const base = KIND_BASE[p.kind];
    return rows.map((r) => ({ kind: p.kind, id: r.id - base, score: 0 }));
  }

  /** No words, no tag filter but the project: the newest rows through the tables' own indexes. */
  private newest(kind: IndexedKind, f: Filters, want: number): Candidate[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (kind === 'prompt') where.push('r.private = 0');
    if (f.project) (where.push('r.project = ?'), params.push(f.project));
    if (f.since) (where.push('r.created_at >= ?'), params.push(f.since));
    if (f.until) (where.push('r.created_at <= ?'), params.push(f.until));
    // Observations have no time index across projects: storage order stands in for time there.
    const order = kind === 'observation' && !f.project ? 'r.id DESC' : 'r.created_at DESC, r.id DESC';
    const rows = this.stmts.get(`SELECT r.id FROM ${SOURCE_TABLE[kind]} r ${where.length ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY ${order} LIMIT ?`).all(...params, want) as { id: number }[];
    return rows.map((r) => ({ kind, id: r.id, score: 0 }));
  }
}
