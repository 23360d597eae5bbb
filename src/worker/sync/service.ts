/**
 * Sync inside the worker: pushes shortly after events are stored, pulls on a schedule and just
 * before session-start context (bounded by the hook's budget), backs off while the database is
 * unreachable, and catches up in batches after time offline. Hooks never wait on it beyond that
 * bound: capture goes to SQLite whatever the network does.
 */
import type { DataPaths } from '../../shared/paths.js';
import type { Logger } from '../logger.js';
import { clientConfig, configStamp, readConnection, readSyncConfig, type SyncConfig } from './config.js';
import { deviceId, pullAll, pushAll, type PullTotals, type PushTotals, type SyncStore } from './engine.js';
import { Remote } from './remote.js';

const PUSH_DELAY_MS = 300;
/** Rows stored per pulled page in the worker: about 50 ms of the event loop on a slow machine. */
const WORKER_PULL_BATCH = 200;
/** Rest between pulled pages in the worker: a long catch-up takes at most about half a core. */
const WORKER_PULL_REST_MS = 40;
const MAX_BACKOFF_MS = 5 * 60_000;
const FIRST_BACKOFF_MS = 1000;
/** A pull this recent makes the one before context unnecessary. */
const FRESH_PULL_MS = 3000;

export interface CycleResult {
  push: PushTotals;
  pull: PullTotals;
}

interface SyncServiceOptions {
  paths: DataPaths;
  store: SyncStore;
  logger: Logger;
  pullIntervalMs: number;
  /** Rows per pulled page (the worker's default keeps its event loop free; the CLI takes bigger ones). */
  pullBatch?: number;
}

export class SyncService {
  private remote: Remote | undefined;
  private remoteStamp = '';
  private chain: Promise<unknown> = Promise.resolve();
  private pushTimer: NodeJS.Timeout | null = null;
  private pullTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  private retryAt = 0;
  private lastPullMs = 0;
  private stopped = false;

  constructor(private readonly o: SyncServiceOptions) {}

  start(): void {
    this.schedulePull(1000);
  }

  /** New local rows: push them soon (unless backing off). */
  kick(): void {
    if (this.stopped || this.pushTimer || Date.now() < this.retryAt) return;
    this.pushTimer = setTimeout(() => {
      this.pushTimer = null;
      void this.run('push').catch(() => {});
    }, PUSH_DELAY_MS);
    this.pushTimer.unref();
  }

  /** A full round now (sync now); throws what failed. */
  now(): Promise<CycleResult | null> {
    return this.run('both', Infinity, true);
  }

  /** Pulls before session-start context for at most `budgetMs`; never throws, never waits longer. */
  async beforeContext(budgetMs: number): Promise<void> {
    if (this.stopped || Date.now() < this.retryAt || Date.now() - this.lastPullMs < FRESH_PULL_MS) return;
    if (!this.configured()) return;
    const pull = this.run('pull', Date.now() + budgetMs).catch(() => null);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([pull, new Promise((r) => (timer = setTimeout(r, budgetMs)))]);
    clearTimeout(timer);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.pushTimer) clearTimeout(this.pushTimer);
    if (this.pullTimer) clearTimeout(this.pullTimer);
    await this.chain.catch(() => {});
    await this.remote?.close();
    this.remote = undefined;
  }

  /** For status: the backoff in force. */
  backoff(): { failures: number; retryAt: string | null } {
    return { failures: this.failures, retryAt: this.retryAt > Date.now() ? new Date(this.retryAt).toISOString() : null };
  }

  private configured(): SyncConfig | undefined {
    try {
      const c = readSyncConfig(this.o.paths);
      return c && !c.paused ? c : undefined;
    } catch {
      return undefined;
    }
  }

  private schedulePull(ms: number): void {
    if (this.stopped) return;
    if (this.pullTimer) clearTimeout(this.pullTimer);
    this.pullTimer = setTimeout(() => {
      this.pullTimer = null;
      void this.run('both').catch(() => {}).finally(() => this.schedulePull(this.nextDelay()));
    }, ms);
    this.pullTimer.unref();
  }

  private nextDelay(): number {
    return Math.max(this.o.pullIntervalMs, this.retryAt - Date.now());
  }

  /** Rounds run one at a time, in the order asked. */
  private run(what: 'push' | 'pull' | 'both', deadline = Infinity, loud = false): Promise<CycleResult | null> {
    const next = this.chain.then(() => this.round(what, deadline, loud));
    this.chain = next.catch(() => {});
    return next;
  }

  private async round(what: 'push' | 'pull' | 'both', deadline: number, loud: boolean): Promise<CycleResult | null> {
    if (this.stopped) return null;
    const config = this.configured();
    if (!config) {
      if (loud) {
        const c = readSyncConfig(this.o.paths);
        if (c?.paused) throw new Error("sync is paused; 'claude-mem sync resume' starts it again");
        throw new Error("sync is not set up; run 'claude-mem sync setup <postgres-url>'");
      }
      await this.drop();
      return null;
    }
    if (!loud && Date.now() < this.retryAt) return null;
    const store = this.o.store;
    const empty: PullTotals = { pulled: 0, stored: 0, duplicates: 0, skipped: 0, partial: false };
    try {
      const remote = await this.connection(config);
      const device = deviceId(store);
      const push = what === 'pull' ? { pushed: 0, stored: 0 } : await pushAll(store, remote, device);
      const pull = what === 'push' ? empty : await pullAll(store, remote, device, deadline, this.o.pullBatch ?? WORKER_PULL_BATCH,
        this.o.pullBatch ? 0 : WORKER_PULL_REST_MS);
      if (what !== 'push') this.lastPullMs = Date.now();
      this.failures = 0;
      this.retryAt = 0;
      store.setSyncState({ last_ok_at: new Date().toISOString(), last_error: null, last_error_at: null });
      if (push.pushed || pull.pulled) this.o.logger.info('sync', { pushed: push.pushed, pulled: pull.pulled, storedFromPull: pull.stored });
      return { push, pull };
    } catch (err) {
      await this.drop();
      this.failures++;
      this.retryAt = Date.now() + Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.min(this.failures - 1, 20));
      const message = errorText(err);
      try {
        store.setSyncState({ last_error: message, last_error_at: new Date().toISOString() });
      } catch {
        // The store itself failing is reported by the capture path.
      }
      this.o.logger.warn('sync failed; retrying later', { error: message, retryInMs: this.retryAt - Date.now() });
      throw err;
    }
  }

  private async connection(config: SyncConfig): Promise<Remote> {
    const stamp = configStamp(this.o.paths);
    if (this.remote && stamp === this.remoteStamp) return this.remote;
    await this.drop();
    const remote = await Remote.connect(clientConfig(readConnection(this.o.paths)));
    try {
      await remote.migrate();
      await remote.registerDevice(deviceId(this.o.store), config.deviceName);
    } catch (err) {
      await remote.close();
      throw err;
    }
    this.remote = remote;
    this.remoteStamp = stamp;
    return remote;
  }

  private async drop(): Promise<void> {
    const r = this.remote;
    this.remote = undefined;
    await r?.close();
  }
}

/** An error as status shows it: the server's message and code, never the connection string. */
export function errorText(err: unknown): string {
  const e = err as { message?: string; code?: string };
  const text = e?.message || String(err);
  return e?.code && !text.includes(e.code) ? `${text} (${e.code})` : text;
}
