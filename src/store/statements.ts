/** Prepared statements keyed by their SQL, for queries whose shape depends on the filters given. */
import type Database from 'better-sqlite3';

const MAX_CACHED = 256;

export class StatementCache {
  private readonly map = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  get(sql: string): Database.Statement {
    let st = this.map.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      if (this.map.size >= MAX_CACHED) this.map.delete(this.map.keys().next().value as string);
      this.map.set(sql, st);
    }
    return st;
  }
}
