/**
 * Who may call the worker: a request signed with the token for this worker instance (what
 * claude-mem's own clients send, see src/shared/worker-auth.ts), or the bearer token itself (for
 * scripts). A signed request's nonce is what the worker's proof of its answer is computed over.
 */
import type { IncomingMessage } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import { AUTH_HEADER, parseAuthHeader, requestProblem } from '../shared/worker-auth.js';
import { HttpError } from './routes/errors.js';

const digest = (s: string) => createHash('sha256').update(s).digest();

export const unauthorized = (why: string) => new HttpError(401, 'unauthorized', why);

interface Credentials {
  /** The request carries a signature (checked by `verifySignature` once the body is read). */
  signed(req: IncomingMessage): boolean;
  bearerOk(req: IncomingMessage): boolean;
  /** The nonce to prove the answer over; undefined for an unsigned request; throws 401 for a bad signature. */
  verifySignature(req: IncomingMessage, body: Buffer, port: number): string | undefined;
}

export function credentials(token: string, instanceId: string): Credentials {
  const tokenDigest = digest(token);
  return {
    signed: (req) => req.headers[AUTH_HEADER] !== undefined,
    bearerOk(req) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
      // Digests have equal length, so the comparison time does not depend on the token.
      return !!m && timingSafeEqual(digest(m[1]), tokenDigest);
    },
    verifySignature(req, body, port) {
      const value = req.headers[AUTH_HEADER];
      if (value === undefined) return undefined;
      const signed = parseAuthHeader(Array.isArray(value) ? value[0] : value);
      if (!signed) throw unauthorized(`malformed ${AUTH_HEADER} header`);
      const problem = requestProblem({ token, instanceId, port }, { method: req.method ?? '', path: req.url ?? '', body }, signed);
      if (problem) throw unauthorized(problem);
      return signed.nonce;
    },
  };
}
