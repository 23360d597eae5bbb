/**
 * The spool: capture that could not reach the worker. Each writer puts its batch in a file of
 * its own (written to a temp name, fsynced, renamed), so concurrent hooks never interleave and a
 * reader never sees half a file. The worker drains complete files; idempotency keys make a file
 * read twice (crash between store and delete) store nothing new.
 */
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { CaptureEvent } from './capture-event.js';

const SPOOL_SUFFIX = '.jsonl';

// A process's files sort in the order it wrote them, even several in one millisecond (a plugin
// spooling batch after batch) or across a clock step back: the drain stores them in that order.
let lastTime = 0;
let sequence = 0;

/** Appends events durably; returns the file written. Throws on failure (the caller decides). */
export function writeSpool(spoolDir: string, events: readonly CaptureEvent[]): string {
  mkdirSync(spoolDir, { recursive: true, mode: 0o700 });
  lastTime = Math.max(lastTime, Date.now());
  const seq = (sequence++ % 36 ** 6).toString(36).padStart(6, '0');
  // Time, then this process's write order; pid + random make names unique ('wx' below refuses a clash).
  const name = `${lastTime.toString(36).padStart(9, '0')}-${process.pid}-${seq}-${Math.random().toString(36).slice(2, 10)}`;
  const tmp = join(spoolDir, `.${name}.tmp`);
  const final = join(spoolDir, `${name}${SPOOL_SUFFIX}`);
  const body = Buffer.from(events.map((e) => JSON.stringify(e)).join('\n') + '\n');
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    try {
      // A short write (disk filling up) is continued, so it either completes or throws ENOSPC.
      for (let done = 0; done < body.length;) done += writeSync(fd, body, done, body.length - done);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, final);
  } catch (err) {
    // A full disk leaves an empty or partial temp file: remove it, the caller records the loss.
    try { unlinkSync(tmp); } catch { /* not created, or already gone */ }
    throw err;
  }
  try {
    const dfd = openSync(spoolDir, 'r');
    try { fsyncSync(dfd); } finally { closeSync(dfd); }
  } catch {
    // Directory fsync is not supported everywhere; the rename is still atomic.
  }
  return final;
}

interface SpoolFile {
  path: string;
  name: string;
  mtimeMs: number;
  size: number;
}

/** Complete spool files, oldest first. */
export function listSpool(spoolDir: string): SpoolFile[] {
  let names: string[];
  try {
    names = readdirSync(spoolDir);
  } catch {
    return [];
  }
  const files: SpoolFile[] = [];
  for (const name of names) {
    if (!name.endsWith(SPOOL_SUFFIX) || name.startsWith('.')) continue;
    const path = join(spoolDir, name);
    try {
      const st = statSync(path);
      files.push({ path, name, mtimeMs: st.mtimeMs, size: st.size });
    } catch {
      // Removed by a concurrent drain.
    }
  }
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

interface SpoolRead {
  events: CaptureEvent[];
  /** Lines that are not JSON objects: kept for a dead letter, never silently dropped. */
  bad: string[];
}

export function readSpool(path: string): SpoolRead {
  const out: SpoolRead = { events: [], bad: [] };
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const v = JSON.parse(line) as unknown;
      if (v && typeof v === 'object' && !Array.isArray(v)) out.events.push(v as CaptureEvent);
      else out.bad.push(line);
    } catch {
      out.bad.push(line);
    }
  }
  return out;
}

export function removeSpool(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already drained by another reader.
  }
}
