/**
 * Batched FTS indexing for observations, prompts, assistant messages and summaries (search-layout.ts). A captured event writes its row only; the
 * rows above the table's watermark (fts_state.upto) are indexed together, later: when enough are
 * waiting, shortly after a write, before any full-text search, and when the store opens or closes.
 * One commit then writes one FTS segment for many rows instead of one per row.
 *
 * Row ids only grow (SQLite's max(rowid)+1), except when the newest rows are deleted: after a
 * delete the watermark is lowered to the highest id left, so a reused id is indexed too.
 */
import type Database from 'better-sqlite3';
import { FTS_TABLE, INDEXED_SOURCES, indexInsertSql } from './search-layout.js';

export class FtsIndexer {
  private readonly steps;

  constructor(private readonly db: Database.Database) {
    this.steps = INDEXED_SOURCES.map((t) => ({
      pending: db.prepare(`SELECT (SELECT coalesce(max(id), 0) FROM ${t.table}) - upto AS n FROM fts_state WHERE name = ?`).pluck(),
      index: db.prepare(`${indexInsertSql(t, `r.id > (SELECT upto FROM fts_state WHERE name = ?)`)} ORDER BY r.id`),
      mark: db.prepare(`UPDATE fts_state SET upto = (SELECT coalesce(max(id), 0) FROM ${t.table}) WHERE name = ?`),
      lower: db.prepare(`UPDATE fts_state SET upto = min(upto, (SELECT coalesce(max(id), 0) FROM ${t.table})) WHERE name = ?`),
      name: t.table,
    }));
  }

  /** How many ids wait above the watermarks (an upper bound on the rows to index). */
  pending(): number {
    return this.steps.reduce((n, s) => n + Math.max(0, s.pending.get(s.name) as number), 0);
  }

  /** Indexes every waiting row. Must run inside a write transaction. Returns the rows indexed. */
  flush(): number {
    let rows = 0;
    for (const s of this.steps) {
      if ((s.pending.get(s.name) as number) <= 0) continue;
      rows += s.index.run(s.name).changes;
      s.mark.run(s.name);
    }
    return rows;
  }

  /** After deleting rows: keeps the watermarks at or below the highest remaining ids. */
  afterDelete(): void {
    for (const s of this.steps) s.lower.run(s.name);
  }
}

/** Indexes every row again from the tables (repair). Must run inside a write transaction. */
export function rebuildSearchIndex(db: Database.Database): void {
  db.prepare(`INSERT INTO ${FTS_TABLE} (${FTS_TABLE}) VALUES ('delete-all')`).run();
  for (const s of INDEXED_SOURCES) {
    db.prepare(indexInsertSql(s, '1')).run();
    db.prepare(`UPDATE fts_state SET upto = (SELECT coalesce(max(id), 0) FROM ${s.table}) WHERE name = ?`).run(s.table);
  }
}
