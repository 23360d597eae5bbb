/** Read routes: context, search, timeline, observations by id. */
import { parseWith } from './errors.js';
import { ContextQuery, ObservationsBody, SearchQuery, TimelineQuery, queryObject } from './schemas.js';
import { ROUTES } from '../../shared/worker-api.js';
import type { Route } from './types.js';

export const contextRoute: Route = {
  method: 'GET',
  path: ROUTES.context,
  auth: true,
  handle: async ({ query }, ctx) => {
    const q = parseWith(ContextQuery, queryObject(query), 'invalid_query');
    if (q.once === '1' && q.host && q.session && !ctx.store.claimContext(q.host, q.session)) {
      return { body: { project: '', text: '', observationIds: [], summaryId: null, approxTokens: 0, alreadySent: true } };
    }
    // What other devices learned since the last pull, within a small bound of the hook's budget.
    if (q.mode === 'session' && ctx.sync) await ctx.sync.beforeContext();
    return {
      body: ctx.store.context({
        project: q.project, cwd: q.cwd, host: q.host, hostSessionId: q.session, mode: q.mode, prompt: q.prompt,
        maxTokens: q.maxTokens ?? ctx.contextTokens?.(), limit: q.limit,
      }),
    };
  },
};

export const searchRoute: Route = {
  method: 'GET',
  path: ROUTES.search,
  auth: true,
  handle: ({ query }, ctx) => {
    const q = parseWith(SearchQuery, queryObject(query), 'invalid_query');
    const answer = ctx.store.search({
      query: q.q, project: q.project, widen: q.widen, host: q.host, type: q.type, since: q.since, until: q.until,
      file: q.file, hostSessionId: q.session, sessionHost: q.sessionHost, limit: q.limit, offset: q.offset,
    });
    return { body: answer };
  },
};

export const timelineRoute: Route = {
  method: 'GET',
  path: ROUTES.timeline,
  auth: true,
  handle: ({ query }, ctx) => {
    const q = parseWith(TimelineQuery, queryObject(query), 'invalid_query');
    const items = ctx.store.timeline({
      anchorId: q.anchor, hostSessionId: q.session, host: q.host, project: q.project, before: q.before, after: q.after,
    });
    return { body: { items } };
  },
};

export const observationsRoute: Route = {
  method: 'POST',
  path: ROUTES.observations,
  auth: true,
  handle: ({ body }, ctx) => {
    const { ids } = parseWith(ObservationsBody, body, 'invalid_body');
    return { body: { observations: ctx.store.getObservations(ids) } };
  },
};
