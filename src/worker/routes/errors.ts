/** Errors the HTTP layer turns into `{ error: { code, message } }` with a stable code. */
import type { z } from 'zod';

export type ErrorCode =
  | 'bad_json' | 'invalid_body' | 'invalid_query' | 'not_found' | 'method_not_allowed' | 'unauthorized'
  | 'bad_host' | 'body_too_large' | 'store_busy' | 'shutting_down' | 'internal';

export interface Issue {
  path: string;
  message: string;
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly issues?: Issue[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

/** The database is locked by another connection: transient, the caller retries or spools. */
export function isBusyError(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && (code === 'store_busy' || /^SQLITE_(BUSY|LOCKED)/.test(code));
}

/** The store refused its input (a StoreError with code invalid_input): the caller's to fix. */
export function isInvalidInputError(err: unknown): boolean {
  return (err as { code?: unknown })?.code === 'invalid_input';
}

/** Validates `value`; on failure a 400 naming the first bad path (all paths in `issues`). */
export function parseWith<T>(schema: z.ZodType<T>, value: unknown, code: 'invalid_body' | 'invalid_query'): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issues = r.error.issues.slice(0, 20).map((i) => ({
    path: i.path.map(String).join('.') || '(root)',
    message: i.message,
  }));
  const first = issues[0];
  const more = r.error.issues.length > 1 ? ` (+${r.error.issues.length - 1} more)` : '';
  throw new HttpError(400, code, `${first.path}: ${first.message}${more}`, issues);
}
