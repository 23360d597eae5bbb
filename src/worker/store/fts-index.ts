/**
 * Batched FTS indexing for observations and prompts. A captured event writes its row only; the
 * rows above the table's watermark (fts_state.upto) are indexed together, later: when enough are
 * waiting, shortly after a write, before any full-text search, and when the store opens or closes.
 * One commit then writes one FTS segment for many rows instead of one per row.
 *
 * Row ids only grow (SQLite's max(rowid)+1), except when the newest rows are deleted: after a
 * delete the watermark is lowered to the highest id left, so a reused id is indexed too.
 */
import type Database from 'better-sqlite3';
import { OBS_FTS_COLS, PROMPT_FTS_COLS } from './migrations.js';

const TABLES = [
  { name: 'observations', fts: 'observations_fts', cols: OBS_FTS_COLS },
  { name: 'prompts', fts: 'prompts_fts', cols: PROMPT_FTS_COLS },
] as const;

export class FtsIndexer {
  private readonly steps;

  constructor(private readonly db: Database.Database) {
    this.steps = TABLES.map((t) => ({
      pending: db.prepare(`SELECT (SELECT coalesce(max(id), 0) FROM ${t.name}) - upto AS n FROM fts_state WHERE name = ?`).pluck(),
      index: db.prepare(`INSERT INTO ${t.fts} (rowid, ${t.cols})
        SELECT id, ${t.cols} FROM ${t.name} WHERE id > (SELECT upto FROM fts_state WHERE name = ?) ORDER BY id`),
      mark: db.prepare(`UPDATE fts_state SET upto = (SELECT coalesce(max(id), 0) FROM ${t.name}) WHERE name = ?`),
      lower: db.prepare(`UPDATE fts_state SET upto = min(upto, (SELECT coalesce(max(id), 0) FROM ${t.name})) WHERE name = ?`),
      name: t.name,
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
