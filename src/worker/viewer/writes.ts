/**
 * The viewer's writes (forget, pin). Each arrives as JSON from the page itself: the caller has
 * checked the sign-in cookie, the CSRF header and the origin (index.ts). Bodies are small.
 */
import type { IncomingMessage } from 'node:http';
import { forgetRoute, pinRoute, unpinRoute } from '../routes/forget.js';
import { HttpError, parseWith } from '../routes/errors.js';
import type { RouteContext } from '../routes/types.js';
import { z } from 'zod';

type ApiPost = (body: unknown, ctx: RouteContext) => unknown;

const MAX_BODY = 64 * 1024;

/** The JSON body of a viewer write; a form post (what another site could send) is refused. */
export function readJsonBody(req: IncomingMessage): Promise<unknown> {
  if (!/^application\/json\b/i.test(req.headers['content-type'] ?? '')) {
    return Promise.reject(new HttpError(415 as number, 'bad_json', 'expected content-type application/json'));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new HttpError(413, 'body_too_large', `request body exceeds the limit of ${MAX_BODY} bytes`));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch (err) {
        reject(new HttpError(400, 'bad_json', `the request body is not valid JSON: ${(err as Error).message}`));
      }
    });
    req.on('error', reject);
  });
}

const PinToggle = z.object({ observationId: z.number().int().positive(), pinned: z.boolean() });

/**
 * The worker's own forget and pin routes answer: the same validation, the same store calls. The
 * page forgets exactly what it shows (rows by id, a session by its host id), dry run first.
 */
export const API_POSTS: Readonly<Record<string, ApiPost>> = {
  '/viewer/api/forget': async (body, ctx) => (await forgetRoute.handle({ body, query: new URLSearchParams(), authenticated: true }, ctx)).body,
  '/viewer/api/pin': async (body, ctx) => {
    const { observationId, pinned } = parseWith(PinToggle, body, 'invalid_body');
    const route = pinned ? pinRoute : unpinRoute;
    return (await route.handle({ body: { observationId }, query: new URLSearchParams(), authenticated: true }, ctx)).body;
  },
};
