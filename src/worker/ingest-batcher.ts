/**
 * Group commit for POST /api/events. Hooks send one event per request; committing each on its
 * own makes SQLite's commit the bottleneck. Requests that arrive in the same event-loop turn are
 * stored in one transaction and each caller still gets its own result (or the same error).
 */
import type { CaptureEvent } from '../shared/capture-event.js';
import type { IngestResult, MemoryStore } from './store/types.js';

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

  private run(group: Job[]): void {
    try {
      const results = this.store.ingestMany && group.length > 1
        ? this.store.ingestMany(group.map((j) => j.events))
        : group.map((j) => this.store.ingest(j.events));
      group.forEach((job, i) => job.resolve(results[i]));
    } catch (err) {
      for (const job of group) job.reject(err);
    }
  }
}
