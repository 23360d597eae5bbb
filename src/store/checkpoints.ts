/** Transcript reading state (src/transcripts/README.md) and the dead letters of lines that can never be stored. */
import { sanitizeValue } from '../shared/privacy.js';
import { StoreError } from './errors.js';
import type { StatementCache } from './statements.js';
import type { DeadLetter, TranscriptCheckpoint } from './types.js';

const MAX_DEAD_LETTER_BYTES = 64 * 1024;
const MAX_REASON_BYTES = 4 * 1024;

/** Cuts a string to at most `maxBytes` of UTF-8 without splitting a character. */
function boundBytes(s: string, maxBytes: number): string {
  if (Buffer.byteLength(s, 'utf8') <= maxBytes) return s;
  const cut = Buffer.from(s, 'utf8').subarray(0, maxBytes).toString('utf8');
  return cut.endsWith('\uFFFD') ? cut.slice(0, -1) : cut;
}

/** Upserts a file's checkpoint; throws on an invalid one (the caller's transaction then rolls back). */
export function writeCheckpoint(stmts: StatementCache, cp: TranscriptCheckpoint, now: Date): void {
  if (!cp || typeof cp.filePath !== 'string' || !cp.filePath) throw new StoreError('invalid_input', 'checkpoint.filePath is required');
  if (!Number.isSafeInteger(cp.offset) || cp.offset < 0) throw new StoreError('invalid_input', 'checkpoint.offset must be a non-negative integer');
  stmts
    .get(`INSERT INTO transcript_files (file_path, watch_name, offset, inode, fingerprint, pending, context, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (file_path) DO UPDATE SET watch_name = excluded.watch_name, offset = excluded.offset,
        inode = excluded.inode, fingerprint = excluded.fingerprint, pending = excluded.pending,
        context = excluded.context, updated_at = excluded.updated_at`)
    .run(
      cp.filePath, String(cp.watchName ?? ''), cp.offset, cp.inode ?? null, cp.fingerprint ?? null,
      JSON.stringify(cp.pending ?? {}), JSON.stringify(cp.context ?? {}), now.toISOString(),
    );
}

export function readCheckpoint(stmts: StatementCache, filePath: string): TranscriptCheckpoint | undefined {
  const r = stmts.get('SELECT * FROM transcript_files WHERE file_path = ?').get(filePath) as
    | { file_path: string; watch_name: string; offset: number; inode: number | null; fingerprint: string | null; pending: string; context: string; updated_at: string }
    | undefined;
  if (!r) return undefined;
  return {
    filePath: r.file_path, watchName: r.watch_name, offset: r.offset, inode: r.inode, fingerprint: r.fingerprint,
    pending: JSON.parse(r.pending) as Record<string, unknown>, context: JSON.parse(r.context) as Record<string, unknown>,
    updatedAt: r.updated_at,
  };
}

export function addDeadLetter(stmts: StatementCache, letter: DeadLetter, now: Date): number {
  // A dead letter is raw input: it gets the same privacy pass as any event before it is kept.
  const raw = boundBytes(String(sanitizeValue(String(letter.raw ?? ''))), MAX_DEAD_LETTER_BYTES);
  const reason = boundBytes(String(sanitizeValue(String(letter.reason ?? ''))), MAX_REASON_BYTES);
  const r = stmts
    .get('INSERT INTO dead_letters (source, file_path, offset, reason, raw, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .run(letter.source, letter.filePath ?? null, letter.offset ?? null, reason, raw, now.toISOString());
  return Number(r.lastInsertRowid);
}

/** The newest dead letters first. */
export function listDeadLetters(stmts: StatementCache, limit: number): DeadLetter[] {
  const n = Math.min(1000, Math.max(1, Math.trunc(limit) || 100));
  const rows = stmts.get('SELECT * FROM dead_letters ORDER BY id DESC LIMIT ?').all(n) as {
    id: number; source: DeadLetter['source']; file_path: string | null; offset: number | null; reason: string; raw: string; created_at: string;
  }[];
  return rows.map((r) => ({
    id: r.id, source: r.source, filePath: r.file_path, offset: r.offset, reason: r.reason, raw: r.raw, createdAt: r.created_at,
  }));
}
