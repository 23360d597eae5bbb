/**
 * What each ranking signal and query rule gains: the headline questions asked again of the same
 * scratch store, in this process, once with the product's defaults and once with each signal
 * turned off (SearchTuning, src/store/search.ts). The default row must agree with the
 * worker's answers (same code, same data); each other row differs from it in one thing only.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DEFAULT_WEIGHTS } from '../../src/store/search-rank.js';
import { DEFAULT_TUNING, Searcher, type SearchTuning } from '../../src/store/search.js';
import { StatementCache } from '../../src/store/statements.js';
import type { ScratchHome } from './replay/home.js';
import { figures, rankOf, type Figures, type Form } from './score.js';
import type { Question } from './types.js';

export interface Variant {
  name: string;
  /** What is off or changed, in a few words. */
  change: string;
  tuning: SearchTuning;
  /** Search every project instead of the caller's. */
  allProjects?: boolean;
}

const W = DEFAULT_WEIGHTS;
export const VARIANTS: readonly Variant[] = [
  { name: 'default', change: 'as shipped', tuning: DEFAULT_TUNING },
  { name: 'no function-word removal', change: 'stop words kept as query terms', tuning: { query: { stopWords: false }, weights: W } },
  { name: 'no synonyms', change: 'a word matches only itself (synonyms.ts off)', tuning: { query: { synonyms: false }, weights: W } },
  { name: 'no automatic prefixes', change: 'words of 4+ letters match only as words', tuning: { query: { autoPrefix: false }, weights: W } },
  { name: 'best row only', change: 'a turn scores its best row (row decay 0)', tuning: { query: {}, weights: { ...W, rowDecay: 0 } } },
  { name: 'rows summed', change: 'a turn sums its rows (row decay 1)', tuning: { query: {}, weights: { ...W, rowDecay: 1 } } },
  { name: 'best turn only', change: 'a session scores its best turn (turn decay 0)', tuning: { query: {}, weights: { ...W, turnDecay: 0 } } },
  { name: 'turns summed', change: 'a session sums its turns (turn decay 1)', tuning: { query: {}, weights: { ...W, turnDecay: 1 } } },
  { name: 'kinds weighed alike', change: 'prompt 1.2 / summary 0.8 → all 1', tuning: { query: {}, weights: { ...W, kind: { observation: 1, prompt: 1, assistant: 1, summary: 1 } } } },
  { name: 'no recency', change: 'recency boost 0', tuning: { query: {}, weights: { ...W, recencyBoost: 0 } } },
  { name: 'all projects', change: 'not scoped to the caller\'s project', tuning: DEFAULT_TUNING, allProjects: true },
];

export interface AblationRow {
  name: string;
  change: string;
  asked: Figures;
  keywords: Figures;
}

/** Each variant over `questions` (scope: the caller's project identity, as the worker was asked). */
export function ablate(home: ScratchHome, questions: readonly Question[], scope: (p: string | undefined) => string | undefined, limit: number): AblationRow[] {
  const db = new Database(join(home.dataDir, 'claude-mem.db'), { readonly: true, fileMustExist: true });
  try {
    const stmts = new StatementCache(db);
    return VARIANTS.map((v) => {
      const searcher = new Searcher(stmts, () => new Date(), v.tuning);
      const ranks: Record<Form, (number | null)[]> = { asked: [], keywords: [] };
      for (const q of questions) {
        for (const form of ['asked', 'keywords'] as Form[]) {
          const project = v.allProjects ? undefined : scope(q.project);
          const ids = searcher.search({ query: form === 'asked' ? q.asked : q.keywords, project, limit }).results.map((r) => r.hostSessionId);
          ranks[form].push(rankOf(ids, q.answers));
        }
      }
      return { name: v.name, change: v.change, asked: figures(ranks.asked), keywords: figures(ranks.keywords) };
    });
  } finally {
    db.close();
  }
}

export function ablationTable(rows: readonly AblationRow[]): string {
  const base = rows[0];
  const d = (x: number, y: number) => `${x >= y ? '+' : ''}${(x - y).toFixed(2)}`;
  const out = [`ablation (same store, in process): hit@5 / MRR, and the change against the default`,
    `  ${''.padEnd(28)}${'asked'.padStart(28)}${'keywords'.padStart(30)}`];
  for (const r of rows) {
    const cell = (f: Figures, b: Figures) => `${f.hit5.toFixed(2)} / ${f.mrr.toFixed(2)}${r === base ? '' : ` (${d(f.hit5, b.hit5)}, ${d(f.mrr, b.mrr)})`}`;
    out.push(`  ${r.name.padEnd(28)}${cell(r.asked, base.asked).padStart(28)}${cell(r.keywords, base.keywords).padStart(30)}`);
  }
  return out.join('\n');
}
