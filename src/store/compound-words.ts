/**
 * The words the index should also find a row by: each compound's joined form (`read-only` →
 * readonly, `parse_config` → parseconfig) and each camelCase word's parts (`parseConfig` →
 * parse config). Indexed in a column of their own, so phrases in the text stay adjacent.
 *
 * Every row a bulk import writes goes through here, so the text is scanned by character code,
 * not by a regular expression per word (~45 MB/s here, most of an import's indexing time): only
 * a run holding `-`/`_` or a word holding a capital or a digit can give anything, and only those
 * are cut out and split, once per distinct token (bounded cache). Runs with non-ASCII characters
 * go through the Unicode expressions as before; the result is the same string either way.
 */
import { camelParts, fold, MAX_TOKEN_CHARS, WORD_RE } from './fts-query.js';

const CACHE_ENTRIES = 20_000;
const NONE: readonly string[] = [];
const RUN_RE = /[\p{L}\p{N}_-]+/gu;
const JOINED_RE = /[\p{L}\p{N}][-_]+[\p{L}\p{N}]/u;

/** A map that forgets everything once it holds `max` entries (enough for the recurring tokens). */
class SplitCache<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly compute: (key: string) => V, private readonly max = CACHE_ENTRIES) {}
  get(key: string): V {
    let v = this.map.get(key);
    if (v === undefined) {
      if (this.map.size >= this.max) this.map.clear();
      v = this.compute(key);
      this.map.set(key, v);
    }
    return v;
  }
}

/** `read-only` → readonly; '' when the run is no compound (or too long, or of too many parts). */
function joinedForm(run: string): string {
  if (run.length > MAX_TOKEN_CHARS * 4 || !JOINED_RE.test(run)) return '';
  const parts = run.match(WORD_RE) ?? [];
  return parts.length <= 6 ? fold(parts.map((t) => t.slice(0, MAX_TOKEN_CHARS)).join('')) : '';
}

const joined = new SplitCache<string>(joinedForm);
const camel = new SplitCache<readonly string[]>((w) => { const p = camelParts(w); return p.length ? p : NONE; });

const DASH = 45;
const UNDERSCORE = 95;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isUpper = (c: number) => c >= 65 && c <= 90;
const isAlnum = (c: number) => isDigit(c) || isUpper(c) || (c >= 97 && c <= 122);

/** A span of the text; `wide` when it holds a non-ASCII character (classified by the Unicode expressions). */
interface Span { text: string; wide: boolean }

/**
 * The candidate runs (`[\p{L}\p{N}_-]+` holding - or _) and words (`[\p{L}\p{N}\p{M}\p{Co}]+`
 * holding a capital or a digit) in text order. Non-ASCII characters are kept inside spans: every
 * real run or word lies within one span, so splitting a wide span again with the expressions
 * gives exactly the runs and words of the text.
 */
function candidates(text: string): { runs: Span[]; words: Span[] } {
  const runs: Span[] = [];
  const words: Span[] = [];
  let runStart = -1, runJoin = false, runWide = false;
  let wordStart = -1, wordMixed = false, wordWide = false;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    const wide = c >= 128;
    const inWord = wide || isAlnum(c);
    if (inWord) {
      if (wordStart < 0) { wordStart = i; wordMixed = false; wordWide = false; }
      wordWide ||= wide;
      wordMixed ||= isUpper(c) || isDigit(c);
    } else if (wordStart >= 0) {
      const len = i - wordStart;
      if (wordWide || (wordMixed && len >= 4 && len <= MAX_TOKEN_CHARS)) words.push({ text: text.slice(wordStart, i), wide: wordWide });
      wordStart = -1;
    }
    if (inWord || c === DASH || c === UNDERSCORE) {
      if (runStart < 0) { runStart = i; runJoin = false; runWide = false; }
      runWide ||= wide;
      runJoin ||= c === DASH || c === UNDERSCORE;
    } else if (runStart >= 0) {
      if (runJoin || runWide) runs.push({ text: text.slice(runStart, i), wide: runWide });
      runStart = -1;
    }
  }
  return { runs, words };
}

export function compoundWords(text: string | null | undefined, maxChars = 4000): string {
  if (!text) return '';
  const out = new Set<string>();
  let size = 0;
  const add = (w: string) => {
    if (size > maxChars || out.has(w)) return;
    out.add(w);
    size += w.length + 1;
  };
  const { runs, words } = candidates(text);
  for (const r of runs) {
    if (!r.wide) { const w = joined.get(r.text); if (w) add(w); continue; }
    for (const m of r.text.matchAll(RUN_RE)) {
      if (m[0].indexOf('-') < 0 && m[0].indexOf('_') < 0) continue;
      const w = joined.get(m[0]);
      if (w) add(w);
    }
  }
  for (const s of words) {
    if (size > maxChars) break;
    if (!s.wide) { for (const p of camel.get(s.text)) add(p); continue; }
    for (const m of s.text.matchAll(WORD_RE)) {
      if (m[0].length >= 4 && m[0].length <= MAX_TOKEN_CHARS) for (const p of camel.get(m[0])) add(p);
    }
  }
  return [...out].join(' ');
}
