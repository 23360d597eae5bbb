/** MemoryReader over the worker's HTTP API (signed requests and answers, 127.0.0.1, a deadline per call). */
import { workerEndpoint, workerRequest } from '../shared/worker-client.js';
import type { DataPaths } from '../shared/paths.js';
import type {
  ContextQuery, ContextResult, Observation, SaveMemoryInput, SearchAnswer, SearchQuery, TimelineItem, TimelineQuery,
} from '../store/types.js';
import { searchParams } from '../shared/search-params.js';
import { RequestRejectedError, WorkerUnavailableError, type Answer, type MemoryReader } from './reader.js';

type Params = Record<string, string | number | undefined>;

function queryString(params: Params): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The worker answers errors as `{ error: { code, message } }`; older shapes used a plain string. */
function errorText(body: unknown): string {
  const err = (body as { error?: unknown } | null)?.error;
  if (typeof err === 'string') return err;
  const msg = (err as { message?: unknown } | null)?.message;
  return typeof msg === 'string' ? msg : '';
}

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
    // An unproven answer (a stale port, a changed token) is not the worker's to relay.
    if (!res.verified) throw new WorkerUnavailableError(`127.0.0.1:${ep.port} answered HTTP ${res.status} without the worker's proof`);
    if (res.status >= 200 && res.status < 300) return res.body;
    const detail = errorText(res.body) || `HTTP ${res.status}`;
    // Bad input is the caller's to fix; anything else (auth, missing route, 5xx) is the worker's.
    if (res.status === 400 || res.status === 413 || res.status === 422) throw new RequestRejectedError(detail);
    throw new WorkerUnavailableError(`worker answered ${res.status}: ${detail}`);
  }

  private async get<T>(path: string, params: Params): Promise<T> {
    return this.call<T>('GET', path + queryString(params));
  }

  async search(q: SearchQuery): Promise<Answer<SearchAnswer>> {
    const body = await this.get<SearchAnswer>('/api/search', searchParams(q));
    return { value: { results: body?.results ?? [], project: body?.project ?? null, widened: body?.widened === true }, via: 'worker' };
  }

  async timeline(q: TimelineQuery): Promise<Answer<TimelineItem[]>> {
    const body = await this.get<{ items: TimelineItem[] }>('/api/timeline', {
      anchor: q.anchorId, session: q.hostSessionId, host: q.host, project: q.project, before: q.before, after: q.after,
    });
    return { value: body?.items ?? [], via: 'worker' };
  }

  async getObservations(ids: number[]): Promise<Answer<Observation[]>> {
    const body = await this.call<{ observations: Observation[] }>('POST', '/api/observations/batch', { ids });
    return { value: body?.observations ?? [], via: 'worker' };
  }

  async save(input: SaveMemoryInput): Promise<Answer<Observation>> {
    const body = await this.call<{ observation: Observation }>('POST', '/api/memory', input, this.saveTimeoutMs);
    if (!body?.observation) throw new WorkerUnavailableError('worker answered without the saved observation');
    return { value: body.observation, via: 'worker' };
  }

  async context(q: ContextQuery): Promise<Answer<ContextResult>> {
    const body = await this.get<ContextResult>('/api/context', {
      project: q.project, cwd: q.cwd, host: q.host, maxTokens: q.maxTokens, limit: q.limit,
    });
    if (!body || typeof body.text !== 'string') throw new WorkerUnavailableError('worker answered an unexpected context shape');
    return { value: body, via: 'worker' };
  }
}
