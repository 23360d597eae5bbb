/** Shared helpers for the store tests: event factory, a steady clock, temporary databases. */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach } from 'vitest';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import { openStore, type OpenStoreOptions, type SqliteStore } from '../../src/store/sqlite-store.js';
import type { SearchAnswer, SearchEvidence } from '../../src/store/types.js';
import { tempDir } from '../helpers/temp.js';

export const CWD = '/home/dev/app';
const T0 = Date.parse('2025-03-01T10:00:00.000Z');

/** The n-th second after a fixed start, as an ISO time. */
export function at(n: number): string {
  return new Date(T0 + n * 1000).toISOString();
}

let seq = 0;

/** A valid event; `kind` and anything else can be overridden. */
export function ev(over: Partial<CaptureEvent> & { kind: CaptureEvent['kind'] }): CaptureEvent {
  seq++;
  return {
    host: 'claude-code',
    source: 'hook',
    sessionId: 'sess-1',
    cwd: CWD,
    at: at(seq),
    ...over,
  };
}

export function bash(command: string, output: string, over: Partial<CaptureEvent> = {}): CaptureEvent {
  return ev({
    kind: 'tool_result',
    toolName: 'Bash',
    toolInput: { command },
    toolResponse: { stdout: output, stderr: '', exitCode: 0 },
    ...over,
  });
}

export function prompt(text: string, over: Partial<CaptureEvent> = {}): CaptureEvent {
  return ev({ kind: 'prompt', prompt: text, ...over });
}

export function dbPath(): string {
  return join(tempDir('store'), 'claude-mem.db');
}

/** A fresh store in a temporary directory; project identity is the cwd unless a test says otherwise. */
export function openTemp(opts: OpenStoreOptions = {}, path = dbPath()): SqliteStore {
  return openStore(path, { projectFor: (cwd) => cwd, ...opts });
}

/**
 * The stores a test file opens, each closed after its test: `const { store, track } = useTempStore()`.
 * `store()` opens a fresh one (as openTemp does); `track()` takes one opened otherwise.
 */
export function useTempStore(): { store: (opts?: OpenStoreOptions, path?: string) => SqliteStore; track: (s: SqliteStore) => SqliteStore } {
  const open: SqliteStore[] = [];
  afterEach(() => {
    while (open.length) open.pop()!.close();
  });
  const track = (s: SqliteStore): SqliteStore => {
    open.push(s);
    return s;
  };
  return { track, store: (opts = {}, path) => track(openTemp(opts, path)) };
}

/** Rows straight from the file, through a separate read-only connection. */
export function query<T = Record<string, unknown>>(store: SqliteStore, sql: string, ...params: unknown[]): T[] {
  const db = new Database(store.path, { readonly: true });
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}

/** Every evidence row of a search answer, in result order. */
export function evidence(a: SearchAnswer): SearchEvidence[] {
  return a.results.flatMap((r) => r.turns.flatMap((t) => t.evidence));
}
