/**
 * Goose sessions: since v1.10 in SQLite (`$XDG_DATA_HOME/goose/sessions/sessions.db`: `sessions`
 * with id and working_dir, `messages` with role and content_json), before that one JSONL file per
 * session (a metadata line with working_dir, then one message per line). Both become the same
 * lines: a history-context line naming the session, the metadata, then the messages
 * `{id, role, created, content[]}` (content blocks text / toolRequest / toolResponse / …).
 */
import { basename } from 'node:path';
import type { HistoryLog } from './reader-types.js';
import { bufferSource } from '../byte-source.js';
import type { HistoryReader } from './reader-types.js';
import { jsonLines, prefixedFile } from './sources.js';
import { hasColumns, json, withReadOnlyDb, type ReadOnlyDb } from './sqlite-snapshot.js';

const isDb = (path: string) => path.endsWith('.db');

function usable(db: ReadOnlyDb): boolean {
  return hasColumns(db, 'sessions', ['id', 'working_dir']) && hasColumns(db, 'messages', ['session_id', 'role', 'content_json']);
}

function sessionLines(db: ReadOnlyDb, id: string): unknown[] | null {
  const s = db.prepare('SELECT * FROM sessions WHERE id = ?').get(id) as Record<string, unknown> | undefined;
  if (!s) return null;
  const time = hasColumns(db, 'messages', ['created_timestamp']) ? 'created_timestamp' : 'NULL';
  const msgId = hasColumns(db, 'messages', ['message_id']) ? 'message_id' : 'NULL';
  const rows = db.prepare(`SELECT ${msgId} AS message_id, role, content_json, ${time} AS created FROM messages WHERE session_id = ? ORDER BY rowid`).all(id) as
    Array<{ message_id: string | null; role: string; content_json: string; created: number | null }>;
  const meta: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) meta[k] = json(v);
  return [
    { type: 'history-context', sessionId: id },
    meta,
    ...rows.map((r) => ({ id: r.message_id ?? undefined, role: r.role, created: r.created ?? undefined, content: json(r.content_json) })),
  ];
}

export const gooseSessions: HistoryReader = {
  async list(path, file): Promise<HistoryLog[]> {
    if (!isDb(path)) return [{ key: path, path, bytes: file.bytes, mtimeMs: file.mtimeMs, sessionId: basename(path).replace(/\.jsonl$/, '') }];
    return withReadOnlyDb(path, (db) => {
      if (!usable(db)) return [];
      const updated = hasColumns(db, 'sessions', ['updated_at']) ? 's.updated_at' : 'NULL';
      const rows = db.prepare(`SELECT s.id, s.working_dir, ${updated} AS updated, coalesce(m.bytes, 0) AS bytes FROM sessions s
        LEFT JOIN (SELECT session_id, sum(length(content_json)) AS bytes FROM messages GROUP BY session_id) m ON m.session_id = s.id
        ORDER BY s.rowid`).all() as
        Array<{ id: string; working_dir: string; updated: unknown; bytes: number }>;
      return rows.map((r) => {
        const t = typeof r.updated === 'number' ? r.updated : typeof r.updated === 'string' ? Date.parse(r.updated.includes('T') || r.updated.endsWith('Z') ? r.updated : `${r.updated.replace(' ', 'T')}Z`) : NaN;
        return { key: `${path}#${r.id}`, path, bytes: Number(r.bytes) || 0, mtimeMs: Number.isFinite(t) ? t : file.mtimeMs, sessionId: r.id, cwd: r.working_dir || undefined };
      });
    });
  },
  async open(log) {
    if (!isDb(log.path)) return prefixedFile(jsonLines([{ type: 'history-context', sessionId: log.sessionId }]), log.path);
    const lines = withReadOnlyDb(log.path, (db) => (usable(db) && log.sessionId ? sessionLines(db, log.sessionId) : null));
    return lines ? bufferSource(jsonLines(lines), 0, log.mtimeMs) : null;
  },
};
