import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/store/fts-query.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { synonymsOf } from '../../src/store/synonyms.js';
import { at, bash, ev, openTemp, prompt } from './fixtures.js';

const words = (list: readonly string[][]) => list.map((t) => t.join(' '));
const synonymAltsOf = (q: string) => parseQuery(q).terms.flatMap((t) => t.alts.filter((a) => a.synonym).map((a) => a.tokens.join(' ')));

describe('synonyms', () => {
  it('makes the words of a group find each other, by stem', () => {
    expect(words(synonymsOf(['bills']))).toContain('invoice');
    // `billing` has the stem of `bills`: the index's stemmer finds it already.
    expect(words(synonymsOf(['bills']))).not.toContain('billing');
    expect(words(synonymsOf(['invoices']))).toContain('bill');
    expect(words(synonymsOf(['throttled']))).toEqual(expect.arrayContaining(['rate limit', '429']));
    expect(synonymsOf(['zanzibar'])).toEqual([]);
  });

  it('lets a kind find its instances and an instance its kind, but not its siblings', () => {
    expect(words(synonymsOf(['database']))).toEqual(expect.arrayContaining(['postgres', 'mysql', 'sqlite']));
    const postgres = words(synonymsOf(['postgres']));
    expect(postgres).toContain('database');
    expect(postgres).not.toContain('mysql');
    expect(words(synonymsOf(['payment', 'provider']))).toContain('stripe');
  });

  it('adds them to a query: single words, adjacent pairs and hyphenated words', () => {
    expect(synonymAltsOf('why were the bills wrong')).toContain('invoice');
    const pair = parseQuery('partner rate limit').terms.find((t) => t.text === 'rate limit');
    expect(pair && words(pair.alts.map((a) => a.tokens))).toEqual(expect.arrayContaining(['throttle', '429']));
    expect(synonymAltsOf('an over-the-air push')).toContain('ota');
    // Not across a sentence break, never inside quotes, and off when asked.
    expect(parseQuery('payment. provider').terms.map((t) => t.text)).not.toContain('payment provider');
    expect(synonymAltsOf('"bills"')).toEqual([]);
    expect(parseQuery('bills throttled', { synonyms: false }).terms.flatMap((t) => t.alts).some((a) => a.synonym)).toBe(false);
  });
});

describe('search with synonyms', () => {
  let s: SqliteStore;
  const P = '/home/dev/ledger';
  beforeAll(() => {
    s = openTemp();
    s.ingest([
      prompt('stripe webhooks are rejected since the upgrade', { cwd: P, sessionId: 'w1', at: at(10) }),
      bash('npm test -- webhooks', 'FAIL signature mismatch: raw body was parsed before verification', { cwd: P, sessionId: 'w1', at: at(11), toolUseId: 't1' }),
      ev({ kind: 'assistant_message', cwd: P, sessionId: 'w1', at: at(12), message: 'Verify the signature on the raw body; the JSON parser ran first.' }),
      prompt('add a dark mode toggle to the settings page', { cwd: P, sessionId: 'd1', at: at(100) }),
    ]);
  });
  afterAll(() => s.close());

  it('finds the session a question describes in other words', () => {
    // None of these words is in the store: only their groups' words are.
    const answer = s.search({ query: 'payment provider callbacks', project: undefined });
    expect(answer.results.map((r) => r.hostSessionId)).toEqual(['w1']);
    expect(answer.results[0].turns[0].evidence.some((e) => /webhook/i.test(e.snippet))).toBe(true);
  });
});
