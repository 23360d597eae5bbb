import type { Route } from './types.js';

export const shutdownRoute: Route = {
  method: 'POST',
  path: '/api/admin/shutdown',
  auth: true,
  ignoreBody: true,
  handle: () => ({ status: 202, body: { ok: true, stopping: true } }),
  // After the answer is flushed, so the caller sees it.
  after: (ctx) => ctx.shutdown('POST /api/admin/shutdown'),
};

/** GET /api/stats: the store's counts plus what waits in the spool, for status and doctor. */
export const statsRoute: Route = {
  method: 'GET',
  path: '/api/stats',
  auth: true,
  handle: (_input, ctx) => {
    const store = ctx.store.stats();
    const h = ctx.health();
    return {
      body: {
        store,
        spool: ctx.spoolDepth(),
        deadLetters: store.deadLetters,
        // Writes the database refuses right now (disk full, read-only): captures wait in the spool.
        storage: ctx.storageState(),
        transcripts: ctx.transcripts?.() ?? null,
        worker: { pid: h.pid, version: h.version, instanceId: h.instanceId, startedAt: h.startedAt, uptimeMs: h.uptimeMs },
      },
    };
  },
};

/** POST /api/viewer/link: a one-time link to the viewer (`claude-mem viewer`); the token never goes in a URL. */
export const viewerLinkRoute: Route = {
  method: 'POST',
  path: '/api/viewer/link',
  auth: true,
  ignoreBody: true,
  handle: (_input, ctx) => {
    if (!ctx.viewerLink) return { status: 404, body: { error: { code: 'not_found', message: 'this worker serves no viewer' } } };
    return { status: 201, body: { url: ctx.viewerLink() } };
  },
};
