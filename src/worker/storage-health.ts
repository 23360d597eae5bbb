/**
 * Whether the worker's writes reach the database. A write that fails because of where the
 * database lives (disk full, read-only, I/O error) is answered with an error status, so hooks keep
 * their events in the spool; this remembers it for `status` and `doctor` (GET /api/stats) and logs
 * it once per episode instead of once per request.
 */
import type { Logger } from './logger.js';
import { storageProblem, type StorageProblem } from '../store/errors.js';

export interface StorageFailure {
  problem: StorageProblem;
  /** SQLite's code, e.g. SQLITE_FULL. */
  code: string;
  message: string;
  since: string;
  lastAt: string;
  /** Writes refused since `since` (requests and spool files). */
  failures: number;
}

const WHAT: Record<StorageProblem, string> = {
  full: 'the disk is full',
  readonly: 'the database is read-only',
  io: 'the disk reports I/O errors',
};

export class StorageHealth {
  private current: StorageFailure | null = null;

  constructor(private readonly logger: Logger) {}

  /** Records a failed write; returns false when `err` is not a storage problem. */
  failed(err: unknown): boolean {
    const problem = storageProblem(err);
    if (!problem) return false;
    const now = new Date().toISOString();
    const code = String((err as { code?: unknown })?.code ?? 'unknown');
    const message = (err as Error)?.message ?? String(err);
    if (this.current?.problem === problem) {
      Object.assign(this.current, { lastAt: now, failures: this.current.failures + 1, code, message });
      return true;
    }
    this.current = { problem, code, message, since: now, lastAt: now, failures: 1 };
    this.logger.error(`database writes fail: ${WHAT[problem]} (${code}: ${message}); captures stay in the spool until this is fixed`);
    return true;
  }

  /** A write went through: an episode of failures, if any, is over. */
  succeeded(): void {
    if (!this.current) return;
    this.logger.info(`database writes work again after ${this.current.failures} refused write(s) since ${this.current.since}`);
    this.current = null;
  }

  state(): StorageFailure | null {
    return this.current ? { ...this.current } : null;
  }
}
