/**
 * The loss record (`<data>/lost-events`): events that neither the worker acknowledged nor the
 * spool could keep (a full disk, a read-only spool) are gone, and this says how many, when and
 * why, for `status` and `doctor`.
 *
 * It has to be writable when nothing else is. So it is a file of fixed size, made ahead of time
 * (the worker creates it when it starts) and only ever rewritten in place: overwriting bytes a
 * file already has needs no new disk block, which works on a full disk where creating even an
 * empty spool file's content fails. Each process writes its own slot (pid modulo the slot count),
 * so concurrent hooks do not overwrite each other's counts.
 *
 * Node built-ins only: the hook bundle imports this file.
 */
import { closeSync, fsyncSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const LOSS_SLOTS = 64;
export const LOSS_SLOT_BYTES = 192;
const FILE_BYTES = LOSS_SLOTS * LOSS_SLOT_BYTES;

export function lossRecordPath(root: string): string {
  return join(root, 'lost-events');
}

interface Slot {
  n: number;
  first: string;
  last: string;
  /** errno code of the last failure (ENOSPC, EROFS, EACCES, ...). */
  code: string;
  why: string;
}

export interface LossSummary {
  /** Events lost in all. */
  lost: number;
  firstAt: string;
  lastAt: string;
  /** The most recent failure: its errno code and message. */
  code: string;
  reason: string;
  file: string;
}

function blankFile(): Buffer {
  const b = Buffer.alloc(FILE_BYTES, 0x20);
  for (let i = 1; i <= LOSS_SLOTS; i++) b[i * LOSS_SLOT_BYTES - 1] = 0x0a;
  return b;
}

function encode(slot: Slot): Buffer {
  const b = Buffer.alloc(LOSS_SLOT_BYTES, 0x20);
  b[LOSS_SLOT_BYTES - 1] = 0x0a;
  let text = JSON.stringify(slot);
  // The reason gives way first: the count and times must always fit.
  for (let why = slot.why; Buffer.byteLength(text) > LOSS_SLOT_BYTES - 1; ) {
    why = why.slice(0, Math.max(0, why.length - 16));
    text = JSON.stringify({ ...slot, why });
  }
  b.write(text, 0, 'utf8');
  return b;
}

function decode(buf: Buffer): Slot | undefined {
  const text = buf.toString('utf8').trim();
  if (!text) return undefined;
  try {
    const s = JSON.parse(text) as Slot;
    return Number.isInteger(s.n) && s.n > 0 && typeof s.last === 'string' ? s : undefined;
  } catch {
    return undefined;
  }
}

function writeWhole(fd: number, buf: Buffer, position: number): void {
  for (let done = 0; done < buf.length;) done += writeSync(fd, buf, done, buf.length - done, position + done);
}

/** Creates the record if it is missing or not of its size (temp file + rename). Never throws. */
export function ensureLossRecord(root: string): boolean {
  const path = lossRecordPath(root);
  try {
    if (readFileSync(path).length === FILE_BYTES) return true;
  } catch {
    // Missing: created below.
  }
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeWhole(fd, blankFile(), 0);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
    return true;
  } catch {
    try { unlinkSync(tmp); } catch { /* never created */ }
    return false;
  }
}

/**
 * Counts `count` lost events in this process's slot, in place. Returns false when even that is
 * impossible (no record and no room to create one, a read-only file system).
 */
export function recordLoss(root: string, count: number, err: unknown, now = new Date()): boolean {
  if (count <= 0) return true;
  const path = lossRecordPath(root);
  let fd: number;
  try {
    fd = openSync(path, 'r+');
  } catch {
    if (!ensureLossRecord(root)) return false;
    try {
      fd = openSync(path, 'r+');
    } catch {
      return false;
    }
  }
  const offset = (process.pid % LOSS_SLOTS) * LOSS_SLOT_BYTES;
  const buf = Buffer.alloc(LOSS_SLOT_BYTES);
  try {
    readSync(fd, buf, 0, LOSS_SLOT_BYTES, offset);
  } catch {
    closeSync(fd);
    return false;
  }
  const old = decode(buf);
  const at = now.toISOString();
  const e = err as NodeJS.ErrnoException;
  const slot: Slot = {
    n: (old?.n ?? 0) + count,
    first: old?.first ?? at,
    last: at,
    code: typeof e?.code === 'string' ? e.code : 'unknown',
    why: (e?.message ?? String(err)).slice(0, 140),
  };
  return overwrite(fd, encode(slot), offset);
}

/** Overwrites bytes of the open record and makes them durable, then closes it. False on any failure. */
function overwrite(fd: number, buf: Buffer, position: number): boolean {
  try {
    writeWhole(fd, buf, position);
    fsyncSync(fd);
    return true;
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

/** What the record holds, or undefined when nothing was lost (or there is no record). */
export function readLosses(root: string): LossSummary | undefined {
  let data: Buffer;
  try {
    data = readFileSync(lossRecordPath(root));
  } catch {
    return undefined;
  }
  let out: LossSummary | undefined;
  for (let off = 0; off + LOSS_SLOT_BYTES <= data.length; off += LOSS_SLOT_BYTES) {
    const s = decode(data.subarray(off, off + LOSS_SLOT_BYTES));
    if (!s) continue;
    if (!out) {
      out = { lost: s.n, firstAt: s.first, lastAt: s.last, code: s.code, reason: s.why, file: lossRecordPath(root) };
      continue;
    }
    out.lost += s.n;
    if (s.first < out.firstAt) out.firstAt = s.first;
    if (s.last > out.lastAt) Object.assign(out, { lastAt: s.last, code: s.code, reason: s.why });
  }
  return out;
}

/** "ENOSPC: no space left on device, write": the code once, whether the message repeats it or not. */
export function lossReason(l: Pick<LossSummary, 'code' | 'reason'>): string {
  return l.reason.startsWith(l.code) ? l.reason : `${l.code}: ${l.reason}`;
}

/** Empties the record (in place, so it stays usable on a full disk). */
export function clearLosses(root: string): boolean {
  let fd: number;
  try {
    fd = openSync(lossRecordPath(root), 'r+');
  } catch {
    return ensureLossRecord(root);
  }
  return overwrite(fd, blankFile(), 0);
}
