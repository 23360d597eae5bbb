/** Forget (with a dry run), purge, pins and tombstones. */
import { StoreError } from '../../store/errors.js';
import type { ForgetTarget } from '../../store/types.js';
import { HttpError, parseWith } from './errors.js';
import { ForgetBody, ImportBody, PinBody, PinsQuery, TombstonesBody, TombstonesQuery, queryObject } from './schemas.js';
import type { Route } from './types.js';

/**
 * POST /api/forget: what the body names leaves memory (or, with dryRun, is only counted and
 * listed). With purge, the database file is rewritten afterwards.
 */
export const forgetRoute: Route = {
  method: 'POST',
  path: '/api/forget',
  auth: true,
  handle: ({ body }, ctx) => {
    const { dryRun, purge, ...target } = parseWith(ForgetBody, body, 'invalid_body');
    const result = ctx.store.forget(target as ForgetTarget, { dryRun });
    const purged = purge && !dryRun ? ctx.store.purge() : null;
    return { body: { ...result, purge: purged } };
  },
};

/** POST /api/purge: rewrites the database file so forgotten bytes are not left on disk. */
export const purgeRoute: Route = {
  method: 'POST',
  path: '/api/purge',
  auth: true,
  ignoreBody: true,
  handle: (_input, ctx) => ({ body: ctx.store.purge() }),
};

const notFound = (err: unknown): never => {
  if (err instanceof StoreError && err.code === 'not_found') throw new HttpError(404, 'not_found', err.message);
  throw err;
};

export const pinRoute: Route = {
  method: 'POST',
  path: '/api/pins',
  auth: true,
  handle: ({ body }, ctx) => {
    const { observationId } = parseWith(PinBody, body, 'invalid_body');
    try {
      return { status: 201, body: { pin: ctx.store.pin(observationId) } };
    } catch (err) {
      return notFound(err);
    }
  },
};

export const unpinRoute: Route = {
  method: 'POST',
  path: '/api/pins/remove',
  auth: true,
  handle: ({ body }, ctx) => {
    const { observationId } = parseWith(PinBody, body, 'invalid_body');
    return { body: { unpinned: ctx.store.unpin(observationId) } };
  },
};

export const listPinsRoute: Route = {
  method: 'GET',
  path: '/api/pins',
  auth: true,
  handle: ({ query }, ctx) => {
    const q = parseWith(PinsQuery, queryObject(query), 'invalid_query');
    return { body: { pins: ctx.store.listPins(q.project) } };
  },
};

export const listTombstonesRoute: Route = {
  method: 'GET',
  path: '/api/tombstones',
  auth: true,
  handle: ({ query }, ctx) => {
    const q = parseWith(TombstonesQuery, queryObject(query), 'invalid_query');
    return { body: { tombstones: ctx.store.listTombstones({ since: q.since, afterKey: q.after, limit: q.limit }) } };
  },
};

export const applyTombstonesRoute: Route = {
  method: 'POST',
  path: '/api/tombstones',
  auth: true,
  handle: ({ body }, ctx) => {
    const { tombstones } = parseWith(TombstonesBody, body, 'invalid_body');
    return { body: { applied: ctx.store.applyTombstones(tombstones) } };
  },
};

/** POST /api/import: a chunk of an export's records (claude-mem import sends the file in chunks). */
export const importRoute: Route = {
  method: 'POST',
  path: '/api/import',
  auth: true,
  bodyLimit: 'events',
  handle: ({ body }, ctx) => {
    const { records } = parseWith(ImportBody, body, 'invalid_body');
    return { body: ctx.store.importRecords(records) };
  },
};
