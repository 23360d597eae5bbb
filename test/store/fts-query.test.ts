import { describe, expect, it } from 'vitest';
import { compoundWords } from '../../src/store/compound-words.js';
import { hasExactPhrases, parseQuery, toFtsQuery } from '../../src/store/fts-query.js';
import { makeSnippet } from '../../src/store/snippet.js';

describe('toFtsQuery', () => {
  it.each([
    ['parser widget', '(("parser" OR "parser"*) OR ("widget" OR "widget"*))'],
    ['migr*', '"migr"*'],
    ['"login flow"', '"login flow"'],
    ['"login flow"*', '"login flow"*'],
    ['auth.ts', '"auth ts"'],
    // Operators are plain words ("and" is a function word).
    ['AND ( NEAR', '("near" OR "near"*)'],
    ['title:foo', '"title foo"'],
    ['***', null],
    ['', null],
    ['  ', null],
    ['日本語', '"日本語"'],
  ])('%j -> %j', (input, expected) => {
    expect(toFtsQuery(input)).toBe(expected);
  });

  it('leaves out function and question words, unless nothing else is left', () => {
    expect(parseQuery('how did we fix the build?').terms.map((t) => t.text)).toEqual(['fix', 'build?']);
    expect(parseQuery('what did we do').terms.map((t) => t.text)).toEqual(['what', 'did', 'we', 'do']);
  });

  it('understands code terms', () => {
    const alts = (q: string) => parseQuery(q).terms.map((t) => t.alts.map((a) => a.tokens.join(' ') + (a.prefix ? '*' : '')));
    expect(alts('parseConfig')).toEqual([['parseconfig', 'parse config']]);
    expect(alts('parse_config')).toEqual([['parse config', 'parseconfig']]);
    expect(alts('read-only')).toEqual([['read only', 'readonly']]);
    expect(alts('--dry-run')).toEqual([['dry run', 'dryrun']]);
    expect(alts('src/config/loader.ts')).toEqual([['src config loader ts', 'loader ts']]);
    expect(alts('#14')).toEqual([['14']]);
    expect(alts('HTTPServer')).toEqual([['httpserver', 'http server']]);
  });

  it('makes a quoted phrase required and the other words optional', () => {
    expect(toFtsQuery('"dry run" widget')).toBe('"dry run" AND ("dry run" OR ("widget" OR "widget"*))');
    expect(parseQuery('"Dry  Run" x').exact).toEqual([['dry', 'run']]);
  });

  it('confines words that could meet a filter tag to the text columns', () => {
    expect(toFtsQuery('zhcodex')).toBe('({head body files extra} : "zhcodex" OR {head body files extra} : "zhcodex"*)');
  });

  it('bounds the number of terms and their length', () => {
    const q = parseQuery(Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ') + ' ' + 'x'.repeat(500));
    expect(q.terms).toHaveLength(16);
    expect(parseQuery('y'.repeat(500)).terms[0].alts[0].tokens[0]).toHaveLength(64);
  });
});

describe('compoundWords', () => {
  it('adds joined compounds and camelCase parts, bounded', () => {
    expect(compoundWords('use read-only mode and parse_config in parseConfig()').split(' ').sort())
      .toEqual(['config', 'parse', 'parseconfig', 'readonly'].sort());
    expect(compoundWords('plain words only')).toBe('');
    expect(compoundWords(Array.from({ length: 3000 }, (_, i) => `aB${i}c-d${i}`).join(' ')).length).toBeLessThanOrEqual(4100);
  });
});

describe('hasExactPhrases', () => {
  it('checks the words in order, folding case and accents, not stems', () => {
    expect(hasExactPhrases('The Café opened late', [['cafe', 'opened']])).toBe(true);
    expect(hasExactPhrases('The Café opens late', [['cafe', 'opened']])).toBe(false);
    expect(hasExactPhrases('anything', [])).toBe(true);
  });
});

describe('makeSnippet', () => {
  it('highlights words, stems and prefixes, folding case and accents', () => {
    expect(makeSnippet(['The Café opened'], parseQuery('cafe'))).toBe('The **Café** opened');
    expect(makeSnippet(['running the migrations now'], parseQuery('migr*'))).toBe('running the **migrations** now');
    expect(makeSnippet(['the build is failing'], parseQuery('fails'))).toBe('the build is **failing**');
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
