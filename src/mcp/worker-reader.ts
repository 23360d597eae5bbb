/** MemoryReader over the worker's HTTP API (signed requests and answers, 127.0.0.1, a deadline per call). */
import { workerEndpoint, workerRequest } from '../shared/worker-client.js';
import type { DataPaths } from '../shared/paths.js';
import type { ContextQuery, ContextResult, Observation, SaveMemoryInput, SearchAnswer, SearchQuery, TimelineItem, TimelineQuery } from '../store/types.js';
import {
  contextPath, errorMessage, isRejection, ROUTES, searchPath, timelinePath, unprovenText,
  type ContextAnswer, type ObservationsAnswer, type SavedMemoryAnswer, type TimelineAnswer,
} from '../shared/worker-api.js';
import { RequestRejectedError, WorkerUnavailableError, type Answer, type MemoryReader } from './reader.js';

export class WorkerReader implements MemoryReader {
  /**
   * Saves get a longer deadline: a save that times out may still land, and the database
   * fallback would then store it twice.
   */
  constructor(private readonly paths: DataPaths, private readonly timeoutMs = 2000, private readonly saveTimeoutMs = 5000) {}

  private async call<T>(method: 'GET' | 'POST', path: string, body?: unknown, timeoutMs = this.timeoutMs): Promise<T> {
    // Read worker.json and the token on every call: the worker may have restarted since.
    const ep = workerEndpoint(this.paths);
    if (!ep) throw new WorkerUnavailableError('no worker recorded (worker.json or worker.token missing)');
    let res;
    try {
      res = await workerRequest<T>({ port: ep.port, auth: ep.auth, method, path, body, timeoutMs });
    } catch (err) {
      throw new WorkerUnavailableError((err as Error).message);
    }
    if (!res.verified) throw new WorkerUnavailableError(unprovenText(ep.port, res.status));
    if (res.status >= 200 && res.status < 300) return res.body;
    const detail = errorMessage(res.body) || `HTTP ${res.status}`;
    // Bad input is the caller's to fix; anything else (auth, missing route, 5xx) is the worker's.
    if (isRejection(res.status)) throw new RequestRejectedError(detail);
    throw new WorkerUnavailableError(`worker answered ${res.status}: ${detail}`);
  }

  async search(q: SearchQuery): Promise<Answer<SearchAnswer>> {
    const body = await this.call<SearchAnswer>('GET', searchPath(q));
    return { value: { results: body?.results ?? [], project: body?.project ?? null, widened: body?.widened === true }, via: 'worker' };
  }

  async timeline(q: TimelineQuery): Promise<Answer<TimelineItem[]>> {
    const body = await this.call<TimelineAnswer>('GET', timelinePath(q));
    return { value: body?.items ?? [], via: 'worker' };
  }

  async getObservations(ids: number[]): Promise<Answer<Observation[]>> {
    const body = await this.call<ObservationsAnswer>('POST', ROUTES.observations, { ids });
    return { value: body?.observations ?? [], via: 'worker' };
  }

  async save(input: SaveMemoryInput): Promise<Answer<Observation>> {
    const body = await this.call<SavedMemoryAnswer>('POST', ROUTES.memory, input, this.saveTimeoutMs);
    if (!body?.observation) throw new WorkerUnavailableError('worker answered without the saved observation');
    return { value: body.observation, via: 'worker' };
  }

  async context(q: ContextQuery): Promise<Answer<ContextResult>> {
    const body = await this.call<ContextAnswer>('GET', contextPath({ project: q.project, cwd: q.cwd, host: q.host, maxTokens: q.maxTokens, limit: q.limit }));
    if (!body || typeof body.text !== 'string') throw new WorkerUnavailableError('worker answered an unexpected context shape');
    return { value: body, via: 'worker' };
  }
}
