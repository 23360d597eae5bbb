/**
 * The viewer's writes (forget, pin). Each arrives as JSON from the page itself: the caller has
 * checked the sign-in cookie, the CSRF header and the origin (index.ts). Bodies are small.
 */
import type { IncomingMessage } from 'node:http';
import { HttpError } from '../routes/errors.js';
import type { RouteContext } from '../routes/types.js';

export type ApiPost = (body: unknown, ctx: RouteContext) => unknown;

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

export const API_POSTS: Readonly<Record<string, ApiPost>> = {};
