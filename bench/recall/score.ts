/** Ranks to figures: hit@1/5/10 and MRR per system, question form and style; probes; overlap. */
import { tokenize } from './bm25.js';
import type { Question } from './types.js';

export type Form = 'asked' | 'keywords';

export interface Ranked {
  question: Question;
  form: Form;
  /** 1-based rank of the first answer session in the product's results, null when absent. */
  rank: number | null;
  /** Whether the labelled turn was named by a result in the top 5 (null: results name no turns). */
  turnHit: boolean | null;
  /** Sessions the product returned. */
  returned: number;
  /** 1-based rank in the raw-text BM25 baseline, over every session of every project. */
  baselineRank: number | null;
  /** 1-based rank in the same BM25 over the sessions of the question's own project only. */
  projectBaselineRank: number | null;
  ms: number;
  top: string[];
}

export interface Figures {
  n: number;
  hit1: number;
  hit5: number;
  hit10: number;
  mrr: number;
  /** Share of queries with no result at all. */
  empty: number;
}

const ratio = (a: number, b: number): number => (b ? a / b : 0);

export function figures(ranks: (number | null)[], returned?: number[]): Figures {
  const n = ranks.length;
  const within = (k: number) => ranks.filter((r) => r !== null && r <= k).length;
  return {
    n,
    hit1: ratio(within(1), n),
    hit5: ratio(within(5), n),
    hit10: ratio(within(10), n),
    mrr: ratio(ranks.reduce<number>((s, r) => s + (r ? 1 / r : 0), 0), n),
    empty: returned ? ratio(returned.filter((x) => x === 0).length, n) : 0,
  };
}

export interface Breakdown {
  /** bm25-raw: every session of every project (the baseline); bm25-project: the question's project only. */
  system: 'claude-mem' | 'bm25-raw' | 'bm25-project';
  form: Form;
  style: 'all' | 'literal' | 'paraphrased';
  figures: Figures;
}

export function breakdowns(results: Ranked[]): Breakdown[] {
  const out: Breakdown[] = [];
  for (const system of ['claude-mem', 'bm25-raw', 'bm25-project'] as const) {
    for (const form of ['asked', 'keywords'] as const) {
      for (const style of ['all', 'literal', 'paraphrased'] as const) {
        const rows = results.filter((r) => r.form === form && (style === 'all' || r.question.style === style));
        if (!rows.length) continue;
        const f = system === 'claude-mem'
          ? figures(rows.map((r) => r.rank), rows.map((r) => r.returned))
          : figures(rows.map((r) => (system === 'bm25-raw' ? r.baselineRank : r.projectBaselineRank)));
        out.push({ system, form, style, figures: f });
      }
    }
  }
  return out;
}

/** 1-based rank of the first id of `answers` in `ranked`. */
export function rankOf(ranked: readonly string[], answers: readonly string[]): number | null {
  const i = ranked.findIndex((id) => answers.includes(id));
  return i < 0 ? null : i + 1;
}

/** Case and whitespace folded, so "Node  22" in a context matches the fact "node 22". */
export const fold = (s: string): string => s.toLowerCase().replace(/\s+/g, ' ').trim();

export function factsPresent(context: string, facts: readonly string[]): boolean {
  const text = fold(context);
  return facts.length > 0 && facts.every((f) => text.includes(fold(f)));
}

// Only for the overlap figure: words that say nothing about the answer.
const FUNCTION_WORDS = new Set(('a an and are as at be but by can could did do does for from had has have how i if in into is it its ' +
  'me my of on or our so than that the their them then there these they this those to up us was we were what when where which who ' +
  'why will with would you your about after again all any been before being both each few more most no not now off once only other ' +
  'out over same should some such too under until very just also ever still used use using get got make made do done keep').split(' '));

/** The distinct words of a text that carry meaning (function words left out). */
export function contentWords(text: string): string[] {
  return [...new Set(tokenize(text).filter((w) => !FUNCTION_WORDS.has(w)))];
}

/** Share of a question's content words that occur in its answer session's raw text. */
export function overlap(question: string, answerText: string): number {
  const words = contentWords(question);
  if (!words.length) return 0;
  const answer = new Set(tokenize(answerText));
  return words.filter((w) => answer.has(w)).length / words.length;
}
