/** Errors the HTTP layer turns into `{ error: { code, message } }` with a stable code. */
import type { z } from 'zod';
import { storageProblem } from '../../store/errors.js';

type ErrorCode =
  | 'bad_json' | 'invalid_body' | 'invalid_query' | 'not_found' | 'method_not_allowed' | 'unauthorized'
  | 'bad_host' | 'body_too_large' | 'store_busy' | 'store_full' | 'store_readonly' | 'store_io' | 'shutting_down' | 'internal' | 'sync_unavailable';

interface Issue {
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

export { isBusyError } from '../busy.js';

const STORAGE_ANSWERS = {
  full: { status: 507, code: 'store_full', what: 'the disk holding the database is full' },
  readonly: { status: 503, code: 'store_readonly', what: 'the database is read-only (file mode, owner or file system)' },
  io: { status: 503, code: 'store_io', what: 'the disk reported an I/O error' },
} as const;

/**
 * The answer to a write the database could not commit because of where it lives: an error status,
 * so that the caller keeps what it sent (hooks spool it). `claude-mem doctor` names the cause.
 */
export function storageFailure(err: unknown): { status: number; code: ErrorCode; message: string } | undefined {
  const kind = storageProblem(err);
  if (!kind) return undefined;
  const a = STORAGE_ANSWERS[kind];
  return { status: a.status, code: a.code, message: `nothing was stored: ${a.what} (${(err as Error)?.message ?? String(err)}); keep the events and retry later` };
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
