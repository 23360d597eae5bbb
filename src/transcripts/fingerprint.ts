/**
 * Identity of the bytes already consumed: a hash of the file's head and of the window just before
 * the offset. A different inode, a file shorter than the offset or a changed fingerprint means
 * the file was rotated, truncated or replaced, and is read again from 0.
 */
import { createHash } from 'node:crypto';
import type { ByteSource as FileHandle } from './byte-source.js';

const HEAD_BYTES = 1024;
const TAIL_BYTES = 4096;

export async function fingerprint(fh: FileHandle, offset: number): Promise<string | null> {
  if (offset <= 0) return null;
  const headLen = Math.min(HEAD_BYTES, offset);
  const tailLen = Math.min(TAIL_BYTES, offset);
  const buf = Buffer.allocUnsafe(headLen + tailLen);
  const a = await fh.read(buf, 0, headLen, 0);
  const b = await fh.read(buf, headLen, tailLen, offset - tailLen);
  if (a.bytesRead < headLen || b.bytesRead < tailLen) return 'short';
  return createHash('sha1').update(buf).digest('hex').slice(0, 24) + `:${offset}`;
}
