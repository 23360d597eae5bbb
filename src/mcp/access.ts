/**
 * Worker first, database second. A worker that is missing, refuses, or misses its deadline is
 * skipped for a short while (so every call does not pay the timeout again), is asked to start in
 * the background, and the call is answered from the database file instead.
 */
import type { DataPaths } from '../shared/paths.js';
import type {
  ContextQuery, ContextResult, Observation, SaveMemoryInput, SearchAnswer, SearchQuery, TimelineItem, TimelineQuery,
} from '../store/types.js';
import { debug } from './log.js';
import { WorkerUnavailableError, type Answer, type MemoryReader } from './reader.js';

interface FallbackOptions {
  /** Starts the worker without waiting for it. */
  kickWorker: () => void;
  /** How long to go straight to the database after the worker failed. */
  skipWorkerMs?: number;
  now?: () => number;
}

export class FallbackReader implements MemoryReader {
  private skipUntil = 0;
  private readonly skipMs: number;
  private readonly now: () => number;

  constructor(private readonly worker: MemoryReader, private readonly direct: MemoryReader, private readonly opts: FallbackOptions) {
    this.skipMs = opts.skipWorkerMs ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  private async run<T>(op: string, viaWorker: () => Promise<Answer<T>>, viaDb: () => Promise<Answer<T>>): Promise<Answer<T>> {
    if (this.now() >= this.skipUntil) {
      try {
        return await viaWorker();
      } catch (err) {
        if (!(err instanceof WorkerUnavailableError)) throw err;
        debug(`${op}: worker unavailable (${err.message}); reading the database`);
        this.skipUntil = this.now() + this.skipMs;
        this.opts.kickWorker();
      }
    }
    return viaDb();
  }

  search(q: SearchQuery): Promise<Answer<SearchAnswer>> {
    return this.run('search', () => this.worker.search(q), () => this.direct.search(q));
  }

  timeline(q: TimelineQuery): Promise<Answer<TimelineItem[]>> {
    return this.run('timeline', () => this.worker.timeline(q), () => this.direct.timeline(q));
  }

  getObservations(ids: number[]): Promise<Answer<Observation[]>> {
    return this.run('get_observations', () => this.worker.getObservations(ids), () => this.direct.getObservations(ids));
  }

  save(input: SaveMemoryInput): Promise<Answer<Observation>> {
    return this.run('save', () => this.worker.save(input), () => this.direct.save(input));
  }

  context(q: ContextQuery): Promise<Answer<ContextResult>> {
    return this.run('context', () => this.worker.context(q), () => this.direct.context(q));
  }
}

/** Fire-and-forget `ensureWorker`, at most once per interval; failures only reach the debug log. */
export function workerKicker(paths: DataPaths, intervalMs = 30_000): () => void {
  let last = -Infinity;
  return () => {
    const t = Date.now();
    if (t - last < intervalMs) return;
    last = t;
    void import('../shared/worker-start.js')
      .then(({ ensureWorker }) => ensureWorker({ paths, waitMs: 0 }))
      .then(() => debug(`asked the worker to start (data dir ${paths.root})`))
      .catch((err: unknown) => debug(`could not start the worker: ${(err as Error)?.message ?? String(err)}`));
  };
}
