/**
 * What the processor reads a log through: an open file (node's FileHandle fits as is), or the
 * line stream a history reader made from a store that is not JSON lines.
 */
interface ByteStat {
  ino: number;
  size: number;
  birthtimeMs: number;
  mtimeMs: number;
}

export interface ByteSource {
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
  stat(): Promise<ByteStat>;
  close(): Promise<void>;
}

/** A finished buffer as a source; `ino` and `timeMs` must be stable across runs for one log. */
export function bufferSource(data: Buffer, ino: number, timeMs: number): ByteSource {
  return {
    async read(buffer, offset, length, position) {
      if (position >= data.length || length <= 0) return { bytesRead: 0 };
      const n = data.copy(buffer, offset, position, Math.min(data.length, position + length));
      return { bytesRead: n };
    },
    async stat() { return { ino, size: data.length, birthtimeMs: timeMs, mtimeMs: timeMs }; },
    async close() { /* nothing held */ },
  };
}
