/**
 * Search snippets, built from the row's text in JavaScript: asking FTS5 for snippet() re-runs the
 * whole query once per hit, which for a prefix query means merging every matching word's list
 * again. Matching here folds case and accents like the unicode61 tokenizer does and compares
 * English stems like its porter stage, so `failing` is highlighted for a query `fails`.
 */
import { stemmer } from 'stemmer';
import { fold, WORD_RE, type ParsedQuery } from './fts-query.js';

const WINDOW_WORDS = 16;
const LEAD_WORDS = 3;
const MAX_SCAN_CHARS = 20_000;

interface Word {
  start: number;
  end: number;
  hit: boolean;
}

/** Whether a (folded) word of the text matches a word of the query. */
function matcher(q: ParsedQuery): (folded: string) => boolean {
  const exact = new Set<string>();
  const stems = new Set<string>();
  const prefixes: string[] = [];
  for (const t of q.terms) {
    for (const a of t.alts) {
      a.tokens.forEach((tok, i) => {
        if (a.prefix && i === a.tokens.length - 1) prefixes.push(tok);
        else {
          exact.add(tok);
          stems.add(stemmer(tok));
        }
      });
    }
  }
  return (w) => exact.has(w) || stems.has(stemmer(w)) || prefixes.some((p) => w.startsWith(p));
}

function words(text: string, isHit: (w: string) => boolean): Word[] {
  const out: Word[] = [];
  for (const m of text.slice(0, MAX_SCAN_CHARS).matchAll(WORD_RE)) {
    out.push({ start: m.index ?? 0, end: (m.index ?? 0) + m[0].length, hit: isHit(fold(m[0])) });
  }
  return out;
}

/** A case-insensitive search for any query word (or its stem), to find the spot in a long text. */
function locator(q: ParsedQuery): RegExp {
  const alts = q.terms.flatMap((t) => t.alts.flatMap((a) => a.tokens)).flatMap((t) => [t, stemmer(t)])
    .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${[...new Set(alts)].join('|')})`, 'iu');
}

// One query's matchers, built once for all the snippets of an answer.
const built = new WeakMap<ParsedQuery, { isHit: (w: string) => boolean; locate: RegExp }>();

function matchersOf(q: ParsedQuery): { isHit: (w: string) => boolean; locate: RegExp } {
  let m = built.get(q);
  if (!m) built.set(q, (m = { isHit: matcher(q), locate: locator(q) }));
  return m;
}

/** The part of a long text around its first match (or its head); the window starts well after the cut. */
function around(text: string, locate: RegExp): string {
  const i = text.search(locate);
  if (i < 0) return text.slice(0, MAX_SCAN_CHARS);
  const from = Math.max(0, i - 400);
  return (from > 0 ? '… ' : '') + text.slice(from, i + 2000);
}

/**
 * A window of about 16 words around the first match, matches in **bold**, `…` where text was
 * cut. Looks through `fields` in order and uses the one with the most matches; null when none.
 */
export function makeSnippet(fields: readonly (string | null | undefined)[], q: ParsedQuery): string | null {
  const { isHit, locate } = matchersOf(q);
  let best: { text: string; ws: Word[]; hits: number } | null = null;
  for (const field of fields) {
    if (!field) continue;
    const f = field.length > MAX_SCAN_CHARS ? around(field, locate) : field;
    const ws = words(f, isHit);
    const hits = ws.filter((w) => w.hit).length;
    if (hits && (!best || hits > best.hits)) best = { text: f, ws, hits };
  }
  if (!best) return null;
  const { text, ws } = best;
  const first = ws.findIndex((w) => w.hit);
  const from = Math.max(0, first - LEAD_WORDS);
  const to = Math.min(ws.length, from + WINDOW_WORDS);
  let out = from > 0 ? '…' : '';
  let pos = from > 0 ? ws[from].start : 0;
  for (let i = from; i < to; i++) {
    const w = ws[i];
    out += text.slice(pos, w.start);
    // `auth.ts` is one highlight, not two: a hit continues while the next word is glued to it.
    const opens = w.hit && !(i > from && ws[i - 1].hit && !/\s/.test(text.slice(ws[i - 1].end, w.start)));
    const closes = w.hit && !(i + 1 < to && ws[i + 1].hit && !/\s/.test(text.slice(w.end, ws[i + 1].start)));
    out += `${opens ? '**' : ''}${text.slice(w.start, w.end)}${closes ? '**' : ''}`;
    pos = w.end;
  }
  const end = to < ws.length ? ws[to - 1].end : text.length;
  out += text.slice(pos, end);
  if (to < ws.length) out += '…';
  return out.replace(/\s+/g, ' ').trim();
}
