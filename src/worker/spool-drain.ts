/**
 * Drains spool/ (capture that could not reach the worker) into the store: oldest file first,
 * a bounded amount of work per pass, yielding between files so requests are still served.
 * A file is removed only after its events are stored and its bad lines dead-lettered. A busy
 * database, or one that cannot be written at all (disk full, read-only, I/O error), leaves the
 * file for a later pass however long that lasts: the file is fine, its place is not. A file that
 * keeps failing for another reason is dead-lettered whole after a few passes, so one file never
 * blocks the rest.
 */
import { listSpool, readSpool, removeSpool } from '../shared/spool.js';
import type { CaptureEvent } from '../shared/capture-event.js';
import type { DeadLetter, MemoryStore } from '../store/types.js';
import type { Logger } from './logger.js';
import { isBusyError } from './busy.js';
import type { StorageHealth } from './storage-health.js';
import { storageProblem } from '../store/errors.js';
import { CaptureEventSchema, MAX_EVENTS_PER_BATCH } from '../shared/capture-event-schema.js';

interface DrainOptions {
  store: MemoryStore;
  spoolDir: string;
  logger: Logger;
  intervalMs?: number;
  maxFilesPerTick?: number;
  maxMsPerTick?: number;
  /** Non-transient failures of one file before it is dead-lettered whole. */
  poisonAfter?: number;
  /** Told about writes the database refuses (and about those that work again). */
  storage?: StorageHealth;
}

interface DrainStats {
  files: number;
  stored: number;
  duplicates: number;
  deadLettered: number;
  /** Files left for a later pass (busy or unwritable store, budget spent). */
  deferred: number;
}

const RAW_MAX = 64 * 1024;
const yieldLoop = () => new Promise<void>((r) => setImmediate(r));

export class SpoolDrain {
  private timer: NodeJS.Timeout | undefined;
  private kickTimer: NodeJS.Timeout | undefined;
  private running: Promise<DrainStats> | undefined;
  private stopped = false;
  private readonly failures = new Map<string, number>();
  private readonly o: Required<Omit<DrainOptions, 'storage'>> & Pick<DrainOptions, 'storage'>;

  constructor(opts: DrainOptions) {
    this.o = { intervalMs: 1000, maxFilesPerTick: 200, maxMsPerTick: 200, poisonAfter: 5, ...opts };
  }

  start(): void {
    this.stopped = false;
    void this.tick();
    this.timer = setInterval(() => void this.tick(), this.o.intervalMs);
    this.timer.unref();
  }

  /** Asks for an early pass (coalesced). */
  kick(delayMs = 250): void {
    if (this.stopped || this.kickTimer) return;
    this.kickTimer = setTimeout(() => {
      this.kickTimer = undefined;
      void this.tick();
    }, delayMs);
    this.kickTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearTimeout(this.kickTimer);
    this.kickTimer = undefined;
    await this.running;
  }

  /** One pass; concurrent calls share the pass in progress. */
  tick(): Promise<DrainStats> {
    if (!this.running) {
      this.running = this.pass().finally(() => {
        this.running = undefined;
      });
    }
    return this.running;
  }

  private async pass(): Promise<DrainStats> {
    const stats: DrainStats = { files: 0, stored: 0, duplicates: 0, deadLettered: 0, deferred: 0 };
    const files = listSpool(this.o.spoolDir);
    const t0 = Date.now();
    for (let i = 0; i < files.length; i++) {
      if (this.stopped || stats.files >= this.o.maxFilesPerTick || Date.now() - t0 > this.o.maxMsPerTick) {
        stats.deferred = files.length - i;
        break;
      }
      const outcome = this.drainFile(files[i].path, stats);
      if (outcome === 'blocked') {
        stats.deferred = files.length - i;
        break;
      }
      await yieldLoop();
    }
    if (stats.files || stats.deadLettered) this.o.logger.info('spool drained', { ...stats });
    return stats;
  }

  private drainFile(path: string, stats: DrainStats): 'done' | 'blocked' | 'failed' {
    let read;
    try {
      read = readSpool(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'done'; // drained meanwhile
      this.o.logger.warn('cannot read spool file', { path, err });
      return 'failed';
    }
    const letters: DeadLetter[] = read.bad.map((line) => this.letter(path, 'spool line is not a JSON object', line));
    const valid: CaptureEvent[] = [];
    for (const ev of read.events) {
      const r = CaptureEventSchema.safeParse(ev);
      if (r.success) valid.push(r.data as CaptureEvent);
      else {
        const i = r.error.issues[0];
        letters.push(this.letter(path, `invalid event: ${i.path.join('.') || '(root)'}: ${i.message}`, JSON.stringify(ev)));
      }
    }
    try {
      for (let i = 0; i < valid.length; i += MAX_EVENTS_PER_BATCH) {
        const batch = valid.slice(i, i + MAX_EVENTS_PER_BATCH);
        const res = this.o.store.ingest(batch);
        stats.stored += res.stored;
        stats.duplicates += res.duplicates;
        for (const rej of res.rejected) {
          letters.push(this.letter(path, `rejected (${rej.code}): ${rej.reason}`, JSON.stringify(batch[rej.index])));
        }
      }
      for (const l of letters) this.o.store.addDeadLetter(l);
    } catch (err) {
      if (isBusyError(err)) return 'blocked';
      if (storageProblem(err)) {
        this.o.storage?.failed(err);
        return 'blocked';
      }
      const n = (this.failures.get(path) ?? 0) + 1;
      this.failures.set(path, n);
      this.o.logger.error('spool file failed', { path, attempt: n, err });
      if (n < this.o.poisonAfter) return 'failed';
      return this.poison(path, err as Error, read.events, read.bad, stats);
    }
    removeSpool(path);
    this.failures.delete(path);
    this.o.storage?.succeeded();
    stats.files++;
    stats.deadLettered += letters.length;
    return 'done';
  }

  /** Gives up on a file that keeps failing: every line becomes a dead letter, then the file goes. */
  private poison(path: string, err: Error, events: unknown[], bad: string[], stats: DrainStats): 'done' | 'failed' {
    const reason = `ingest kept failing (${this.o.poisonAfter} passes): ${err.message}`;
    try {
      for (const ev of events) this.o.store.addDeadLetter(this.letter(path, reason, JSON.stringify(ev)));
      for (const line of bad) this.o.store.addDeadLetter(this.letter(path, 'spool line is not a JSON object', line));
    } catch (e) {
      this.o.logger.error('cannot dead-letter spool file; it stays', { path, err: e });
      return 'failed';
    }
    removeSpool(path);
    this.failures.delete(path);
    stats.files++;
    stats.deadLettered += events.length + bad.length;
    return 'done';
  }

  private letter(path: string, reason: string, raw: string): DeadLetter {
    return { source: 'spool', filePath: path, offset: null, reason, raw: raw.length > RAW_MAX ? raw.slice(0, RAW_MAX) : raw };
  }
}
