/**
 * Reads complete JSONL lines from a byte offset. A partial last line waits for its newline; a
 * line over the limit is never held whole: its head is kept for the dead letter and the rest is
 * skipped up to the next newline.
 */
import type { ByteSource as FileHandle } from './byte-source.js';

export const DEAD_LETTER_RAW_BYTES = 64 * 1024;

export interface LineItem {
  /** Byte offset where the record starts (for zstd: where its frame starts). */
  start: number;
  /** Offset a checkpoint may take after this item; null inside a zstd frame group. */
  end: number | null;
  text?: string;
  /** Set for a line over the size limit: its length and first bytes. */
  oversize?: { bytes: number; head: string };
  /** Set for bytes that cannot be decoded (corrupt zstd frame). */
  corrupt?: { reason: string; head: string };
}

export interface ReadResult {
  items: LineItem[];
  /** Offset after the last complete item: where the next read starts. */
  next: number;
}

/** Carries a skip through an over-long line across reads, so a growing line is scanned once. */
export interface SkipState {
  lineStart: number;
  scannedTo: number;
  head: string;
}

interface ReadOptions {
  chunkBytes: number;
  /** Stop after roughly this many bytes of complete lines. */
  budgetBytes: number;
  maxLineBytes: number;
  skip?: SkipState | null;
}

export async function readLines(fh: FileHandle, offset: number, size: number, opts: ReadOptions): Promise<ReadResult & { skip: SkipState | null }> {
  const items: LineItem[] = [];
  let consumed = offset;
  let pos = offset;
  let carry: Buffer[] = [];
  let carryLen = 0;
  let skipping = false;
  let head = '';
  if (opts.skip && opts.skip.lineStart === offset && opts.skip.scannedTo <= size) {
    skipping = true;
    head = opts.skip.head;
    pos = opts.skip.scannedTo;
  }
  const buf = Buffer.allocUnsafe(opts.chunkBytes);
  while (pos < size && consumed - offset < opts.budgetBytes) {
    const want = Math.min(opts.chunkBytes, size - pos);
    const { bytesRead } = await fh.read(buf, 0, want, pos);
    if (bytesRead <= 0) break;
    const chunkStart = pos;
    pos += bytesRead;
    let ls = 0;
    for (;;) {
      const nl = buf.indexOf(10, ls);
      if (nl < 0 || nl >= bytesRead) break;
      const lineEnd = chunkStart + nl + 1;
      if (skipping) {
        items.push({ start: consumed, end: lineEnd, oversize: { bytes: lineEnd - 1 - consumed, head } });
        skipping = false;
        head = '';
      } else if (carryLen > 0) {
        if (carryLen + nl - ls > opts.maxLineBytes) {
          const whole = Buffer.concat([...carry, buf.subarray(ls, Math.min(nl, ls + DEAD_LETTER_RAW_BYTES))]);
          items.push({ start: consumed, end: lineEnd, oversize: { bytes: carryLen + nl - ls, head: whole.subarray(0, DEAD_LETTER_RAW_BYTES).toString('utf8') } });
        } else {
          items.push({ start: consumed, end: lineEnd, text: Buffer.concat([...carry, buf.subarray(ls, nl)]).toString('utf8') });
        }
        carry = [];
        carryLen = 0;
      } else if (nl - ls > opts.maxLineBytes) {
        items.push({ start: consumed, end: lineEnd, oversize: { bytes: nl - ls, head: buf.subarray(ls, ls + DEAD_LETTER_RAW_BYTES).toString('utf8') } });
      } else if (nl > ls) {
        items.push({ start: consumed, end: lineEnd, text: buf.toString('utf8', ls, nl) });
      } else {
        items.push({ start: consumed, end: lineEnd }); // empty line: consumed, nothing to read
      }
      consumed = lineEnd;
      ls = nl + 1;
    }
    if (ls < bytesRead && !skipping) {
      // Copy: the read buffer is reused for the next chunk.
      carry.push(Buffer.from(buf.subarray(ls, bytesRead)));
      carryLen += bytesRead - ls;
      if (carryLen > opts.maxLineBytes) {
        head = Buffer.concat(carry).subarray(0, DEAD_LETTER_RAW_BYTES).toString('utf8');
        carry = [];
        carryLen = 0;
        skipping = true;
      }
    }
  }
  const skip = skipping ? { lineStart: consumed, scannedTo: pos, head } : null;
  return { items, next: consumed, skip };
}
