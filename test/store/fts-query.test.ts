import { describe, expect, it } from 'vitest';
import { parseQuery, toFtsQuery } from '../../src/worker/store/fts-query.js';
import { makeSnippet } from '../../src/worker/store/snippet.js';

describe('toFtsQuery', () => {
  it.each([
    ['auth token', '"auth" "token"'],
    ['migr*', '"migr"*'],
    ['"login flow"', '"login flow"'],
    ['"login flow"*', '"login flow"*'],
    ['auth.ts', '"auth ts"'],
    ['AND ( NEAR', '"AND" "NEAR"'],
    ['title:foo', '"title foo"'],
    ['say "hi', '"say" "hi"'],
    ['***', null],
    ['', null],
    ['  ', null],
    ['日本語', '"日本語"'],
    ['x"y', '"x" "y"'],
  ])('%j -> %j', (input, expected) => {
    expect(toFtsQuery(input)).toBe(expected);
  });

  it('bounds the number of terms and their length', () => {
    const q = parseQuery(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ') + ' ' + 'x'.repeat(500));
    expect(q).toHaveLength(16);
    expect(parseQuery('y'.repeat(500))[0].tokens[0]).toHaveLength(64);
  });
});

describe('makeSnippet', () => {
  it('highlights words and prefixes, folding case and accents', () => {
    expect(makeSnippet(['The Café opened'], parseQuery('cafe'))).toBe('The **Café** opened');
    expect(makeSnippet(['running the migrations now'], parseQuery('migr*'))).toBe('running the **migrations** now');
    expect(makeSnippet(['no match here'], parseQuery('zebra'))).toBeNull();
  });

  it('picks the field with most matches and cuts long text around the first match', () => {
    const long = `${'a '.repeat(50)}needle ${'b '.repeat(50)}`;
    const s = makeSnippet(['title without it', long], parseQuery('needle'))!;
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(s).toContain('**needle**');
    expect(s.split(' ').length).toBeLessThanOrEqual(18);
  });
});
