import type { IngestResult, MemoryStore } from '../../store/types.js';
import type { CaptureEvent } from '../../shared/capture-event.js';
import type { Logger } from '../logger.js';
import type { HealthBody } from '../../shared/worker-start.js';
import type { StorageFailure } from '../storage-health.js';

/** What route handlers may use. */
export interface RouteContext {
  store: MemoryStore;
  /** Stores a batch (group-committed with concurrent requests). */
  ingest(events: CaptureEvent[]): Promise<IngestResult>;
  logger: Logger;
  health(): HealthBody;
  /** Spool files waiting to be drained. */
  spoolDepth(): { files: number; bytes: number };
  /** The transcript watcher's state (watches, files, totals, config error). */
  transcripts?(): unknown;
  /** Asks the spool drain for an early pass (after an ingest failure). */
  kickDrain(): void;
  /** A write could not be committed (disk full, read-only, I/O): recorded for status and doctor. */
  storageFailed(err: unknown): void;
  /** The current episode of failing writes, if any. */
  storageState(): StorageFailure | null;
  /** The token budget of a context injection whose caller names none (settings.json, env). */
  contextTokens?(): number | undefined;
  /** A one-time link that signs a browser in to the viewer. */
  viewerLink?(): string;
  /** Starts a graceful shutdown once the current response is sent. */
  shutdown(reason: string): void;
  sync?: RouteSync;
}

/** Sync as the routes see it (sync/service.ts), when this worker's store can sync. */
interface RouteSync {
  status(): unknown;
  now(): Promise<unknown>;
  beforeContext(): Promise<void>;
  kick(): void;
}

interface RouteInput {
  body: unknown;
  query: URLSearchParams;
  /** The caller proved it holds the token (signed request or bearer token). */
  authenticated: boolean;
}

interface Reply {
  status?: number;
  body: unknown;
}

export interface Route {
  method: 'GET' | 'POST';
  path: string;
  /** false only for GET /api/health (which says more to an authenticated caller). */
  auth: boolean;
  /** 'events' uses the larger capture limit. */
  bodyLimit?: 'default' | 'events';
  /** Skip body parsing (shutdown takes none). */
  ignoreBody?: boolean;
  handle(input: RouteInput, ctx: RouteContext): Reply | Promise<Reply>;
  /** Runs after the response has been flushed. */
  after?(ctx: RouteContext): void;
}
