import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import { bash, dbPath, evidence, openTemp, prompt, query, useTempStore } from './fixtures.js';

const { track } = useTempStore();

const upto = (s: SqliteStore, name: string): number =>
  query<{ upto: number }>(s, 'SELECT upto FROM fts_state WHERE name = ?', name)[0].upto;

function integrity(path: string): void {
  const db = new Database(path);
  try {
    db.prepare(`INSERT INTO memory_fts(memory_fts) VALUES ('integrity-check')`).run();
  } finally {
    db.close();
  }
}

describe('batched search indexing', () => {
  it('finds what was just ingested, and keeps the index exact through merges', () => {
    const s = track(openTemp());
    s.ingest([prompt('one word: zebra'), bash('echo giraffe', 'ok', { toolUseId: 'm1' })]);
    expect(upto(s, 'observations')).toBe(0); // not indexed yet...
    expect(evidence(s.search({ query: 'zebra' }))).toHaveLength(1); // ...but a search indexes first
    expect(evidence(s.search({ query: 'giraffe' }))).toHaveLength(1);
    expect(upto(s, 'observations')).toBe(1);
    // The second half of the call rewrites an indexed row: the trigger re-indexes it.
    s.ingest([{ ...bash('echo giraffe', 'ok'), kind: 'tool_use', toolUseId: 'm1', toolResponse: undefined, toolInput: { command: 'echo giraffe okapi' } }]);
    s.flushSearchIndex();
    integrity(s.path);
  });

  it('indexes large batches in the same transaction', () => {
    const s = track(openTemp());
    s.ingest(Array.from({ length: 300 }, (_, i) => bash(`echo n${i}`, 'ok', { toolUseId: `b${i}` })));
    expect(upto(s, 'observations')).toBe(300);
  });

  it('indexes rows left unindexed by a process that died, when the store opens again', () => {
    const path = dbPath();
    const a = openTemp({}, path);
    a.ingest([bash('echo walrus', 'ok')]);
    // Simulate a crash: close the connection without the store's final flush.
    (a as unknown as { db: Database.Database }).db.close();
    const b = track(openStore(path, { readonly: true }));
    expect(b.search({ query: 'walrus' }).results).toEqual([]);
    const c = track(openTemp({}, path));
    expect(upto(c, 'observations')).toBe(1);
    expect(evidence(b.search({ query: 'walrus' }))).toHaveLength(1);
  });

  it('indexes a reused id after the newest rows were deleted', () => {
    const s = track(openTemp());
    s.ingest([bash('echo keep', 'ok', { sessionId: 'real' })]);
    s.ingest([bash('echo probe', 'ok', { sessionId: 'doctor-p', probe: true })]);
    s.flushSearchIndex();
    expect(upto(s, 'observations')).toBe(2);
    s.deleteProbeData('doctor-p');
    expect(upto(s, 'observations')).toBe(1);
    s.ingest([bash('echo ocelot', 'ok', { sessionId: 'real' })]);
    expect(query(s, 'SELECT id FROM observations WHERE title LIKE ?', '%ocelot%')).toEqual([{ id: 2 }]);
    expect(evidence(s.search({ query: 'ocelot' }))).toHaveLength(1);
    expect(s.search({ query: 'probe' }).results).toEqual([]);
    integrity(s.path);
  });

  it('rebuilds the indexes on request', () => {
    const s = track(openTemp());
    s.ingest([bash('echo lynx', 'ok'), prompt('about the lynx')]);
    s.rebuildSearchIndex();
    expect(evidence(s.search({ query: 'lynx' }))).toHaveLength(2);
    integrity(s.path);
  });
});
