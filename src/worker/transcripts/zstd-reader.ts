/**
 * Concatenated zstd frames (DSH `session.jsonl.zstd`): frame boundaries are found from the frame
 * and block headers without decompressing, only complete frames are decoded (fzstd, pure JS), and
 * checkpoints land on frame boundaries. A frame whose text does not end in a newline is decoded
 * together with the next ones, so a checkpoint never splits a line.
 */
import type { ByteSource as FileHandle } from './byte-source.js';
import { decompress } from 'fzstd';
import { DEAD_LETTER_RAW_BYTES, type LineItem, type ReadResult } from './line-reader.js';

const ZSTD_MAGIC = 0xfd2fb528;
const SKIPPABLE_MASK = 0xfffffff0;
const SKIPPABLE_MAGIC = 0x184d2a50;
/** Larger frames are refused (dead-lettered) rather than decoded in memory. */
export const MAX_FRAME_BYTES = 256 * 1024 * 1024;

export function isZstdMagic(b: Buffer): boolean {
  return b.length >= 4 && (b.readUInt32LE(0) === ZSTD_MAGIC || (b.readUInt32LE(0) & SKIPPABLE_MASK) === SKIPPABLE_MAGIC);
}

type FrameScan =
  | { kind: 'frame' | 'skippable'; length: number }
  | { kind: 'incomplete'; needed: number }
  | { kind: 'invalid'; reason: string };

/** The length of the frame starting at `at` in `b`, if all of it is there. */
export function scanFrame(b: Buffer, at: number): FrameScan {
  const avail = b.length - at;
  if (avail < 4) return { kind: 'incomplete', needed: 4 };
  const magic = b.readUInt32LE(at);
  if ((magic & SKIPPABLE_MASK) === SKIPPABLE_MAGIC) {
    if (avail < 8) return { kind: 'incomplete', needed: 8 };
    const len = 8 + b.readUInt32LE(at + 4);
    return avail < len ? { kind: 'incomplete', needed: len } : { kind: 'skippable', length: len };
  }
  if (magic !== ZSTD_MAGIC) return { kind: 'invalid', reason: `no zstd frame magic (found 0x${magic.toString(16)})` };
  if (avail < 5) return { kind: 'incomplete', needed: 5 };
  const fhd = b[at + 4];
  const fcsFlag = fhd >> 6;
  const single = (fhd >> 5) & 1;
  if ((fhd >> 3) & 1) return { kind: 'invalid', reason: 'reserved bit set in frame header' };
  const checksum = (fhd >> 2) & 1;
  const dictBytes = [0, 1, 2, 4][fhd & 3];
  const fcsBytes = fcsFlag === 0 ? single : [0, 2, 4, 8][fcsFlag];
  let p = at + 5 + (single ? 0 : 1) + dictBytes + fcsBytes;
  for (;;) {
    if (p + 3 > b.length) return { kind: 'incomplete', needed: p + 3 - at };
    const h = b[p] | (b[p + 1] << 8) | (b[p + 2] << 16);
    const last = h & 1;
    const type = (h >> 1) & 3;
    const size = h >>> 3;
    if (type === 3) return { kind: 'invalid', reason: 'reserved block type' };
    p += 3 + (type === 1 ? 1 : size);
    if (p - at > MAX_FRAME_BYTES) return { kind: 'invalid', reason: `frame larger than ${MAX_FRAME_BYTES} bytes` };
    if (last) break;
  }
  p += checksum ? 4 : 0;
  if (p > b.length) return { kind: 'incomplete', needed: p - at };
  return { kind: 'frame', length: p - at };
}

export interface ZstdReadOptions {
  /** Stop after roughly this many compressed bytes of complete frames. */
  budgetBytes: number;
  maxLineBytes: number;
}

/** Reads the complete frames after `offset` and returns their lines. */
export async function readZstdFrames(fh: FileHandle, offset: number, size: number, opts: ZstdReadOptions): Promise<ReadResult> {
  const items: LineItem[] = [];
  let next = offset;
  let window = Math.min(size - offset, Math.max(opts.budgetBytes, 64 * 1024));
  let buf = Buffer.alloc(0);
  let bufStart = offset;
  // Text of frames that ended mid-line, with where that group began.
  let groupStart = offset;
  let groupText = '';
  const decoder = new TextDecoder('utf-8');

  const loadFrom = async (from: number, length: number) => {
    const b = Buffer.allocUnsafe(length);
    const { bytesRead } = await fh.read(b, 0, length, from);
    buf = b.subarray(0, bytesRead);
    bufStart = from;
  };

  // A corrupt frame after frames that ended mid-line: their partial text is dead-lettered too.
  const breakGroup = (at: number) => {
    if (!groupText) return;
    items.push({ start: groupStart, end: at, corrupt: { reason: 'line cut short by a corrupt zstd frame', head: groupText.slice(0, DEAD_LETTER_RAW_BYTES) } });
    groupText = '';
  };

  let pos = offset;
  await loadFrom(pos, window);
  while (pos < size && next - offset < opts.budgetBytes) {
    const rel = pos - bufStart;
    const scan = scanFrame(buf, rel);
    if (scan.kind === 'incomplete') {
      if (bufStart + buf.length >= size) break; // the writer has not finished this frame
      window = Math.min(size - pos, Math.max(scan.needed, window * 2));
      await loadFrom(pos, window);
      continue;
    }
    if (scan.kind === 'invalid') {
      // Resynchronise on the next frame magic; the bytes in between are dead-lettered.
      let found = -1;
      for (let i = rel + 1; i + 4 <= buf.length; i++) {
        if (buf[i] === 0x28 && buf[i + 1] === 0xb5 && buf[i + 2] === 0x2f && buf[i + 3] === 0xfd) { found = i; break; }
      }
      if (found < 0 && bufStart + buf.length < size && window < MAX_FRAME_BYTES) {
        window = Math.min(size - pos, window * 2);
        await loadFrom(pos, window);
        continue;
      }
      const end = found < 0 ? bufStart + buf.length : bufStart + found;
      breakGroup(pos);
      items.push({ start: pos, end, corrupt: { reason: scan.reason, head: buf.subarray(rel, Math.min(rel + 256, buf.length)).toString('hex') } });
      pos = end;
      next = pos;
      continue;
    }
    const frameStart = pos;
    const frame = buf.subarray(rel, rel + scan.length);
    pos += scan.length;
    if (scan.kind === 'skippable') {
      if (!groupText) next = pos;
      continue;
    }
    let text: string;
    try {
      text = decoder.decode(decompress(frame));
    } catch (e) {
      breakGroup(frameStart);
      items.push({ start: frameStart, end: pos, corrupt: { reason: `zstd frame does not decode: ${(e as Error).message}`, head: frame.subarray(0, 256).toString('hex') } });
      next = pos;
      continue;
    }
    if (!groupText) groupStart = frameStart;
    groupText += text;
    if (!groupText.endsWith('\n')) continue;
    const lines = groupText.split('\n');
    lines.pop();
    lines.forEach((line, i) => {
      const last = i === lines.length - 1;
      const end = last ? pos : null;
      if (Buffer.byteLength(line) > opts.maxLineBytes) {
        items.push({ start: groupStart, end, oversize: { bytes: Buffer.byteLength(line), head: line.slice(0, DEAD_LETTER_RAW_BYTES) } });
      } else {
        items.push({ start: groupStart, end, text: line });
      }
    });
    groupText = '';
    next = pos;
  }
  // Items of an unfinished group are not returned: they are re-read with the rest of their line.
  let keep = items.length;
  while (keep > 0 && items[keep - 1].end === null) keep--;
  return { items: items.slice(0, keep), next };
}
