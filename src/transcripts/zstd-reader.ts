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
const MAX_FRAME_BYTES = 256 * 1024 * 1024;

export function isZstdMagic(b: Buffer): boolean {
  return b.length >= 4 && (b.readUInt32LE(0) === ZSTD_MAGIC || (b.readUInt32LE(0) & SKIPPABLE_MASK) === SKIPPABLE_MAGIC);
}

type FrameScan =
  | { kind: 'frame' | 'skippable'; length: number }
  | { kind: 'incomplete'; needed: number }
  | { kind: 'invalid'; reason: string };

/** The length of the frame starting at `at` in `b`, if all of it is there. */
function scanFrame(b: Buffer, at: number): FrameScan {
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

interface ZstdReadOptions {
  /** Stop after roughly this many compressed bytes of complete frames. */
  budgetBytes: number;
  maxLineBytes: number;
}

/** Reads the complete frames after `offset` and returns their lines. */
export async function readZstdFrames(fh: FileHandle, offset: number, size: number, opts: ZstdReadOptions): Promise<ReadResult> {
  const r = new FrameReader(fh, offset, size, opts);
  await r.loadFrom(offset, r.window);
  while (r.pos < size && r.next - offset < opts.budgetBytes) {
    const rel = r.pos - r.bufStart;
    const scan = scanFrame(r.buf, rel);
    if (scan.kind === 'incomplete') {
      if (r.bufStart + r.buf.length >= size) break; // the writer has not finished this frame
      r.window = Math.min(size - r.pos, Math.max(scan.needed, r.window * 2));
      await r.loadFrom(r.pos, r.window);
    } else if (scan.kind === 'invalid') {
      await r.skipInvalid(rel, scan.reason);
    } else {
      r.takeFrame(rel, scan.kind, scan.length);
    }
  }
  // Items of an unfinished group are not returned: they are re-read with the rest of their line.
  const items = r.items;
  let keep = items.length;
  while (keep > 0 && items[keep - 1].end === null) keep--;
  return { items: items.slice(0, keep), next: r.next };
}

/** One read's position, read-ahead buffer and the text of frames that ended mid-line. */
class FrameReader {
  readonly items: LineItem[] = [];
  /** Where the next read may begin: the end of the last frame whose lines are complete. */
  next: number;
  pos: number;
  window: number;
  buf = Buffer.alloc(0);
  bufStart: number;
  // Text of frames that ended mid-line, with where that group began.
  private groupStart: number;
  private groupText = '';
  private readonly decoder = new TextDecoder('utf-8');

  constructor(private readonly fh: FileHandle, offset: number, private readonly size: number, private readonly opts: ZstdReadOptions) {
    this.next = offset;
    this.pos = offset;
    this.bufStart = offset;
    this.groupStart = offset;
    this.window = Math.min(size - offset, Math.max(opts.budgetBytes, 64 * 1024));
  }

  async loadFrom(from: number, length: number): Promise<void> {
    const b = Buffer.allocUnsafe(length);
    const { bytesRead } = await this.fh.read(b, 0, length, from);
    this.buf = b.subarray(0, bytesRead);
    this.bufStart = from;
  }

  /** Resynchronises on the next frame magic; the bytes in between are dead-lettered. */
  async skipInvalid(rel: number, reason: string): Promise<void> {
    const { buf, bufStart, pos } = this;
    let found = -1;
    for (let i = rel + 1; i + 4 <= buf.length; i++) {
      if (buf[i] === 0x28 && buf[i + 1] === 0xb5 && buf[i + 2] === 0x2f && buf[i + 3] === 0xfd) { found = i; break; }
    }
    if (found < 0 && bufStart + buf.length < this.size && this.window < MAX_FRAME_BYTES) {
      this.window = Math.min(this.size - pos, this.window * 2);
      await this.loadFrom(pos, this.window);
      return;
    }
    const end = found < 0 ? bufStart + buf.length : bufStart + found;
    this.breakGroup(pos);
    this.items.push({ start: pos, end, corrupt: { reason, head: buf.subarray(rel, Math.min(rel + 256, buf.length)).toString('hex') } });
    this.pos = end;
    this.next = end;
  }

  /** A complete frame: skipped, decoded into the current group, or dead-lettered if it does not decode. */
  takeFrame(rel: number, kind: 'frame' | 'skippable', length: number): void {
    const frameStart = this.pos;
    const frame = this.buf.subarray(rel, rel + length);
    this.pos += length;
    if (kind === 'skippable') {
      if (!this.groupText) this.next = this.pos;
      return;
    }
    let text: string;
    try {
      text = this.decoder.decode(decompress(frame));
    } catch (e) {
      this.breakGroup(frameStart);
      this.items.push({ start: frameStart, end: this.pos, corrupt: { reason: `zstd frame does not decode: ${(e as Error).message}`, head: frame.subarray(0, 256).toString('hex') } });
      this.next = this.pos;
      return;
    }
    if (!this.groupText) this.groupStart = frameStart;
    this.groupText += text;
    if (this.groupText.endsWith('\n')) this.emitGroup();
  }

  /** The group's lines; only the last carries an end, so a checkpoint lands after the whole group. */
  private emitGroup(): void {
    const { groupStart, pos } = this;
    const lines = this.groupText.split('\n');
    lines.pop();
    lines.forEach((line, i) => {
      const end = i === lines.length - 1 ? pos : null;
      if (Buffer.byteLength(line) > this.opts.maxLineBytes) {
        this.items.push({ start: groupStart, end, oversize: { bytes: Buffer.byteLength(line), head: line.slice(0, DEAD_LETTER_RAW_BYTES) } });
      } else {
        this.items.push({ start: groupStart, end, text: line });
      }
    });
    this.groupText = '';
    this.next = pos;
  }

  /** A corrupt frame after frames that ended mid-line: their partial text is dead-lettered too. */
  private breakGroup(at: number): void {
    if (!this.groupText) return;
    this.items.push({ start: this.groupStart, end: at, corrupt: { reason: 'line cut short by a corrupt zstd frame', head: this.groupText.slice(0, DEAD_LETTER_RAW_BYTES) } });
    this.groupText = '';
  }
}
