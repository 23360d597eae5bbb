// The cached compound-word split gives exactly what the plain one (kept here) gave.
import { describe, expect, it } from 'vitest';
import { compoundWords } from '../../src/store/compound-words.js';
import { camelParts, fold, WORD_RE } from '../../src/store/fts-query.js';

function plainCompoundWords(text: string | null | undefined, maxChars = 4000): string {
  if (!text) return '';
  const out = new Set<string>();
  let size = 0;
  const add = (w: string) => { if (size > maxChars || out.has(w)) return; out.add(w); size += w.length + 1; };
  for (const m of text.matchAll(/[\p{L}\p{N}_-]+/gu)) {
    if (m[0].length > 64 * 4 || !/[\p{L}\p{N}][-_]+[\p{L}\p{N}]/u.test(m[0])) continue;
    const parts = (m[0].match(WORD_RE) ?? []).map((t) => t.slice(0, 64));
    if (parts.length <= 6) add(fold(parts.join('')));
    if (size > maxChars) break;
  }
  for (const m of text.matchAll(WORD_RE)) {
    if (m[0].length < 4 || m[0].length > 64) continue;
    for (const p of camelParts(m[0])) add(p);
    if (size > maxChars) break;
  }
  return [...out].join(' ');
}

const PIECES = ['parseConfig', 'read-only', 'parse_config', 'HTTPServer', 'v2beta', 'the', 'file12.ts', '--dry-run', 'a-b-c-d-e-f-g-h',
  'Ünïcödé-Wörd', 'getÜberName', 'x'.repeat(70) + 'Yz', 'snake__case__x', 'A1', '_lead', 'trail-', 'ÀB-cd', 'ﬁle-ﬂow', '日本語-テキスト',
  'src/store/sqliteStore.ts:12:', 'MAX_TOKEN_CHARS', 'camelCaseWordsEverywhere', '-'.repeat(300), 'q-'.repeat(200)];

function randomText(seed: number, n: number): string {
  let a = seed;
  const r = () => ((a = (a * 1103515245 + 12345) >>> 0) / 2 ** 32);
  return Array.from({ length: n }, () => PIECES[Math.floor(r() * PIECES.length)] + (r() < 0.3 ? String(Math.floor(r() * 100)) : '')).join(r() < 0.5 ? ' ' : '\n');
}

describe('compoundWords (cached)', () => {
  it('matches the plain split on mixed, repeated and oversized texts', () => {
    for (let seed = 1; seed < 120; seed++) {
      const text = randomText(seed, seed * 4);
      expect(compoundWords(text)).toBe(plainCompoundWords(text));
      expect(compoundWords(text, 50)).toBe(plainCompoundWords(text, 50));
    }
    for (const t of [null, undefined, '', 'plain words only', ...PIECES]) expect(compoundWords(t)).toBe(plainCompoundWords(t));
  });
});
