/** Sync routes: its state (status, doctor) and a round on demand (sync now, sync setup). */
import { HttpError } from './errors.js';
import type { Route } from './types.js';

export const syncStatusRoute: Route = {
  method: 'GET',
  path: '/api/sync/status',
  auth: true,
  handle: (_input, ctx) => {
    if (!ctx.sync) throw new HttpError(404, 'sync_unavailable', 'this worker cannot sync');
    return { body: ctx.sync.status() };
  },
};

export const syncNowRoute: Route = {
  method: 'POST',
  path: '/api/sync/now',
  auth: true,
  ignoreBody: true,
  handle: async (_input, ctx) => {
    if (!ctx.sync) throw new HttpError(404, 'sync_unavailable', 'this worker cannot sync');
    try {
      return { body: { ok: true, result: await ctx.sync.now() } };
    } catch (err) {
      return { status: 502, body: { ok: false, error: { code: 'sync_failed', message: (err as Error).message } } };
    }
  },
};
