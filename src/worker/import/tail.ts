/**
 * A log that ends inside a record (no newline after its last bytes): the watcher waits for the
 * rest, as the host may still be writing it. An import of a log nobody has written to for a while
 * (a host that crashed mid-write) dead-letters that tail once instead, so it is visible and never
 * silently lost; the import's position stays before it, so should the host ever append, the line
 * is read again (and, being garbled, dead-lettered with its successor's bytes).
 */
import { open } from 'node:fs/promises';
import type { MemoryStore } from '../../store/types.js';
import { historyCheckpointKey, type HistoryLog } from '../../transcripts/history.js';

/** A log untouched for this long is not being written. */
const COLD_AFTER_MS = 10 * 60 * 1000;
const RAW_BYTES = 64 * 1024;

const tailKey = (log: HistoryLog) => `history-tail:${log.key}`;

/** Returns 1 when a tail was dead-lettered now, else 0. */
export async function letterColdTail(store: MemoryStore, log: HistoryLog, now = Date.now()): Promise<number> {
  // Only a log read as it is on disk: a reader's made lines have offsets of their own.
  if (log.madeLines || log.path !== log.key || /\.(zst|zstd)$/.test(log.path) || now - log.mtimeMs < COLD_AFTER_MS) return 0;
  const cp = store.getCheckpoint(historyCheckpointKey(log));
  if (!cp || cp.offset >= log.bytes) return 0;
  const seen = store.getCheckpoint(tailKey(log));
  if (seen && seen.offset === log.bytes && (seen.context as { from?: number }).from === cp.offset) return 0;
  let raw = '';
  const fh = await open(log.path, 'r');
  try {
    const buf = Buffer.alloc(Math.min(RAW_BYTES, log.bytes - cp.offset));
    const { bytesRead } = await fh.read(buf, 0, buf.length, cp.offset);
    raw = buf.toString('utf8', 0, bytesRead);
  } finally {
    await fh.close();
  }
  if (!raw.trim()) return 0;
  store.addDeadLetter({
    source: 'transcript', filePath: log.path, offset: cp.offset, raw,
    reason: `the log ends inside a record (${log.bytes - cp.offset} bytes without a newline) and has not changed for ${COLD_AFTER_MS / 60_000} minutes`,
  });
  store.ingestWithCheckpoint([], { filePath: tailKey(log), watchName: 'history', offset: log.bytes, inode: null, fingerprint: null, pending: {}, context: { from: cp.offset } });
  return 1;
}
