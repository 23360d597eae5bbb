/**
 * The worker's HTTP API as its clients and its routes see it: route names, query strings, answer
 * shapes. The hook (src/hook/context.ts, deliver.ts), the plugins (src/plugins/shared/), the MCP
 * server (src/mcp/worker-reader.ts) and through it `claude-mem search` build their requests here.
 * No imports at run time: small enough for the hook bundle and every plugin bundle. How a request
 * travels is the caller's: node:http (worker-client.ts) or the hook's plain socket (http-lite.ts).
 */
import type { ContextResult, Observation, SearchQuery, TimelineItem, TimelineQuery } from '../store/types.js';

export const ROUTES = {
  events: '/api/events',
  context: '/api/context',
  search: '/api/search',
  timeline: '/api/timeline',
  observations: '/api/observations/batch',
  memory: '/api/memory',
} as const;

type QueryParams = Record<string, string | number | undefined>;

/** `?a=1&b=2` without the empty values, or '' when nothing is left. */
function queryString(params: QueryParams): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** A search as `GET /api/search` takes it. */
function searchParams(q: SearchQuery): QueryParams {
  return {
    q: q.query, project: q.project, widen: q.widen ? 1 : undefined, host: q.host, type: q.type, since: q.since, until: q.until,
    file: q.file, session: q.hostSessionId, sessionHost: q.sessionHost, limit: q.limit, offset: q.offset,
  };
}

export const searchPath = (q: SearchQuery): string => ROUTES.search + queryString(searchParams(q));

export const timelinePath = (q: TimelineQuery): string => ROUTES.timeline + queryString({
  anchor: q.anchorId, session: q.hostSessionId, host: q.host, project: q.project, before: q.before, after: q.after,
});

/** What `GET /api/context` takes (src/worker/routes/read.ts). */
interface ContextParams {
  project?: string;
  cwd?: string;
  host?: string;
  /** The host's session id: left out of its own context (and the key of `once`). */
  session?: string;
  /** The host reads memory once per session: the worker answers '' after the first time. */
  once?: boolean;
  /** 'session' at a session start, 'prompt' when a prompt was submitted (with its text). */
  mode?: 'session' | 'prompt';
  prompt?: string;
  maxTokens?: number;
  limit?: number;
}

export const contextPath = (p: ContextParams): string => ROUTES.context + queryString({
  project: p.project, cwd: p.cwd, host: p.host, session: p.session, once: p.once ? '1' : undefined, mode: p.mode,
  prompt: p.prompt, maxTokens: p.maxTokens || undefined, limit: p.limit,
});

/** The answers of the read and write routes (`GET /api/search` answers a SearchAnswer). */
export type ContextAnswer = ContextResult & { alreadySent?: boolean };
export interface TimelineAnswer { items: TimelineItem[] }
export interface ObservationsAnswer { observations: Observation[] }
export interface SavedMemoryAnswer { observation: Observation }

/** The context text of an answer ('' when it has none). */
export function contextTextOf(body: unknown): string {
  const b = body as { text?: unknown; context?: unknown } | null | undefined;
  if (b && typeof b.text === 'string') return b.text;
  if (b && typeof b.context === 'string') return b.context;
  return '';
}

/** Statuses that mean "the request was wrong" (the caller's to fix), not "the worker failed". */
export const isRejection = (status: number): boolean => status === 400 || status === 413 || status === 422;

/** The message of an error answer: `{ error: { code, message } }`, or a plain string from older workers. */
export function errorMessage(body: unknown): string {
  const err = (body as { error?: unknown } | null)?.error;
  if (typeof err === 'string') return err;
  const msg = (err as { message?: unknown } | null)?.message;
  return typeof msg === 'string' ? msg : '';
}

/** A success that lacks the worker's proof: a stale port or a changed token, never relayed. */
export const unprovenText = (port: number, status: number): string => `127.0.0.1:${port} answered HTTP ${status} without the worker's proof`;
