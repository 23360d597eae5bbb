import type { Route } from './types.js';

/**
 * Unauthenticated on purpose, but says who it is (pid, data directory, instance) only to a caller
 * that signed the request with the token; the answer is then signed too, which is how starters,
 * `status` and doctor prove the process on a port is this data directory's worker.
 */
export const healthRoute: Route = {
  method: 'GET',
  path: '/api/health',
  auth: false,
  handle: ({ authenticated }, ctx) => {
    const h = ctx.health();
    return { body: authenticated ? h : { ok: h.ok, name: h.name, version: h.version } };
  },
};
