/** worker.token: 32 random bytes, hex, mode 0600. Created once; every client reads it from disk. */
import { chmodSync, closeSync, openSync, statSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import type { DataPaths } from '../../shared/paths.js';
import { readToken } from '../../shared/worker-client.js';

/** The token, created when missing (O_EXCL, so concurrent creators agree on one). */
export function ensureToken(paths: DataPaths): { token: string; created: boolean } {
  const existing = readToken(paths);
  if (existing) {
    tightenMode(paths.token);
    return { token: existing, created: false };
  }
  const token = randomBytes(32).toString('hex');
  try {
    const fd = openSync(paths.token, 'wx', 0o600);
    try {
      writeSync(fd, `${token}\n`);
    } finally {
      closeSync(fd);
    }
    return { token, created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    const other = readToken(paths);
    if (other) return { token: other, created: false };
    throw new Error(`${paths.token} exists but is empty; remove it and start again`);
  }
}

/** A token readable by other users is no secret: put it back to 0600. */
function tightenMode(path: string): void {
  try {
    if ((statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o600);
  } catch {
    // Not ours to fix (another owner); doctor reports it.
  }
}
