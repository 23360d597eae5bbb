/**
 * From matching rows to ranked sessions. Rows are grouped by the turn they belong to (a prompt
 * and what followed it) and turns by session, so many observations of one turn never crowd out
 * the prompt or summary of another: a result is a session, its evidence the rows that matched.
 *
 * Signals, in order of weight (docs/search.md gives what each gained on the benchmark):
 * 1. text relevance: BM25 of each row; a turn adds its rows with decaying weight (a turn whose
 *    prompt, reply and commands all match beats one lucky row), a session adds its turns the same way;
 * 2. the project: callers scope to the caller's project (search.ts), so it is a filter, not a weight;
 * 3. recency: a small boost that halves every RECENCY_HALF_LIFE_DAYS;
 * 4. files the asking session touches: a small boost for sessions whose evidence shares them.
 */
import type { IndexedKind } from './search-layout.js';

/** The weights of the signals (docs/search.md gives what each gains on `npm run bench:recall`). */
export interface RankWeights {
  kind: Readonly<Record<IndexedKind, number>>;
  /** Weight of a turn's n-th best row: rowDecay ** n. */
  rowDecay: number;
  /** Weight of a session's n-th best turn: turnDecay ** n. */
  turnDecay: number;
  recencyBoost: number;
  recencyHalfLifeDays: number;
  filesBoost: number;
}

export const DEFAULT_WEIGHTS: Readonly<RankWeights> = {
  kind: { observation: 1.0, prompt: 1.2, assistant: 1.0, summary: 0.8 },
  rowDecay: 0.5,
  turnDecay: 0.25,
  recencyBoost: 0.1,
  recencyHalfLifeDays: 14,
  filesBoost: 0.15,
};
const DAY_MS = 86_400_000;

export interface RankedRow {
  kind: IndexedKind;
  id: number;
  score: number;
  sessionId: number;
  promptNumber: number | null;
  createdAt: string;
  files: string[];
}

export interface TurnGroup {
  promptNumber: number | null;
  rows: RankedRow[]; // best first
  score: number;
}

export interface SessionGroup {
  sessionId: number;
  turns: TurnGroup[]; // best first
  score: number;
  newest: string;
}

interface RankOptions {
  /** Whether the query had words: without, sessions are ordered by time. */
  relevance: boolean;
  now: number;
  /** Files the asking session read or changed (their last path parts are compared). */
  touched: ReadonlySet<string>;
  weights?: Readonly<RankWeights>;
}

const decayed = (scores: number[], decay: number): number =>
  scores.sort((a, b) => b - a).reduce((sum, s, i) => sum + s * decay ** i, 0);

const tail = (path: string): string => path.replace(/\\/g, '/').split('/').slice(-2).join('/');

export function touchedKeys(files: readonly string[]): Set<string> {
  return new Set(files.map(tail));
}

function group(rows: readonly RankedRow[], w: Readonly<RankWeights>): SessionGroup[] {
  const sessions = new Map<number, Map<string, RankedRow[]>>();
  for (const r of rows) {
    let turns = sessions.get(r.sessionId);
    if (!turns) sessions.set(r.sessionId, (turns = new Map()));
    // A summary speaks for the whole session: its own group.
    const key = r.kind === 'summary' ? 'summary' : String(r.promptNumber ?? 0);
    const list = turns.get(key);
    if (list) list.push(r);
    else turns.set(key, [r]);
  }
  return [...sessions].map(([sessionId, turns]) => {
    const groups = [...turns.values()].map((list): TurnGroup => {
      const sorted = [...list].sort((a, b) => b.score * w.kind[b.kind] - a.score * w.kind[a.kind] || b.createdAt.localeCompare(a.createdAt));
      return {
        promptNumber: sorted[0].kind === 'summary' ? null : sorted[0].promptNumber,
        rows: sorted,
        score: decayed(sorted.map((r) => r.score * w.kind[r.kind]), w.rowDecay),
      };
    });
    groups.sort((a, b) => b.score - a.score);
    const newest = list(turns).reduce((m, r) => (r.createdAt > m ? r.createdAt : m), '');
    return { sessionId, turns: groups, score: decayed(groups.map((g) => g.score), w.turnDecay), newest };
  });
}

const list = (turns: Map<string, RankedRow[]>): RankedRow[] => [...turns.values()].flat();

/** Sessions, best first. */
export function rankSessions(rows: readonly RankedRow[], o: RankOptions): SessionGroup[] {
  const w = o.weights ?? DEFAULT_WEIGHTS;
  const sessions = group(rows, w);
  if (!o.relevance) return sessions.sort((a, b) => b.newest.localeCompare(a.newest) || b.sessionId - a.sessionId);
  for (const s of sessions) {
    const ageDays = Math.max(0, (o.now - Date.parse(s.newest)) / DAY_MS) || 0;
    let factor = 1 + w.recencyBoost * 0.5 ** (ageDays / w.recencyHalfLifeDays);
    if (o.touched.size && s.turns.some((t) => t.rows.some((r) => r.files.some((f) => o.touched.has(tail(f)))))) factor += w.filesBoost;
    s.score *= factor;
  }
  return sessions.sort((a, b) => b.score - a.score || b.newest.localeCompare(a.newest));
}
