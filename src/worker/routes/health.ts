import type { Route } from './types.js';

/** Unauthenticated on purpose: starters and `status` prove identity with it before they trust a port. */
export const healthRoute: Route = {
  method: 'GET',
  path: '/api/health',
  auth: false,
  handle: (_input, ctx) => ({ body: ctx.health() }),
};
