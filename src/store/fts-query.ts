/**
 * Turns what a person or a model typed into a safe FTS5 MATCH expression. User text never becomes
 * FTS5 syntax: every token is a double-quoted string of word characters, so quotes, parentheses,
 * `NEAR`, `AND`, column filters and stray `*` can never produce a syntax error.
 *
 * - Terms are ORed and ranked by BM25, so a question finds rows that share only some of its words.
 * - Function words and question words are left out (stop-words.ts) unless nothing else is left.
 * - Words are stemmed by the index's porter tokenizer (the query goes through the same one), and a
 *   word of 4+ letters also matches as a prefix (`auth` finds `authentication`).
 * - Code terms: `parseConfig` and `parse_config` find each other, `read-only` finds `readonly`,
 *   `--dry-run` is `dry run`, paths and `file.ts` are phrases of their parts.
 * - "quoted text" must occur, word for word (search.ts checks the exact words; see exactPhrases).
 * - A word also matches the words developers use for the same thing (synonyms.ts): `bills` finds
 *   `invoice`, `throttled` finds `rate limit`; two adjacent words are looked up as a pair too.
 * - `migr*` is an explicit prefix.
 */
import { isStopWord } from './stop-words.js';
import { synonymsOf } from './synonyms.js';

const MAX_TERMS = 16;
export const MAX_TOKEN_CHARS = 64;
const AUTO_PREFIX_MIN = 4;
// Word characters as the unicode61 tokenizer sees them (letters, numbers, marks, private use).
export const WORD_RE = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
const CAMEL_RE = /\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll}|\p{L}\p{N}|\p{N}\p{L}/u;

/** One way a term can match: a single token or a phrase of tokens, the last one maybe a prefix. */
interface Alt {
  tokens: string[];
  prefix: boolean;
  /** A prefix the query added by itself (the word was typed whole): search may leave it out. */
  auto?: boolean;
  /** Another word for what was typed (synonyms.ts). */
  synonym?: boolean;
}

export interface QueryTerm {
  /** What the user wrote for this term. */
  text: string;
  /** Matches when any alternative does. */
  alts: Alt[];
  /** A quoted phrase: rows without it are not results. */
  required: boolean;
}

export interface ParsedQuery {
  terms: QueryTerm[];
  /** Quoted phrases as folded words, for the exact check (the index matches stems). */
  exact: string[][];
}

export const fold = (w: string): string => w.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

function tokensOf(text: string): string[] {
  return (text.match(WORD_RE) ?? []).map((t) => t.slice(0, MAX_TOKEN_CHARS));
}

/** `parseConfig` → parse, config; `HTTPServer` → http, server; `v2beta` → v, 2, beta. */
export function camelParts(word: string): string[] {
  if (!CAMEL_RE.test(word)) return [];
  const parts = word
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})|(\p{N})(\p{L})/gu, (_m, a, b, c, d) => (a ? `${a} ${b}` : `${c} ${d}`))
    .split(' ')
    .filter(Boolean);
  return parts.length > 1 ? parts.map(fold) : [];
}

const single = (t: string, prefix = false): Alt => ({ tokens: [fold(t)], prefix });
const synonymAlts = (words: readonly string[]): Alt[] => synonymsOf(words).map((tokens) => ({ tokens: [...tokens], prefix: false, synonym: true }));

/** The alternatives of one bare chunk of the query (no whitespace in it). */
function chunkAlts(chunk: string, o: QueryOptions): { alts: Alt[]; stop: boolean } {
  const stopWords = o.stopWords !== false;
  const explicitPrefix = /[\p{L}\p{N}\p{M}\p{Co}]\*+$/u.test(chunk);
  const words = tokensOf(chunk);
  if (!words.length) return { alts: [], stop: false };
  if (words.length === 1) {
    const w = words[0];
    if (explicitPrefix) return { alts: [single(w, true)], stop: false };
    const parts = camelParts(w);
    if (parts.length) return { alts: [single(w), { tokens: parts, prefix: false }], stop: false };
    const f = fold(w);
    if (stopWords && isStopWord(f)) return { alts: [single(w)], stop: true };
    const alts = f.length >= AUTO_PREFIX_MIN ? [single(w), { ...single(w, true), auto: true }] : [single(w)];
    return { alts: o.synonyms === false ? alts : [...alts, ...synonymAlts([f])], stop: false };
  }
  const folded = words.map(fold);
  const alts: Alt[] = [{ tokens: folded, prefix: explicitPrefix }];
  // Words joined by - or _ only (read-only, parse_config, --dry-run): also the joined word.
  if (/^[-_#@]*[\p{L}\p{N}\p{M}]+(?:[-_]+[\p{L}\p{N}\p{M}]+)+\*?$/u.test(chunk)) {
    alts.push({ tokens: [folded.join('')], prefix: false });
    // `over-the-air`, `per-day`: the words of their group too, as a phrase or joined.
    if (o.synonyms !== false) alts.push(...synonymAlts(folded), ...synonymAlts([folded.join('')]));
  }
  // A path: its last part alone too (`src/config/loader.ts` is also `loader.ts`).
  const segments = chunk.split(/[\\/]+/).filter(Boolean);
  if (segments.length > 1) {
    const last = tokensOf(segments[segments.length - 1]).map(fold);
    if (last.length && last.length < folded.length) alts.push({ tokens: last, prefix: false });
  }
  return { alts, stop: false };
}

const altKey = (a: Alt): string => `${a.tokens.join(' ')}${a.prefix ? '*' : ''}`;

export interface QueryOptions {
  /** Leave function words out (default); off only to measure what that gains. */
  stopWords?: boolean;
  /** Match the other words of a word's group (default); off only to measure what that gains. */
  synonyms?: boolean;
}

/** A plain word of the query (not quoted, not a path or code term), folded; null otherwise. */
function plainWord(chunk: string): string | null {
  return /^[\p{L}\p{N}]+$/u.test(chunk) ? fold(chunk) : null;
}

/** The terms of `input`, in order; at most 16. */
export function parseQuery(input: string, opts: QueryOptions = {}): ParsedQuery {
  const terms: QueryTerm[] = [];
  const stops: QueryTerm[] = [];
  const exact: string[][] = [];
  const seen = new Set<string>();
  let previous: string | null = null;
  // "quoted phrases" and bare chunks; an unbalanced quote runs to the end.
  const parts = String(input).normalize('NFC').match(/"[^"]*(?:"\*?)?|[^\s",;]+/g) ?? [];
  for (const part of parts) {
    if (terms.length >= MAX_TERMS) break;
    if (part.startsWith('"')) {
      previous = null;
      const words = tokensOf(part.slice(1).replace(/"\*?$/, '')).map(fold);
      if (!words.length) continue;
      const alt: Alt = { tokens: words, prefix: /"\*$/.test(part) };
      if (seen.has(`"${altKey(alt)}`)) continue;
      seen.add(`"${altKey(alt)}`);
      terms.push({ text: part, alts: [alt], required: true });
      if (!alt.prefix) exact.push(words);
      continue;
    }
    const chunk = part.replace(/[?!.,:;)\]}'`]+$/u, '').replace(/^[(['`]+/u, '');
    const word = plainWord(chunk);
    // Two words that name one thing ("payment provider", "rate limit"): their group's words too.
    const pair = previous && word && opts.synonyms !== false ? synonymAlts([previous, word]) : [];
    if (pair.length && !seen.has(`${previous} ${word}~`)) {
      seen.add(`${previous} ${word}~`);
      terms.push({ text: `${previous} ${word}`, alts: pair, required: false });
    }
    previous = /[?!.,:;]$/.test(part) ? null : word;
    const { alts, stop } = chunkAlts(chunk, opts);
    if (!alts.length) continue;
    const key = alts.map(altKey).join('|');
    if (seen.has(key)) continue;
    seen.add(key);
    (stop ? stops : terms).push({ text: part, alts, required: false });
  }
  // A query of nothing but function words still searches for them.
  if (!terms.length) terms.push(...stops.slice(0, MAX_TERMS));
  return { terms, exact };
}

/** One alternative in FTS5 syntax: `"a b"` or `"a"*`. Tokens hold word characters only, so no escaping is needed. */
export function altToFts(a: Alt): string {
  return `"${a.tokens.join(' ')}"${a.prefix ? '*' : ''}`;
}

/**
 * A term in FTS5 syntax. Tokens that start with z could meet a filter tag (tags.ts): those are
 * confined to the text columns. (A column filter on every term would make BM25 slower.)
 */
export function termToFts(t: QueryTerm, textColumns: string): string {
  const alts = t.alts.map((a) => (/^z/.test(a.tokens[0]) ? `${textColumns} : ${altToFts(a)}` : altToFts(a)));
  return alts.length === 1 ? alts[0] : `(${alts.join(' OR ')})`;
}

/** Required terms ANDed, the others ORed: `req AND (a OR b)`; null when nothing is searchable. */
export function toFtsExpression(terms: readonly QueryTerm[], textColumns: string): string | null {
  const required = terms.filter((t) => t.required).map((t) => termToFts(t, textColumns));
  const optional = terms.filter((t) => !t.required).map((t) => termToFts(t, textColumns));
  if (!required.length) return optional.length > 1 ? `(${optional.join(' OR ')})` : optional[0] ?? null;
  if (!optional.length) return required.join(' AND ');
  // With a required phrase, the other terms only rank: ORed with the phrase, they are never needed,
  // and BM25 counts every phrase of the expression that a row holds.
  return `${required.join(' AND ')} AND (${[required[0], ...optional].join(' OR ')})`;
}

/** The FTS5 expression for `input`, or null when it holds no searchable word (tests and tools). */
export function toFtsQuery(input: string, textColumns = '{head body files extra}'): string | null {
  return toFtsExpression(parseQuery(input).terms, textColumns);
}

/** True when `text` holds every phrase as the same words in the same order (case and accents folded). */
export function hasExactPhrases(text: string, phrases: readonly string[][]): boolean {
  if (!phrases.length) return true;
  const words = tokensOf(text).map(fold);
  return phrases.every((p) => {
    for (let i = 0; i + p.length <= words.length; i++) {
      let j = 0;
      while (j < p.length && words[i + j] === p[j]) j++;
      if (j === p.length) return true;
    }
    return false;
  });
}
