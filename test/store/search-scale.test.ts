/**
 * Search when a word matches more rows than are scored with every term (the newest 1,000 of a
 * kind) and more than the automatic-prefix limit (500): what must still be found.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import type { SearchAnswer } from '../../src/store/types.js';
import { at, bash, openTemp } from './fixtures.js';

let s: SqliteStore;
const ROWS = 2500;

beforeAll(() => {
  s = openTemp();
  const events = [
    // The oldest rows: a rare word next to the common one, and a word only reachable as a prefix.
    bash('npm run deploy -- --target staging', 'deploy failed: zebrafish certificate expired', { sessionId: 'old-rare', at: at(1), toolUseId: 'r1' }),
    bash('npm run deploy -- --target eu', 'authentication token refreshed', { sessionId: 'old-prefix', at: at(2), toolUseId: 'p1' }),
  ];
  for (let i = 0; i < ROWS; i++) {
    events.push(bash(`npm run deploy -- --shard ${i}`, `deploy ${i} done`, { sessionId: `bulk-${Math.floor(i / 10)}`, at: at(100 + i), toolUseId: `b${i}` }));
  }
  s.ingest(events);
});
afterAll(() => s.close());

const sessionsOf = (a: SearchAnswer) => a.results.map((r) => r.hostSessionId);

describe('search over many matches', () => {
  it('finds an old row through a rare word of the query, past the newest rows scored in full', () => {
    expect(sessionsOf(s.search({ query: 'why did the deploy fail with zebrafish?', limit: 5 }))[0]).toBe('old-rare');
  });

  it('orders the rows of a word every row holds newest first', () => {
    const found = sessionsOf(s.search({ query: 'deploy', limit: 3 }));
    expect(found).toEqual(['bulk-249', 'bulk-248', 'bulk-247']);
  });

  it('keeps the automatic prefix of a rare word next to a common one', () => {
    expect(sessionsOf(s.search({ query: 'deploy auth', limit: 3 }))[0]).toBe('old-prefix');
  });
});
