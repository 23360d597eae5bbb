/**
 * The viewer's data, as JSON for its page: read routes over the store's own readers (search, the
 * session-start context builder, the viewer reads) and capture health. Filters are validated with
 * the same schemas as the worker's API, so the page and the CLI accept the same values.
 */
import { contextLimits } from '../../hook/context.js';
import { resolveHostId } from '../../shared/hosts.js';
import { dataPaths } from '../../shared/paths.js';
import { parseWith } from '../routes/errors.js';
import { SearchQuery, queryObject } from '../routes/schemas.js';
import type { RouteContext } from '../routes/types.js';
import { StoreError } from '../../store/errors.js';
import type { ViewerReader } from '../../store/types.js';
import { captureHealth } from './health.js';

type ApiGet = (q: URLSearchParams, ctx: RouteContext, dataDir: string) => unknown;

export function readsOf(ctx: RouteContext): ViewerReader {
  const reads = ctx.store.viewer?.();
  if (!reads) throw new StoreError('invalid_input', 'this store has no viewer reads');
  return reads;
}

const positiveInt = (v: string | null, what: string): number | undefined => {
  if (v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < 1) throw new StoreError('invalid_input', `${what} must be a positive integer`);
  return n;
};

const hostFilter = (v: string | null) => {
  if (!v) return undefined;
  const id = resolveHostId(v);
  if (!id) throw new StoreError('invalid_input', `unknown host "${v}"`);
  return id;
};

export const API_GETS: Readonly<Record<string, ApiGet>> = {
  '/viewer/api/projects': (_q, ctx) => ({ projects: readsOf(ctx).projects() }),
  '/viewer/api/sessions': (q, ctx) => ({
    sessions: readsOf(ctx).sessions({ project: q.get('project') || undefined, host: hostFilter(q.get('host')), limit: positiveInt(q.get('limit'), 'limit') }),
  }),
  '/viewer/api/session': (q, ctx) => {
    const id = positiveInt(q.get('id'), 'id');
    if (id === undefined) throw new StoreError('invalid_input', 'id is required');
    const detail = readsOf(ctx).session(id) ?? null;
    // Pinned observations show as such (and can be unpinned) in the timeline.
    const pinnedIds = detail ? ctx.store.listPins(detail.session.project).map((p) => p.observationId) : [];
    return { detail, pinnedIds };
  },
  '/viewer/api/feed': (q, ctx) => {
    const reads = readsOf(ctx);
    return { rows: reads.feed(undefined, positiveInt(q.get('limit'), 'limit')), cursor: reads.cursor() };
  },
  '/viewer/api/search': (q, ctx) => {
    const s = parseWith(SearchQuery, queryObject(q), 'invalid_query');
    return ctx.store.search({
      query: s.q, project: s.project, host: s.host, type: s.type, since: s.since, until: s.until, file: s.file,
      limit: s.limit ?? 20, offset: s.offset,
    });
  },
  // What SessionStart gives the next session in the project: the same builder, the same token budget.
  '/viewer/api/context': (q, ctx, dataDir) => {
    const project = q.get('project');
    if (!project) throw new StoreError('invalid_input', 'project is required');
    const { maxTokens } = contextLimits(process.env, dataPaths(dataDir));
    return { context: ctx.store.context({ project, maxTokens }), maxTokens: maxTokens ?? null };
  },
  '/viewer/api/health': (_q, ctx, dataDir) =>
    captureHealth({ store: ctx.store, dataDir, spoolDepth: () => ctx.spoolDepth(), storageState: () => ctx.storageState() }),
};
