/** Errors the store raises with a stable `code`, so the worker and doctor can decide what to do. */

type StoreErrorCode = 'store_corrupt' | 'store_busy' | 'store_newer_schema' | 'store_open_failed' | 'store_readonly' | 'invalid_input' | 'not_found';

export class StoreError extends Error {
  constructor(
    readonly code: StoreErrorCode,
    message: string,
    readonly path?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'StoreError';
  }
}

const sqliteCode = (err: unknown): string => {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' ? code : '';
};

const isCorruptError = (err: unknown): boolean => /^SQLITE_(CORRUPT|NOTADB)/.test(sqliteCode(err));
export const isBusyError = (err: unknown): boolean => /^SQLITE_(BUSY|LOCKED)/.test(sqliteCode(err));

/**
 * Errors that say nothing about the event being ingested (locks, disk, memory, corruption):
 * they abort the whole batch so the caller retries, instead of becoming a per-event rejection.
 */
export function isEnvironmentError(err: unknown): boolean {
  return /^SQLITE_(BUSY|LOCKED|FULL|IOERR|NOMEM|READONLY|CORRUPT|NOTADB|CANTOPEN|PERM|INTERRUPT|PROTOCOL)/.test(
    sqliteCode(err),
  );
}

/** Why the database cannot take a write right now; nothing of the failed transaction was committed. */
export type StorageProblem = 'full' | 'readonly' | 'io';

/**
 * A write failed because of where the database lives (disk full, read-only file or file system,
 * I/O error), not because of what was written: the caller keeps its data and retries later.
 */
export function storageProblem(err: unknown): StorageProblem | undefined {
  const code = sqliteCode(err);
  if (/^SQLITE_FULL/.test(code)) return 'full';
  if (/^SQLITE_(READONLY|CANTOPEN|PERM)/.test(code) || (err as { code?: unknown })?.code === 'store_readonly') return 'readonly';
  if (/^SQLITE_IOERR/.test(code)) return 'io';
  return undefined;
}

/** Maps an error raised while opening the database to a StoreError naming the file. */
export function openError(err: unknown, path: string): Error {
  if (err instanceof StoreError) return err;
  const detail = err instanceof Error ? err.message : String(err);
  if (isCorruptError(err)) {
    return new StoreError('store_corrupt', `The database ${path} is corrupt or not a SQLite database (${detail}).`, path, { cause: err });
  }
  if (isBusyError(err)) {
    return new StoreError('store_busy', `The database ${path} is locked by another process (${detail}).`, path, { cause: err });
  }
  return new StoreError('store_open_failed', `Cannot open the database ${path}: ${detail}`, path, { cause: err });
}
