/**
 * Group commit for POST /api/events. Hooks send one event per request; committing each on its
 * own makes SQLite's commit the bottleneck. Requests that arrive in the same event-loop turn are
 * stored in one transaction and each caller still gets its own result (or the same error), never
 * before the commit.
 */
import type { CaptureEvent } from '../shared/capture-event.js';
import { isBusyError } from './busy.js';
import { storageProblem } from '../store/errors.js';
import type { IngestResult, MemoryStore } from '../store/types.js';

interface Job {
  events: CaptureEvent[];
  resolve(result: IngestResult): void;
  reject(err: unknown): void;
}

/** Upper bound of events per shared transaction, so one turn never holds the lock for long. */
const MAX_GROUP_EVENTS = 5000;

export class IngestBatcher {
  private queue: Job[] = [];
  private scheduled = false;

  constructor(private readonly store: MemoryStore) {}

  submit(events: CaptureEvent[]): Promise<IngestResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ events, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length) {
      const group: Job[] = [];
      let count = 0;
      while (this.queue.length && (group.length === 0 || count + this.queue[0].events.length <= MAX_GROUP_EVENTS)) {
        const job = this.queue.shift() as Job;
        group.push(job);
        count += job.events.length;
      }
      this.run(group);
    }
  }

  /**
   * A caller hears "stored" only after the transaction holding its events committed. The group
   * shares one transaction; if it fails on the database's account (busy, disk full, read-only)
   * nothing of it was committed and every caller gets the error. If it fails on one event's
   * account, each batch is stored on its own, and each caller gets its own result or error.
   */
  private run(group: Job[]): void {
    if (group.length > 1 && this.store.ingestMany) {
      let results: IngestResult[] | undefined;
      try {
        results = this.store.ingestMany(group.map((j) => j.events));
      } catch (err) {
        if (isBusyError(err) || storageProblem(err)) {
          for (const job of group) job.reject(err);
          return;
        }
      }
      if (results) {
        group.forEach((job, i) => job.resolve(results[i]));
        return;
      }
    }
    for (const job of group) {
      let result: IngestResult;
      try {
        result = this.store.ingest(job.events);
      } catch (err) {
        job.reject(err);
        continue;
      }
      job.resolve(result);
    }
  }
}
