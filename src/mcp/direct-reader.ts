/**
 * MemoryReader straight from the database file, for when the worker is down or slow.
 * Reads open the store read-only (a WAL reader never blocks the worker's writes). A save opens it
 * read-write: SQLite serializes it with the worker through its busy timeout, and the agent gets
 * the new id right away, which a spooled event could not give.
 * The store is opened per call and closed after: calls are rare, and no handle lingers.
 */
import { existsSync } from 'node:fs';
import type { DataPaths } from '../shared/paths.js';
import type {
  ContextQuery, ContextResult, MemoryStore, Observation, SaveMemoryInput, SearchAnswer, SearchQuery, TimelineItem, TimelineQuery,
} from '../store/types.js';
import type { Answer, MemoryReader } from './reader.js';

export class DirectReader implements MemoryReader {
  constructor(private readonly paths: DataPaths, private readonly currentProject: () => string) {}

  /** Runs fn on a freshly opened store; `empty` answers when no database exists yet. */
  private async with<T>(readonly: boolean, fn: (store: MemoryStore) => T, empty?: () => T): Promise<Answer<T>> {
    if (readonly && empty && !existsSync(this.paths.db)) return { value: empty(), via: 'database' };
    // Loaded on demand: the worker-path never pays for better-sqlite3.
    const { openStore } = await import('../store/sqlite-store.js');
    const store = openStore(this.paths.db, { readonly });
    try {
      return { value: fn(store), via: 'database' };
    } finally {
      store.close();
    }
  }

  search(q: SearchQuery): Promise<Answer<SearchAnswer>> {
    return this.with(true, (s) => s.search(q), (): SearchAnswer => ({ results: [], project: q.project ?? null, widened: false }));
  }

  timeline(q: TimelineQuery): Promise<Answer<TimelineItem[]>> {
    return this.with(true, (s) => s.timeline(q), () => []);
  }

  getObservations(ids: number[]): Promise<Answer<Observation[]>> {
    return this.with(true, (s) => s.getObservations(ids), () => []);
  }

  save(input: SaveMemoryInput): Promise<Answer<Observation>> {
    return this.with(false, (s) => s.saveMemory(input));
  }

  context(q: ContextQuery): Promise<Answer<ContextResult>> {
    return this.with(true, (s) => s.context(q), (): ContextResult => ({
      project: q.project ?? this.currentProject(), text: '', observationIds: [], summaryId: null, approxTokens: 0,
    }));
  }
}
