/**
 * The recall tools' implementations for native plugins: the worker's read routes, answered in the
 * MCP server's own text format (src/mcp/format.ts), so an agent reads the same thing whichever way
 * it asked. A plugin has no SQLite of its own (the host may be Bun), so a worker that is not
 * running is started and waited for briefly; past that the tool says so plainly. Never throws:
 * every failure is an answer the agent can read.
 */
import { isAbsolute, resolve } from 'node:path';
import type { HookLog } from '../../hook/debug-log.js';
import type { Endpoint, WorkerLink } from '../../hook/link.js';
import { CURRENT_PROJECT, resolveHostArg, resolveProjectArg, resolveTimeArg, ToolInputError } from '../../mcp/args.js';
import {
  contextText, observationsText, observationText, searchText, timelineText, toObservation, toSearchResults, toTimelineItem,
} from '../../mcp/format.js';
import type { HostId } from '../../shared/hosts.js';
import {
  contextPath, errorMessage, isRejection, ROUTES, searchPath, timelinePath, unprovenText,
  type ContextAnswer, type ObservationsAnswer, type SavedMemoryAnswer, type TimelineAnswer,
} from '../../shared/worker-api.js';
import { workerRequest } from '../../shared/worker-client.js';
import { projectFor } from '../../worker/project.js';
import type { SearchAnswer, SearchQuery } from '../../store/types.js';
import { isRecallToolName, SEARCH_TYPES } from './recall-specs.js';

/** How long a tool call waits for a worker it had to start. */
const RECALL_START_WAIT_MS = 4_000;
const RECALL_REQUEST_MS = 5_000;

export interface RecallCallContext {
  /** The directory the agent works in. */
  cwd: string;
  /** The host's session id (mem_save files the note under it). */
  sessionId?: string;
}

type RecallRunner = (name: string, args: unknown, ctx: RecallCallContext) => Promise<string>;

type Args = Record<string, unknown>;

const optStr = (a: Args, k: string): string | undefined => {
  const v = a[k];
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw new ToolInputError(`"${k}" must be a string.`);
  return v;
};

/** Models sometimes send numbers as strings: "5" is taken as 5. */
const optInt = (a: Args, k: string, min: number, max: number): number | undefined => {
  const v = a[k];
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < min || n > max) throw new ToolInputError(`"${k}" must be an integer from ${min} to ${max}.`);
  return n;
};

const strList = (a: Args, k: string): string[] | undefined => {
  const v = a[k];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new ToolInputError(`"${k}" must be an array of strings.`);
  return v as string[];
};

function idList(a: Args): number[] {
  const raw = typeof a.ids === 'string' ? a.ids.split(/[\s,]+/).filter(Boolean) : a.ids;
  if (!Array.isArray(raw) || !raw.length) throw new ToolInputError('"ids" must be a non-empty array of observation ids.');
  const ids = raw.map((x) => (typeof x === 'string' && /^\d+$/.test(x) ? Number(x) : x));
  if (ids.some((x) => typeof x !== 'number' || !Number.isInteger(x) || x < 1)) throw new ToolInputError('"ids" must hold positive integers (observation ids).');
  if (ids.length > 50) throw new ToolInputError('At most 50 ids per call.');
  return [...new Set(ids as number[])];
}

class WorkerDown extends Error {}

type WorkerCall = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<T>;
type RecallTool = (a: Args, c: RecallCallContext) => Promise<string>;

/** A worker that is down is started once per call; an answer without the worker's proof is refused. */
function workerCaller(link: WorkerLink): WorkerCall {
  const endpoint = async (): Promise<Endpoint> => {
    const e = link.endpoint() ?? (await link.start(RECALL_START_WAIT_MS));
    if (!e) throw new WorkerDown('the claude-mem worker is not running and did not start in time');
    return e;
  };
  return async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const ep = await endpoint();
    let res;
    try {
      res = await workerRequest<T>({ port: ep.port, auth: ep.auth, method, path, body, timeoutMs: RECALL_REQUEST_MS });
    } catch (err) {
      link.markDown();
      throw new WorkerDown((err as Error).message);
    }
    // An unproven answer (a stale port, a changed token) is not the worker's to relay.
    if (!res.verified) throw new WorkerDown(unprovenText(ep.port, res.status));
    if (res.status >= 200 && res.status < 300) return res.body;
    const message = errorMessage(res.body);
    if (isRejection(res.status)) throw new ToolInputError(message || `HTTP ${res.status}`);
    throw new WorkerDown(`the worker answered ${res.status}${message ? `: ${message}` : ''}`);
  };
}

async function memSearch(host: HostId, call: WorkerCall, a: Args, c: RecallCallContext): Promise<string> {
  const q = optStr(a, 'query') ?? '';
  const asked = optStr(a, 'project')?.trim();
  const project = resolveProjectArg(asked, () => projectFor(c.cwd), 'current');
  const type = optStr(a, 'type');
  if (type && !(SEARCH_TYPES as readonly string[]).includes(type)) throw new ToolInputError(`"type" must be one of: ${SEARCH_TYPES.join(', ')}.`);
  const offset = optInt(a, 'offset', 0, 10_000) ?? 0;
  const body = await call<SearchAnswer>('GET', searchPath({
    query: q, project, widen: !asked || CURRENT_PROJECT.includes(asked.toLowerCase()), host: resolveHostArg(optStr(a, 'host')),
    type: type as SearchQuery['type'], since: resolveTimeArg('since', optStr(a, 'since')), until: resolveTimeArg('until', optStr(a, 'until')),
    file: optStr(a, 'file'), hostSessionId: c.sessionId, sessionHost: c.sessionId ? host : undefined,
    limit: optInt(a, 'limit', 1, 50) ?? 8, offset,
  }));
  const { results, widened } = toSearchResults(body);
  return searchText(results, q, project, offset, widened);
}

async function memTimeline(call: WorkerCall, a: Args, c: RecallCallContext): Promise<string> {
  const anchor = optInt(a, 'anchor', 1, Number.MAX_SAFE_INTEGER);
  const session = optStr(a, 'session');
  // An anchor or session already pins the place; a default project would only hide items.
  const project = (anchor !== undefined || session) && !optStr(a, 'project') ? undefined
    : resolveProjectArg(optStr(a, 'project'), () => projectFor(c.cwd), 'current');
  const body = await call<TimelineAnswer>('GET', timelinePath({
    anchorId: anchor, hostSessionId: session, host: resolveHostArg(optStr(a, 'host')), project,
    before: optInt(a, 'before', 0, 50) ?? 5, after: optInt(a, 'after', 0, 50) ?? 5,
  }));
  const scope = session ? `session ${session}` : project ? `project ${project}` : 'all projects';
  return timelineText((body?.items ?? []).map(toTimelineItem), anchor, scope);
}

async function memGetObservations(call: WorkerCall, a: Args): Promise<string> {
  const ids = idList(a);
  const body = await call<ObservationsAnswer>('POST', ROUTES.observations, { ids });
  const byId = new Map((body?.observations ?? []).map((o) => [Number(o.id), toObservation(o)]));
  return observationsText(ids.flatMap((id) => byId.get(id) ?? []), ids.filter((id) => !byId.has(id)));
}

async function memSave(host: HostId, call: WorkerCall, a: Args, c: RecallCallContext): Promise<string> {
  const text = optStr(a, 'text')?.trim();
  if (!text) throw new ToolInputError('"text" is required: what to remember.');
  const project = resolveProjectArg(optStr(a, 'project'), () => projectFor(c.cwd), 'current');
  if (!project) throw new ToolInputError('mem_save needs one project; "*" is not allowed here.');
  const files = strList(a, 'files')?.map((f) => (isAbsolute(f) ? f : resolve(c.cwd, f)));
  const body = await call<SavedMemoryAnswer>('POST', ROUTES.memory, {
    text, title: optStr(a, 'title')?.trim() || undefined, project, cwd: c.cwd, host,
    ...(c.sessionId && { hostSessionId: c.sessionId }), concepts: strList(a, 'concepts'), files,
  });
  if (!body?.observation) throw new WorkerDown('the worker answered without the saved observation');
  const o = toObservation(body.observation);
  return `Saved as #${o.id} in ${o.project}.\n\n${observationText(o)}`;
}

async function memContext(call: WorkerCall, a: Args, c: RecallCallContext): Promise<string> {
  const cwd = optStr(a, 'cwd') ?? c.cwd;
  if (!isAbsolute(cwd)) throw new ToolInputError(`"cwd" must be an absolute path; got "${cwd}".`);
  const project = resolveProjectArg(optStr(a, 'project'), () => projectFor(cwd), 'current');
  if (!project) throw new ToolInputError('mem_context works on one project; "*" is not allowed here.');
  const body = await call<ContextAnswer>('GET', contextPath({ project, cwd, maxTokens: optInt(a, 'maxTokens', 100, 20_000) ?? 1500 }));
  return contextText({ project: body?.project || project, text: typeof body?.text === 'string' ? body.text : '', observationIds: [], summaryId: null, approxTokens: 0 });
}

export function createRecall(host: HostId, link: WorkerLink, log: HookLog): RecallRunner {
  const call = workerCaller(link);
  const tools: Record<string, RecallTool> = {
    mem_search: (a, c) => memSearch(host, call, a, c),
    mem_timeline: (a, c) => memTimeline(call, a, c),
    mem_get_observations: (a) => memGetObservations(call, a),
    mem_save: (a, c) => memSave(host, call, a, c),
    mem_context: (a, c) => memContext(call, a, c),
  };

  // Never throws: a bad argument or a missing worker is an answer the agent can read.
  return async (name, args, ctx) => {
    try {
      if (!isRecallToolName(name)) return `Unknown claude-mem tool "${name}".`;
      const a = args && typeof args === 'object' && !Array.isArray(args) ? (args as Args) : {};
      return await tools[name](a, ctx);
    } catch (err) {
      if (err instanceof ToolInputError) return err.message;
      const msg = err instanceof Error ? err.message : String(err);
      log.detail(`${name} failed: ${msg}`);
      return `claude-mem could not answer ${name}: ${msg}. Run "claude-mem doctor" to find out why.`;
    }
  };
}
