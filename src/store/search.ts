/**
 * Search: a question or a few words in, the sessions that answer it out, ranked, each with the
 * request, the outcome and the matching rows as evidence. Candidates are found per kind of row
 * (search-candidates.ts), grouped into turns and sessions and ranked (search-rank.ts), and only
 * the page returned is read in full (search-results.ts), so the cost stays flat as memory grows.
 * See docs/search.md.
 */
import { StoreError } from './errors.js';
import { hasExactPhrases, parseQuery, type ParsedQuery, type QueryOptions } from './fts-query.js';
import { isoTime, parseList } from './rows.js';
import { CandidateFinder, SOURCE_TABLE, type Candidate, type Filters } from './search-candidates.js';
import type { IndexedKind } from './search-layout.js';
import { DEFAULT_WEIGHTS, rankSessions, touchedKeys, type RankedRow, type RankWeights } from './search-rank.js';
import { ResultBuilder } from './search-results.js';
import type { StatementCache } from './statements.js';
import type { SearchAnswer, SearchQuery } from './types.js';

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 200;
const MAX_OFFSET = 10_000;
/** Rows ranked per kind for each session asked for. */
const ROWS_PER_RESULT = 6;
const MIN_ROWS = 60;
const MAX_ROWS = 1500;
const TOUCHED_FILES_ROWS = 200;

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

// Where a row belongs (session and turn) and the text the exact-phrase check reads.
const META_SQL: Record<IndexedKind, { turn: string; text: string; files: string }> = {
  observation: {
    turn: 'r.prompt_number',
    text: `r.title || ' ' || coalesce(r.subtitle, '') || ' ' || r.narrative || ' ' || r.facts || ' ' || r.concepts || ' ' || r.files_read || ' ' || r.files_modified`,
    files: 'r.files_modified AS files, r.files_read AS filesRead',
  },
  prompt: { turn: 'r.number', text: 'r.text', files: `'[]' AS files, '[]' AS filesRead` },
  assistant: { turn: 'r.prompt_number', text: 'r.text', files: `'[]' AS files, '[]' AS filesRead` },
  summary: { turn: 'NULL', text: `r.request || ' ' || r.text`, files: 'r.files_modified AS files, r.files_read AS filesRead' },
};

interface MetaRow {
  id: number;
  sessionId: number;
  promptNumber: number | null;
  createdAt: string;
  files: string;
  filesRead: string;
  text: string | null;
}

/** How a search reads queries and weighs its signals: the defaults, or one signal off to measure it (bench:recall). */
export interface SearchTuning {
  query: QueryOptions & { autoPrefix?: boolean };
  weights: Readonly<RankWeights>;
}

export const DEFAULT_TUNING: Readonly<SearchTuning> = { query: {}, weights: DEFAULT_WEIGHTS };

export class Searcher {
  private readonly finder: CandidateFinder;

  constructor(
    private readonly stmts: StatementCache,
    private readonly now: () => Date = () => new Date(),
    private readonly tuning: Readonly<SearchTuning> = DEFAULT_TUNING,
  ) {
    this.finder = new CandidateFinder(stmts);
  }

  search(q: SearchQuery): SearchAnswer {
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
    const parsed = this.finder.prepare(parseQuery(typeof q.query === 'string' ? q.query : '', this.tuning.query), this.tuning.query.autoPrefix !== false);
    const touched = this.touchedFiles(q);
    const first = this.ranked(parsed, f, offset + limit, touched);
    let sessions = first;
    let widened = false;
    if (!first.length && f.project && q.widen) {
      sessions = this.ranked(parsed, { ...f, project: undefined }, offset + limit, touched);
      widened = sessions.length > 0;
    }
    const builder = new ResultBuilder(this.stmts, parsed);
    const results = sessions.slice(offset, offset + limit).flatMap((s) => builder.build(s) ?? []);
    return { results, project: widened ? null : f.project ?? null, widened };
  }

  private ranked(parsed: ParsedQuery, f: Filters, want: number, touched: Set<string>) {
    const rows = Math.min(MAX_ROWS, Math.max(MIN_ROWS, want * ROWS_PER_RESULT));
    const ranked: RankedRow[] = [];
    for (const kind of this.finder.kindsFor(f)) ranked.push(...this.withMeta(kind, this.finder.find(kind, parsed, f, rows), parsed));
    return rankSessions(ranked, { relevance: parsed.terms.length > 0, now: this.now().getTime(), touched, weights: this.tuning.weights });
  }

  /** Session, turn and time of each candidate; quoted phrases are checked word for word here. */
  private withMeta(kind: IndexedKind, found: Candidate[], parsed: ParsedQuery): RankedRow[] {
    if (!found.length) return [];
    const m = META_SQL[kind];
    const exact = parsed.exact.length > 0;
    const rows = this.stmts.get(`SELECT r.id, r.session_id AS sessionId, ${m.turn} AS promptNumber, r.created_at AS createdAt,
        ${m.files}, ${exact ? m.text : 'NULL'} AS text
      FROM ${SOURCE_TABLE[kind]} r WHERE r.id IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(found.map((c) => c.id))) as MetaRow[];
    const byId = new Map(rows.map((r) => [r.id, r]));
    return found.flatMap((c): RankedRow[] => {
      const r = byId.get(c.id);
      if (!r || (exact && !hasExactPhrases(r.text ?? '', parsed.exact))) return [];
      return [{
        kind, id: c.id, score: c.score, sessionId: r.sessionId, promptNumber: r.promptNumber, createdAt: r.createdAt,
        files: [...parseList(r.files), ...parseList(r.filesRead)],
      }];
    });
  }

  /** Files the asking session read or changed, for the files signal. */
  private touchedFiles(q: SearchQuery): Set<string> {
    if (!q.hostSessionId) return new Set();
    const rows = this.stmts.get(`SELECT o.files_read AS r, o.files_modified AS m FROM observations o
        WHERE o.session_id = (SELECT id FROM sessions WHERE host_session_id = @sid AND (@host IS NULL OR host = @host) LIMIT 1)
        ORDER BY o.id DESC LIMIT ${TOUCHED_FILES_ROWS}`)
      .all({ sid: q.hostSessionId, host: q.sessionHost ?? null }) as { r: string; m: string }[];
    return touchedKeys(rows.flatMap((x) => [...parseList(x.r), ...parseList(x.m)]));
  }
}
