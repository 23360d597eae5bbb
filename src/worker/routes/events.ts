import type { CaptureEvent } from '../../shared/capture-event.js';
import { isBusyError, parseWith } from './errors.js';
import { EventsBody } from './schemas.js';
import { ROUTES } from '../../shared/worker-api.js';
import type { Route } from './types.js';

/**
 * POST /api/events: a batch, stored with the other requests of the same tick in one transaction;
 * a second delivery of an event counts as a duplicate.
 */
export const eventsRoute: Route = {
  method: 'POST',
  path: ROUTES.events,
  auth: true,
  bodyLimit: 'events',
  handle: async ({ body }, ctx) => {
    const { events } = parseWith(EventsBody, body, 'invalid_body');
    try {
      const result = await ctx.ingest(events as CaptureEvent[]);
      // The caller hears about rejections, and doctor counts them: no event is lost silently.
      for (const r of result.rejected) {
        const raw = JSON.stringify(events[r.index]) ?? '';
        ctx.store.addDeadLetter({ source: 'api', filePath: null, offset: null, reason: `rejected (${r.code}): ${r.reason}`, raw: raw.slice(0, 64 * 1024) });
      }
      if (result.rejected.length) ctx.logger.warn('events rejected', { rejected: result.rejected.slice(0, 10), count: result.rejected.length });
      return { body: { stored: result.stored, duplicates: result.duplicates, rejected: result.rejected } };
    } catch (err) {
      // The caller spools the batch; the drain picks it up once the lock is gone.
      if (isBusyError(err)) ctx.kickDrain();
      throw err;
    }
  },
};

