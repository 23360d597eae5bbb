/**
 * The one data-access interface the MCP tools use. Two implementations: through the worker's
 * HTTP API (the normal path) and straight from the database file (worker down or slow).
 */
import type {
  ContextQuery, ContextResult, Observation, SaveMemoryInput, SearchAnswer, SearchQuery, TimelineItem, TimelineQuery,
} from '../store/types.js';

/** Which path answered: shown in structured results so callers and tests can tell. */
export type Via = 'worker' | 'database';

export interface Answer<T> {
  value: T;
  via: Via;
}

export interface MemoryReader {
  search(query: SearchQuery): Promise<Answer<SearchAnswer>>;
  timeline(query: TimelineQuery): Promise<Answer<TimelineItem[]>>;
  getObservations(ids: number[]): Promise<Answer<Observation[]>>;
  save(input: SaveMemoryInput): Promise<Answer<Observation>>;
  context(query: ContextQuery): Promise<Answer<ContextResult>>;
}

/**
 * The worker could not serve this call (not running, not answering in time, wrong token, a
 * route it lacks, an internal error): the caller may try the database instead.
 */
export class WorkerUnavailableError extends Error {
  override name = 'WorkerUnavailableError';
}

/** The request itself is wrong (the worker said 400/413/422): reported to the agent as is. */
export class RequestRejectedError extends Error {
  override name = 'RequestRejectedError';
}
