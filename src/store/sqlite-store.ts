/**
 * The SQLite implementation of MemoryStore (better-sqlite3, WAL). One connection per process;
 * readers in other processes (MCP server, CLI search) open the same file read-only.
 */
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { CaptureEvent } from '../shared/capture-event.js';
import { DEFAULT_MEMORY_HOST, type HostId } from '../shared/hosts.js';
import { sanitizeEvent } from '../shared/privacy.js';
import { observe, summarize } from '../observer/index.js';
import { projectFor } from '../worker/project.js';
import { addDeadLetter, listDeadLetters, readCheckpoint, writeCheckpoint } from './checkpoints.js';
import { buildContext, emptyContext } from './context.js';
import { ContextGiven, contextForSession } from './context-prompt.js';
import { isBusyError, isEnvironmentError, openError, StoreError } from './errors.js';
import { EventFailure, Ingestor, manualSessionId, type IngestDeps } from './ingest.js';
import { readTraffic, writeKindActivity } from './traffic.js';
import { currentVersion, migrate, SCHEMA_VERSION } from './migrations.js';
import {
  OBSERVATION_COLUMNS, PROMPT_COLUMNS, toObservation, toPrompt, toSession,
  type ObservationDbRow, type PromptDbRow, type SessionDbRow,
} from './rows.js';
import { FtsIndexer, rebuildSearchIndex } from './fts-index.js';
import { registerSearchFunctions } from './search-layout.js';
import { Searcher } from './search.js';
import { StatementCache } from './statements.js';
import { databaseWriteProblems, describeWriteProblem } from './writable.js';
import { Timeline } from './timeline.js';
import { ViewerReads } from './viewer-reads.js';
import {
  applyPinVersions, markPinsSynced, unsyncedPins, type PinVersion,
  countOutbox, markTombstonesSynced, pulledCounts, readOutbox, readSyncState, rememberDevices, unsyncedTombstones, writeSyncState,
  type OutboxEvent, type SyncDevice, type SyncTombstone,
} from './sync-rows.js';
import { Forgetter, purgeDatabase } from './forget.js';
import type { ForgetTarget } from './forget-plan.js';
import { Pins } from './pins.js';
import { exportJsonl, exportMarkdown, type ExportFilter } from './export.js';
import { Importer, type ImportResult } from './import.js';
import type {
  ContextQuery, ContextResult, DeadLetter, ForgetResult, IngestResult, MemoryStore, Observation, PinnedObservation, PromptRow,
  PurgeResult, ReplicaEvent, ReplicaResult, SaveMemoryInput, SearchAnswer, SearchQuery, SessionRow, StoreStats, TimelineItem,
  TimelineQuery, TombstoneRow, TranscriptCheckpoint,
} from './types.js';

export { SCHEMA_VERSION } from './migrations.js';
export { StoreError } from './errors.js';

export interface OpenStoreOptions extends Partial<IngestDeps> {
  /** Open for reading only (no migrations, no writes): MCP and CLI readers. */
  readonly?: boolean;
  /** How long a statement waits for another connection's lock (default 5000 ms). */
  busyTimeoutMs?: number;
}

const WAL_AUTOCHECKPOINT_PAGES = 8000;
// Search indexing is batched (fts-index.ts): at once when this many rows wait, else shortly after.
const INDEX_BATCH_ROWS = 256;
const ANALYSIS_LIMIT_ROWS = 1000;
const INDEX_DELAY_MS = 200;
const QUIET_BUSY_MS = 200;
const MAX_IDS = 500;

/**
 * Indexes rows a previous process wrote but did not index (it crashed, or was killed). Best effort:
 * if another process holds the write lock, that one or the next write does it.
 */
function indexSafely(db: Database.Database, indexer: FtsIndexer): void {
  if (indexer.pending() === 0) return;
  try {
    db.transaction(() => indexer.flush()).immediate();
  } catch (err) {
    if (!isBusyError(err)) throw err;
  }
}

function idList(ids: readonly number[]): number[] {
  return [...new Set(ids.filter((n) => Number.isSafeInteger(n) && n > 0))].slice(0, MAX_IDS);
}

export class SqliteStore implements MemoryStore {
  readonly path: string;
  private readonly db: Database.Database;
  private readonly stmts: StatementCache;
  private readonly deps: IngestDeps;
  private ingestor?: Ingestor;
  private manyTxn?: Database.Transaction<(bs: unknown[][]) => IngestResult[]>;
  private ingestTxn?: Database.Transaction<(evs: unknown[], cp: TranscriptCheckpoint | null, isolated: boolean) => IngestResult>;
  private readonly searcher: Searcher;
  private readonly timelineReader: Timeline;
  private viewerReads?: ViewerReads;
  private readonly contextGiven: ContextGiven;
  private readonly pins: Pins;
  private forgetter?: Forgetter;
  private readonly indexer: FtsIndexer | null;
  private indexTimer: NodeJS.Timeout | null = null;
  private written = 0; // events stored since the last index flush (an estimate: cheap to keep)
  /** Newest capture time per host not yet written to host_activity (written with the index). */
  private readonly activity = new Map<HostId, string>();
  /** The same per host and kind (traffic.ts kindKey), written with it. */
  private readonly kindActivity = new Map<string, string>();
  private closed = false;

  constructor(dbPath: string, opts: OpenStoreOptions = {}) {
    this.path = dbPath;
    this.deps = {
      sanitize: opts.sanitize ?? sanitizeEvent,
      observe: opts.observe ?? observe,
      summarize: opts.summarize ?? summarize,
      projectFor: opts.projectFor ?? projectFor,
      now: opts.now ?? (() => new Date()),
    };
    const readonly = opts.readonly === true;
    let db: Database.Database | undefined;
    let indexer: FtsIndexer | null = null;
    try {
      const created = !readonly && !existsSync(dbPath);
      if (created) mkdirSync(dirname(dbPath), { recursive: true, mode: 0o700 });
      if (!readonly) refuseUnwritable(dbPath);
      db = new Database(dbPath, { readonly, fileMustExist: readonly, timeout: opts.busyTimeoutMs ?? 5000 });
      if (created) chmodSync(dbPath, 0o600);
      configureConnection(db, dbPath, readonly);
      // Reading the schema catches a damaged file now, with a clear error, not at the first query.
      db.prepare('SELECT count(*) FROM sqlite_master').get();
      if (readonly) {
        const v = currentVersion(db);
        if (v > SCHEMA_VERSION) {
          throw new StoreError('store_newer_schema', `The database ${dbPath} has schema version ${v}, newer than this claude-mem (${SCHEMA_VERSION}).`, dbPath);
        }
        if (v < SCHEMA_VERSION) {
          throw new StoreError('store_open_failed', `The database ${dbPath} has schema version ${v}, expected ${SCHEMA_VERSION}; start the worker to migrate it.`, dbPath);
        }
      } else {
        migrate(db);
        indexer = new FtsIndexer(db);
        indexSafely(db, indexer);
      }
    } catch (err) {
      try {
        db?.close();
      } catch {
        // Already failing; the open error is what matters.
      }
      throw openError(err, dbPath);
    }
    this.db = db;
    this.indexer = indexer;
    this.stmts = new StatementCache(db);
    this.searcher = new Searcher(this.stmts, this.deps.now);
    this.timelineReader = new Timeline(this.stmts);
    this.contextGiven = new ContextGiven(this.stmts, this.deps.now);
    this.pins = new Pins(this.stmts, this.deps.now);
  }

  private get forgetting(): Forgetter {
    this.forgetter ??= new Forgetter(this.db, this.stmts, {
      resummarize: (id) => this.ingestion.resummarize(id),
      afterDelete: () => this.indexer?.afterDelete(),
      now: this.deps.now,
    });
    return this.forgetter;
  }

  forget(target: ForgetTarget, opts: { dryRun?: boolean } = {}): ForgetResult {
    if (!target || typeof target !== 'object') throw new StoreError('invalid_input', 'a forget target is required');
    // A query must see every row, the ones still waiting for the index included.
    if (target.query && this.indexer) this.db.transaction(() => this.indexer!.flush()).immediate();
    return this.forgetting.forget(target, opts.dryRun === true);
  }

  purge(): PurgeResult {
    this.flushSearchIndex();
    const size = (p: string): number => {
      try {
        return statSync(p).size;
      } catch {
        return 0;
      }
    };
    return purgeDatabase(this.db, () => ({ db: size(this.path), wal: size(`${this.path}-wal`) }));
  }

  pin(observationId: number): PinnedObservation {
    const pin = this.db.transaction(() => this.pins.pin(observationId)).immediate();
    return { ...pin, observation: this.getObservations([observationId])[0] };
  }

  unpin(observationId: number): boolean {
    return this.pins.unpin(observationId);
  }

  listPins(project?: string): PinnedObservation[] {
    const pins = this.pins.list(project || undefined);
    const byId = new Map<number, Observation>();
    for (let i = 0; i < pins.length; i += MAX_IDS) {
      for (const o of this.getObservations(pins.slice(i, i + MAX_IDS).map((p) => p.observationId))) byId.set(o.id, o);
    }
    return pins.flatMap((p) => (byId.has(p.observationId) ? [{ ...p, observation: byId.get(p.observationId)! }] : []));
  }

  listTombstones(opts: { since?: string; limit?: number; afterKey?: string } = {}): TombstoneRow[] {
    const limit = Math.min(Math.max(Math.trunc(opts.limit ?? 1000), 1), 100_000);
    return this.stmts.get(`SELECT key, kind, project, created_at AS createdAt FROM tombstones
      WHERE (@since IS NULL OR created_at > @since) AND (@after IS NULL OR key > @after)
      ORDER BY key LIMIT @limit`).all({ since: opts.since ?? null, after: opts.afterKey ?? null, limit }) as TombstoneRow[];
  }

  /** Imports records of an export (import.ts) in one transaction. */
  importRecords(records: readonly unknown[]): ImportResult {
    if (!Array.isArray(records)) throw new StoreError('invalid_input', 'records must be an array');
    const result = new Importer(this.db, this.stmts, this.forgetting, this.deps.now).importRecords(records);
    this.scheduleIndexing();
    return result;
  }

  /** An export's lines (export.ts), read as they are handed out. */
  exportLines(filter: ExportFilter, format: 'jsonl' | 'markdown'): Generator<string> {
    return format === 'markdown' ? exportMarkdown(this.db, filter, this.deps.now()) : exportJsonl(this.db, filter, currentVersion(this.db), this.deps.now());
  }

  applyTombstones(rows: readonly { key: string; project?: string | null; createdAt?: string }[]): number {
    if (!Array.isArray(rows)) throw new StoreError('invalid_input', 'tombstones must be an array');
    return this.db.transaction(() => this.forgetting.applyTombstones(rows)).immediate();
  }

  private get ingestion(): Ingestor {
    this.ingestor ??= new Ingestor(this.db, this.deps);
    return this.ingestor;
  }

  ingest(events: CaptureEvent[]): IngestResult {
    return this.runIngest(events, null);
  }

  ingestWithCheckpoint(events: CaptureEvent[], checkpoint: TranscriptCheckpoint): IngestResult {
    return this.runIngest(events, checkpoint);
  }

  /**
   * Several callers' batches in ONE transaction, each with its own result: the worker groups the
   * requests that arrive in the same tick, so concurrent hooks share a commit. All or nothing:
   * when anything fails (an event on its own account included) nothing is committed and the error
   * is thrown, so the caller can tell every batch exactly what happened to it (ingest-batcher.ts
   * then stores them one by one).
   */
  ingestMany(batches: CaptureEvent[][]): IngestResult[] {
    if (batches.length === 1) return [this.ingest(batches[0])];
    const activity = new Map<string, string>();
    this.manyTxn ??= this.db.transaction((bs: unknown[][]) =>
      bs.map((b) => {
        const result = this.ingestion.ingest(b, false);
        for (const [host, at] of this.ingestion.activity) if (at > (activity.get(host) ?? '')) activity.set(host, at);
        return result;
      }),
    );
    const results = this.manyTxn.immediate(batches);
    for (const [host, at] of activity) {
      if (at > (this.activity.get(host as HostId) ?? '')) this.activity.set(host as HostId, at);
    }
    this.written += results.reduce((n, r) => n + r.stored, 0);
    this.scheduleIndexing();
    return results;
  }

  /**
   * One IMMEDIATE transaction for the batch (and the checkpoint). The fast path has no per-event
   * savepoints; if an event fails on its own account, the batch is rolled back and run again
   * isolated, so that event alone is rejected.
   */
  private runIngest(events: CaptureEvent[], checkpoint: TranscriptCheckpoint | null): IngestResult {
    if (!Array.isArray(events)) throw new StoreError('invalid_input', 'events must be an array');
    this.ingestTxn ??= this.db.transaction((evs: unknown[], cp: TranscriptCheckpoint | null, isolated: boolean) => {
      const result = this.ingestion.ingest(evs, isolated);
      if (cp) this.writeCheckpoint(cp);
      // A big batch is indexed in its own transaction; small writes wait for the timer.
      this.written += result.stored;
      if (this.indexer && this.written >= INDEX_BATCH_ROWS && this.indexer.pending() >= INDEX_BATCH_ROWS) {
        this.indexer.flush();
        this.written = 0;
      }
      return result;
    });
    let result: IngestResult;
    try {
      result = this.ingestTxn.immediate(events, checkpoint, false);
    } catch (err) {
      if (!(err instanceof EventFailure)) throw err;
      result = this.ingestTxn.immediate(events, checkpoint, true);
    }
    for (const [host, at] of this.ingestion.activity) {
      if (at > (this.activity.get(host) ?? '')) this.activity.set(host, at);
    }
    for (const [key, at] of this.ingestion.kindActivity) {
      if (at > (this.kindActivity.get(key) ?? '')) this.kindActivity.set(key, at);
    }
    this.scheduleIndexing();
    return result;
  }

  /**
   * Does the deferred work now: indexes every row waiting for search and records the hosts'
   * latest activity. Returns how many rows were indexed.
   */
  flushSearchIndex(): number {
    if (this.indexTimer) clearTimeout(this.indexTimer);
    this.indexTimer = null;
    const indexer = this.indexer;
    if (!indexer || this.closed) return 0;
    const activity = [...this.activity];
    const kinds = new Map(this.kindActivity);
    if (!activity.length && indexer.pending() === 0) return 0;
    const rows = this.db.transaction(() => {
      const upsert = this.stmts.get(`INSERT INTO host_activity (host, last_event_at) VALUES (?, ?)
        ON CONFLICT (host) DO UPDATE SET last_event_at = max(last_event_at, excluded.last_event_at)`);
      for (const [host, at] of activity) upsert.run(host, at);
      writeKindActivity(this.stmts, kinds);
      return indexer.flush();
    }).immediate();
    this.activity.clear();
    this.kindActivity.clear();
    this.written = 0;
    return rows;
  }

  /** Sync: local events after `afterId`, oldest first (sync/engine.ts pushes them). */
  syncOutbox(afterId: number, limit: number): OutboxEvent[] {
    return readOutbox(this.stmts, afterId, limit);
  }

  syncPending(afterId: number): number {
    return countOutbox(this.stmts, afterId);
  }

  /**
   * Sync: stores events pulled from other devices, with the devices they came from and the
   * state to keep with them (the pull cursor), in one transaction: a crash cannot keep one
   * without the other.
   */
  applyReplica(entries: readonly ReplicaEvent[], devices: readonly SyncDevice[], state: Record<string, string | null>): ReplicaResult {
    const run = this.db.transaction((isolated: boolean) => {
      rememberDevices(this.stmts, devices);
      const r = this.ingestion.ingestReplica(entries, isolated);
      writeSyncState(this.stmts, state);
      return r;
    });
    // Without savepoints first (a third cheaper); a page with a bad event is stored again event by event.
    let result: ReplicaResult;
    try {
      result = run.immediate(false);
    } catch (err) {
      if (isEnvironmentError(err)) throw err;
      result = run.immediate(true);
    }
    this.written += result.stored;
    this.scheduleIndexing();
    return result;
  }

  /** Sync: tombstones forget wrote here that the sync database does not have yet. */
  syncTombstonesOut(limit: number): SyncTombstone[] {
    return unsyncedTombstones(this.stmts, limit);
  }

  markTombstonesSynced(keys: readonly string[]): void {
    this.db.transaction(() => markTombstonesSynced(this.stmts, keys)).immediate();
  }

  /** Sync: tombstones from other devices forget what they name here; kept with the pull cursor. */
  applyPulledTombstones(rows: readonly SyncTombstone[], state: Record<string, string | null>): number {
    return this.db.transaction(() => {
      const applied = rows.length ? this.forgetting.applyTombstones(rows) : 0;
      markTombstonesSynced(this.stmts, rows.map((r) => r.key));
      writeSyncState(this.stmts, state);
      return applied;
    }).immediate();
  }

  /** Sync: pins and unpins made here that the sync database does not have yet. */
  syncPinsOut(limit: number): PinVersion[] {
    return unsyncedPins(this.stmts, limit);
  }

  markPinsSynced(rows: readonly PinVersion[]): void {
    this.db.transaction(() => markPinsSynced(this.stmts, rows)).immediate();
  }

  /** Sync: pin versions from other devices (the greatest clock wins), kept with the pin cursor. */
  applyPulledPins(rows: readonly PinVersion[], state: Record<string, string | null>): number {
    return this.db.transaction(() => {
      const n = applyPinVersions(this.stmts, rows, this.deps.now().toISOString());
      writeSyncState(this.stmts, state);
      return n;
    }).immediate();
  }

  getSyncState(): Record<string, string> {
    return readSyncState(this.stmts);
  }

  setSyncState(patch: Record<string, string | null>): void {
    writeSyncState(this.stmts, patch);
  }

  syncDevices(): ReturnType<typeof pulledCounts> {
    return pulledCounts(this.stmts);
  }

  /** Rebuilds the search indexes from the tables (repair). */
  rebuildSearchIndex(): void {
    this.db.transaction(() => rebuildSearchIndex(this.db)).immediate();
  }

  /**
   * Indexing on the side of a search or a timer: waits only briefly for another writer, and
   * leaves the rows for the next try rather than fail the caller.
   */
  private indexQuietly(): void {
    if (!this.indexer || this.closed) return;
    const timeout = this.db.pragma('busy_timeout', { simple: true }) as number;
    this.db.pragma(`busy_timeout = ${Math.min(timeout, QUIET_BUSY_MS)}`);
    try {
      this.flushSearchIndex();
    } catch (err) {
      if (!isBusyError(err)) throw err;
      this.scheduleIndexing();
    } finally {
      this.db.pragma(`busy_timeout = ${timeout}`);
    }
  }

  private scheduleIndexing(): void {
    if (this.indexTimer || !this.indexer || this.closed) return;
    this.indexTimer = setTimeout(() => {
      this.indexTimer = null;
      try {
        this.indexQuietly();
      } catch {
        // Closing, or a disk error the next write will report: the rows are indexed later.
      }
    }, INDEX_DELAY_MS);
    this.indexTimer.unref();
  }

  private writeCheckpoint(cp: TranscriptCheckpoint): void {
    writeCheckpoint(this.stmts, cp, this.deps.now());
  }

  getCheckpoint(filePath: string): TranscriptCheckpoint | undefined {
    return readCheckpoint(this.stmts, filePath);
  }

  deleteCheckpoint(filePath: string): void {
    this.stmts.get('DELETE FROM transcript_files WHERE file_path = ?').run(filePath);
  }

  addDeadLetter(letter: DeadLetter): number {
    return addDeadLetter(this.stmts, letter, this.deps.now());
  }

  listDeadLetters(limit = 100): DeadLetter[] {
    return listDeadLetters(this.stmts, limit);
  }

  search(query: SearchQuery): SearchAnswer {
    this.indexQuietly();
    return this.searcher.search(query);
  }

  timeline(query: TimelineQuery): TimelineItem[] {
    return this.timelineReader.timeline(query);
  }

  viewer(): ViewerReads {
    this.viewerReads ??= new ViewerReads(this.stmts);
    return this.viewerReads;
  }

  getObservations(ids: number[]): Observation[] {
    const wanted = idList(ids);
    if (!wanted.length) return [];
    const rows = this.stmts
      .get(`SELECT ${OBSERVATION_COLUMNS} FROM observations o JOIN sessions s ON s.id = o.session_id
        WHERE o.id IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(wanted)) as ObservationDbRow[];
    const byId = new Map(rows.map((r) => [r.id, toObservation(r)]));
    return wanted.flatMap((id) => byId.get(id) ?? []);
  }

  getPrompts(ids: number[]): PromptRow[] {
    const wanted = idList(ids);
    if (!wanted.length) return [];
    const rows = this.stmts
      .get(`SELECT ${PROMPT_COLUMNS} FROM prompts p JOIN sessions s ON s.id = p.session_id
        WHERE p.id IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(wanted)) as PromptDbRow[];
    const byId = new Map(rows.map((r) => [r.id, toPrompt(r)]));
    return wanted.flatMap((id) => byId.get(id) ?? []);
  }

  getSession(host: HostId, hostSessionId: string): SessionRow | undefined {
    const r = this.stmts.get('SELECT * FROM sessions WHERE host = ? AND host_session_id = ?').get(host, hostSessionId) as
      | SessionDbRow
      | undefined;
    return r ? toSession(r) : undefined;
  }

  saveMemory(input: SaveMemoryInput): Observation {
    if (!input || typeof input.text !== 'string' || !input.text.trim()) throw new StoreError('invalid_input', 'text is required');
    const host = input.host ?? DEFAULT_MEMORY_HOST;
    const existing = input.hostSessionId ? this.getSession(host, input.hostSessionId) : undefined;
    const project = input.project || existing?.project || (input.cwd ? this.deps.projectFor(input.cwd) : '');
    if (!project) throw new StoreError('invalid_input', 'project or cwd is required to save a memory');
    const id = this.db.transaction(() => this.ingestion.saveMemory(input, project)).immediate();
    this.scheduleIndexing();
    return this.getObservations([id])[0];
  }

  context(query: ContextQuery): ContextResult {
    let project = query.project || (query.cwd ? this.deps.projectFor(query.cwd) : '');
    if (!project && query.hostSessionId) {
      const r = this.stmts
        .get('SELECT project FROM sessions WHERE host_session_id = @sid AND (@host IS NULL OR host = @host) LIMIT 1')
        .get({ sid: query.hostSessionId, host: query.host ?? null }) as { project: string } | undefined;
      project = r?.project ?? '';
    }
    if (!project) return emptyContext('');
    const q = { ...query, project };
    // A read-only reader (MCP without a worker) cannot record what it gave: the project block then.
    if (!this.indexer || !query.mode || !query.hostSessionId) return buildContext(this.stmts, q);
    if (query.mode === 'prompt') this.indexQuietly();
    return this.db.transaction(() => contextForSession(this.stmts, this.searcher, this.contextGiven, q)).immediate();
  }

  /**
   * True the first time it is asked for a session (and marks it): hosts that take memory once
   * per session (Grok, on its first tool call). A session not stored yet cannot be marked: true.
   */
  claimContext(host: HostId, hostSessionId: string): boolean {
    const r = this.stmts.get(`UPDATE sessions SET context_sent_at = ? WHERE host = ? AND host_session_id = ? AND context_sent_at IS NULL`)
      .run(this.deps.now().toISOString(), host, hostSessionId);
    if (r.changes === 1) return true;
    return !this.stmts.get('SELECT 1 FROM sessions WHERE host = ? AND host_session_id = ?').get(host, hostSessionId);
  }

  deleteProbeData(hostSessionId: string): number {
    return this.db
      .transaction(() => {
        const sessions = this.stmts
          .get(`SELECT id, probe FROM sessions WHERE host_session_id = @sid
            UNION SELECT c.id, c.probe FROM sessions c JOIN sessions p ON p.id = c.parent_session_id WHERE p.host_session_id = @sid`)
          .all({ sid: hostSessionId }) as { id: number; probe: number }[];
        let removed = 0;
        for (const s of sessions) {
          if (s.probe) {
            // Everything in the session came from probes: the cascade removes what they derived.
            removed += this.stmts.get('DELETE FROM events WHERE session_id = ? AND probe = 1').run(s.id).changes;
            this.stmts.get('DELETE FROM sessions WHERE id = ?').run(s.id);
            continue;
          }
          const probeEvents = `SELECT id FROM events WHERE session_id = @sid AND probe = 1`;
          this.stmts.get(`DELETE FROM observations WHERE session_id = @sid AND event_id IN (${probeEvents})`).run({ sid: s.id });
          this.stmts.get(`DELETE FROM prompts WHERE session_id = @sid AND event_id IN (${probeEvents})`).run({ sid: s.id });
          removed += this.stmts.get('DELETE FROM events WHERE session_id = ? AND probe = 1').run(s.id).changes;
        }
        this.indexer?.afterDelete();
        return removed;
      })
      .immediate();
  }

  stats(): StoreStats {
    const count = (table: string): number => (this.stmts.get(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const lastEventAtByHost: Partial<Record<HostId, string>> = {};
    const rows = this.stmts.get('SELECT host, last_event_at AS at FROM host_activity').all() as { host: HostId; at: string }[];
    for (const r of rows) lastEventAtByHost[r.host] = r.at;
    for (const [host, at] of this.activity) {
      if (at > (lastEventAtByHost[host] ?? '')) lastEventAtByHost[host] = at;
    }
    return {
      sessions: count('sessions'),
      prompts: count('prompts'),
      observations: count('observations'),
      summaries: count('summaries'),
      events: count('events'),
      deadLetters: count('dead_letters'),
      lastEventAtByHost,
      captureByHost: readTraffic(this.stmts, this.kindActivity),
      schemaVersion: currentVersion(this.db),
    };
  }

  quickCheck(): string {
    const rows = this.db.pragma('quick_check') as { quick_check: string }[];
    return rows.map((r) => r.quick_check).join('\n') || 'ok';
  }

  /** Moves the WAL into the main file (tests, backups, doctor). */
  checkpointWal(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  close(): void {
    if (this.closed) return;
    try {
      this.flushSearchIndex();
      // Keeps the query planner's statistics current. The limit bounds the rows ANALYZE reads
      // per index, so closing a large database stays cheap (SQLite's own advice for optimize).
      if (this.indexer) {
        this.db.pragma(`analysis_limit = ${ANALYSIS_LIMIT_ROWS}`);
        this.db.pragma('optimize');
      }
    } catch {
      // Indexed at the next open instead.
    }
    this.closed = true;
    this.db.close();
  }
}

/**
 * A writer that cannot write would accept nothing and still look healthy: refuse to open, naming
 * the file, so the worker's start error (and doctor) say what to fix.
 */
function refuseUnwritable(dbPath: string): void {
  const problems = databaseWriteProblems(dbPath);
  if (!problems.length) return;
  const ownFix = problems.some((p) => p.role === 'database' || p.role === 'directory')
    ? ` Give it back write access (chmod u+w ${problems.filter((p) => p.role === 'database' || p.role === 'directory').map((p) => `'${p.path}'`).join(' ')}), then run claude-mem doctor --fix.`
    : ' claude-mem doctor --fix repairs these files.';
  throw new StoreError('store_readonly', `The database cannot be written: ${problems.map(describeWriteProblem).join('; ')}.${ownFix}`, dbPath);
}

/** The settings every connection of the store runs with (the benchmark's plain-SQL baseline too). */
export function configureConnection(db: Database.Database, dbPath: string, readonly = false): void {
  if (!readonly) {
    const mode = db.pragma('journal_mode = WAL', { simple: true });
    if (String(mode).toLowerCase() !== 'wal') throw new StoreError('store_busy', `Cannot switch ${dbPath} to WAL mode (got ${String(mode)}).`, dbPath);
    db.pragma('synchronous = NORMAL');
    // Checkpoint (and fsync) every ~32 MB of WAL instead of every 4 MB: small commits are the
    // common case, and each checkpoint otherwise costs more than the commits in between.
    db.pragma(`wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
    db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
  }
  // The search index's SQL calls these (search-layout.ts).
  registerSearchFunctions(db);
  db.pragma('foreign_keys = ON');
  db.pragma('temp_store = MEMORY');
  db.pragma('cache_size = -32000');
}

/** Opens (creating and migrating when needed) the database at `dbPath`. */
export function openStore(dbPath: string, opts: OpenStoreOptions = {}): SqliteStore {
  return new SqliteStore(dbPath, opts);
}

export { manualSessionId };
