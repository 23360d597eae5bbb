import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../src/store/migrations.js';
import { openStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import { bash, dbPath, openTemp, useTempStore } from './fixtures.js';

const { track } = useTempStore();


describe('opening and migrating', () => {
  it('creates the schema once and is idempotent on reopen', () => {
    const path = dbPath();
    const a = openTemp({}, path);
    a.ingest([bash('ls', 'a b')]);
    a.close();
    const b = track(openTemp({}, path));
    const c = track(openTemp({}, path));
    expect(b.stats().schemaVersion).toBe(SCHEMA_VERSION);
    expect(c.stats().observations).toBe(1);

    const raw = new Database(path, { readonly: true });
    const rows = raw.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as { version: number }[];
    expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('creates the file private to the user', () => {
    const path = dbPath();
    track(openTemp({}, path));
    expect(statSync(path).mode & 0o077).toBe(0);
  });

  it('sets WAL, NORMAL sync, a busy timeout and foreign keys on the connection', () => {
    const s = track(openTemp({ busyTimeoutMs: 1234 }));
    const db = (s as unknown as { db: Database.Database }).db;
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('synchronous', { simple: true })).toBe(1);
    expect(db.pragma('busy_timeout', { simple: true })).toBe(1234);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
  });

  it('reports a corrupt file as store_corrupt with its path', () => {
    const path = dbPath();
    writeFileSync(path, Buffer.alloc(8192, 0x5a));
    let err: (Error & { code?: string; path?: string }) | undefined;
    try {
      openStore(path);
    } catch (e) {
      err = e as Error & { code?: string };
    }
    expect(err?.code).toBe('store_corrupt');
    expect(err?.path).toBe(path);
    expect(err?.message).toContain(path);
  });

  it('reports a damaged database page as store_corrupt', () => {
    const path = dbPath();
    const s = openTemp({}, path);
    s.ingest([bash('ls', 'x')]);
    s.checkpointWal();
    s.close();
    // Overwrite the schema page (page 1 after the 100-byte header) with garbage.
    const buf = readFileSync(path);
    buf.fill(0xff, 100, 4096);
    writeFileSync(path, buf);
    expect(() => openStore(path)).toThrow(expect.objectContaining({ code: 'store_corrupt' }));
  });

  it('reports a database locked by another process as store_busy', () => {
    const path = dbPath();
    // A rollback-journal database held in exclusive mode: nobody else can switch it to WAL.
    const holder = new Database(path);
    holder.pragma('journal_mode = DELETE');
    holder.pragma('locking_mode = EXCLUSIVE');
    holder.exec('CREATE TABLE t (x); BEGIN EXCLUSIVE; INSERT INTO t VALUES (1);');
    try {
      expect(() => openStore(path, { busyTimeoutMs: 50 })).toThrow(expect.objectContaining({ code: 'store_busy' }));
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
  });

  it('refuses a database from a newer schema', () => {
    const path = dbPath();
    openTemp({}, path).close();
    const raw = new Database(path);
    raw.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)').run(SCHEMA_VERSION + 1, 'future', 'now');
    raw.close();
    expect(() => openStore(path)).toThrow(expect.objectContaining({ code: 'store_newer_schema' }));
  });

  it('opens read-only without creating or migrating anything', async () => {
    const missing = dbPath();
    expect(() => openStore(missing, { readonly: true })).toThrow();
    expect(existsSync(missing)).toBe(false);

    const path = dbPath();
    const w = track(openTemp({}, path));
    w.ingest([bash('echo hi', 'hi')]);
    const r = track(openStore(path, { readonly: true }));
    // The writer indexes new rows for search shortly after it wrote them (a timer in its process).
    const deadline = Date.now() + 5000;
    while (r.search({ query: 'echo' }).results.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(r.search({ query: 'echo' }).results).toHaveLength(1);
    expect(() => r.ingest([bash('ls', 'x')])).toThrow();
    expect(w.stats().observations).toBe(1);
  });

  it('passes quick_check on a healthy database', () => {
    const s = track(openTemp());
    s.ingest([bash('ls', 'x')]);
    expect(s.quickCheck()).toBe('ok');
  });
});
