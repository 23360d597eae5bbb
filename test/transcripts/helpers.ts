/** Shared helpers for the transcript tests: a real store in a temp dir, and row snapshots. */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { openStore, type SqliteStore } from '../../src/store/sqlite-store.js';
import type { MemoryStore } from '../../src/store/types.js';
import { compileSchema, type CompiledSchema } from '../../src/transcripts/engine.js';
import { processFile, type FileMemory, type FileTask, type ProcessOutcome } from '../../src/transcripts/processor.js';
import { loadShippedSchemas } from '../../src/transcripts/shipped.js';
import { tempDir } from '../helpers/temp.js';

export const FIXTURE_DIR = new URL('../fixtures/transcripts/', import.meta.url).pathname;

export function testStore(dir = tempDir('store')): SqliteStore & { dbPath: string } {
  const dbPath = join(dir, 'claude-mem.db');
  return Object.assign(openStore(dbPath), { dbPath });
}

export function shipped(name: string): CompiledSchema {
  const s = loadShippedSchemas().schemas[name];
  if (!s) throw new Error(`no shipped schema ${name}`);
  return compileSchema(name, s);
}

/** Reads a file to its end the way the watcher does; returns the summed outcome. */
export async function drain(
  store: MemoryStore, task: Omit<FileTask, 'watchName'> & { watchName?: string }, mem: FileMemory = {},
): Promise<ProcessOutcome & { calls: number }> {
  const sum = { status: 'idle', offset: 0, size: 0, compressed: false, bytes: 0, lines: 0, stored: 0, duplicates: 0, deadLetters: 0, calls: 0 } as ProcessOutcome & { calls: number };
  for (let i = 0; i < 10_000; i++) {
    const r = await processFile({ watchName: 'test', ...task }, store, mem, { timeBudgetMs: 5_000 });
    sum.calls++;
    Object.assign(sum, { status: r.status, offset: r.offset, size: r.size, compressed: r.compressed, error: r.error, reset: r.reset ?? sum.reset });
    sum.bytes += r.bytes; sum.lines += r.lines; sum.stored += r.stored; sum.duplicates += r.duplicates; sum.deadLetters += r.deadLetters;
    if (r.status !== 'more') return sum;
  }
  throw new Error('drain did not finish');
}

export interface Rows {
  events: Array<{ key: string; kind: string; payload: unknown }>;
  prompts: Array<{ session: string; nativeId: string | null; text: string }>;
  observations: Array<{ session: string; toolUseId: string | null; toolName: string | null; title: string }>;
  sessions: Array<{ host: string; id: string; isSubagent: number; parent: number | null }>;
}

/** Everything derived from capture, in a stable order (for run-to-run comparisons). */
export function rows(dbPath: string): Rows {
  const db = new Database(dbPath, { readonly: true });
  try {
    return {
      events: (db.prepare('SELECT idem_key AS key, kind, payload FROM events ORDER BY idem_key').all() as Array<{ key: string; kind: string; payload: string }>)
        .map((r) => ({ ...r, payload: JSON.parse(r.payload) as unknown })),
      prompts: db.prepare(`SELECT s.host_session_id AS session, p.native_id AS nativeId, p.text FROM prompts p JOIN sessions s ON s.id = p.session_id ORDER BY s.host_session_id, p.number`).all() as Rows['prompts'],
      observations: db.prepare(`SELECT s.host_session_id AS session, o.tool_use_id AS toolUseId, o.tool_name AS toolName, o.title FROM observations o JOIN sessions s ON s.id = o.session_id ORDER BY s.host_session_id, o.tool_use_id, o.title`).all() as Rows['observations'],
      sessions: db.prepare('SELECT host, host_session_id AS id, is_subagent AS isSubagent, parent_session_id AS parent FROM sessions ORDER BY host, host_session_id').all() as Rows['sessions'],
    };
  } finally {
    db.close();
  }
}

export function jsonl(records: unknown[]): string {
  return records.map((r) => JSON.stringify(r)).join('\n') + '\n';
}
