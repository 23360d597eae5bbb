/**
 * Read-only access to a host's SQLite store while the host may be running. The database is
 * opened `readonly` with `query_only` (nothing is ever written: no WAL checkpoint, no journal);
 * in WAL mode a reader neither blocks the host's writer nor waits for it. When the store cannot
 * be opened that way (a WAL database whose `-shm` is missing in a directory we may not write, a
 * busy rollback journal), the database and its WAL are copied to a private temp directory and
 * the copy is read instead.
 */
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export type ReadOnlyDb = Database.Database;

function openReadOnly(path: string): ReadOnlyDb {
  const db = new Database(path, { readonly: true, fileMustExist: true, timeout: 2000 });
  try {
    db.pragma('query_only = ON');
    db.prepare('SELECT count(*) FROM sqlite_master').get(); // fails now, not mid-read, if unreadable
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/** Runs `read` against the store (or a private copy of it) and always closes what it opened. */
export function withReadOnlyDb<T>(path: string, read: (db: ReadOnlyDb) => T): T {
  let db: ReadOnlyDb;
  try {
    db = openReadOnly(path);
  } catch (first) {
    const dir = mkdtempSync(join(tmpdir(), 'claude-mem-history-'));
    try {
      const copy = join(dir, basename(path));
      copyFileSync(path, copy);
      for (const ext of ['-wal']) if (existsSync(path + ext)) copyFileSync(path + ext, copy + ext);
      let c: ReadOnlyDb;
      try { c = new Database(copy, { fileMustExist: true, timeout: 2000 }); } catch { throw first; }
      try { return read(c); } finally { c.close(); }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  try { return read(db); } finally { db.close(); }
}

/** Whether `table` exists with every one of `columns`. */
export function hasColumns(db: ReadOnlyDb, table: string, columns: readonly string[]): boolean {
  const have = new Set((db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as Array<{ name: string }>).map((r) => r.name));
  return columns.every((c) => have.has(c));
}

/** A JSON text column as a value (unparseable text stays text). */
export function json(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try { return JSON.parse(v) as unknown; } catch { return v; }
}
