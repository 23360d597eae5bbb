import { parseWith } from './errors.js';
import { MemoryBody } from './schemas.js';
import type { Route } from './types.js';

/** POST /api/memory: an explicit note (mem_save). */
export const memoryRoute: Route = {
  method: 'POST',
  path: '/api/memory',
  auth: true,
  handle: ({ body }, ctx) => {
    const input = parseWith(MemoryBody, body, 'invalid_body');
    return { status: 201, body: { observation: ctx.store.saveMemory(input) } };
  },
};
