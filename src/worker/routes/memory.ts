import { parseWith } from './errors.js';
import { MemoryBody } from './schemas.js';
import { ROUTES } from '../../shared/worker-api.js';
import type { Route } from './types.js';

/** POST /api/memory: an explicit note (mem_save). */
export const memoryRoute: Route = {
  method: 'POST',
  path: ROUTES.memory,
  auth: true,
  handle: ({ body }, ctx) => {
    const input = parseWith(MemoryBody, body, 'invalid_body');
    return { status: 201, body: { observation: ctx.store.saveMemory(input) } };
  },
};
