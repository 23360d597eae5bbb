/** Byte sources readers build: a context line in front of a file, or lines made in memory. */
import { open, type FileHandle } from 'node:fs/promises';
import type { ByteSource } from '../byte-source.js';

/**
 * `prefix` (whole lines) followed by the file's bytes, read lazily: the file is never held in
 * memory, and offsets stay stable while the prefix does (a changed prefix changes the head
 * fingerprint, so the log is read again from 0 and idempotency keys keep rows single).
 */
export async function prefixedFile(prefix: Buffer, path: string): Promise<ByteSource> {
  const fh: FileHandle = await open(path, 'r');
  const p = prefix.length;
  return {
    async read(buffer, offset, length, position) {
      let done = 0;
      if (position < p) {
        done = prefix.copy(buffer, offset, position, Math.min(p, position + length));
      }
      if (done < length) {
        const from = Math.max(0, position + done - p);
        const { bytesRead } = await fh.read(buffer, offset + done, length - done, from);
        done += bytesRead;
      }
      return { bytesRead: done };
    },
    async stat() {
      const st = await fh.stat();
      return { ino: st.ino, size: st.size + p, birthtimeMs: st.birthtimeMs, mtimeMs: st.mtimeMs };
    },
    close: () => fh.close(),
  };
}

/** One JSON object per line. */
export function jsonLines(records: Iterable<unknown>): Buffer {
  const parts: string[] = [];
  for (const r of records) parts.push(JSON.stringify(r));
  return Buffer.from(parts.length ? parts.join('\n') + '\n' : '', 'utf8');
}
