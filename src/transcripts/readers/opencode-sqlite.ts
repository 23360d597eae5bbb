/**
 * OpenCode 1.x keeps sessions in SQLite (`$XDG_DATA_HOME/opencode/opencode.db`): `session`,
 * `message` (data = role, model, summary flag, …) and `part` (data.type text / tool / …, one row
 * per text block or tool call, its state holding input and output). Each session becomes one
 * log: a `session` line, then per message a `message` line followed by its `part` lines, each
 * part carrying its message's role and summary flag (the join the schema language cannot make).
 * Older OpenCode's JSON files (`storage/session/<project>/<session>.json`) give the same lines.
 */
import type { HistoryLog } from './reader-types.js';
import { bufferSource } from '../byte-source.js';
import type { HistoryReader } from './reader-types.js';
import { listSessionFile, sessionFileLines } from './opencode-files.js';
import { jsonLines } from './sources.js';
import { hasColumns, json, withReadOnlyDb, type ReadOnlyDb } from './sqlite-snapshot.js';

const SESSION_COLUMNS = ['id', 'directory', 'time_created', 'time_updated'];
const ROW_COLUMNS = ['id', 'session_id', 'time_created', 'data'];

function usable(db: ReadOnlyDb): boolean {
  return hasColumns(db, 'session', SESSION_COLUMNS) && hasColumns(db, 'message', ROW_COLUMNS) && hasColumns(db, 'part', [...ROW_COLUMNS, 'message_id']);
}

interface Row { id: string; session_id: string; message_id?: string; time_created: number; data: string }

function sessionLines(db: ReadOnlyDb, sessionId: string): unknown[] | null {
  const s = db.prepare('SELECT * FROM session WHERE id = ?').get(sessionId) as Record<string, unknown> | undefined;
  if (!s) return null;
  const session: Record<string, unknown> = { type: 'session' };
  for (const [k, v] of Object.entries(s)) session[k] = json(v);
  const messages = db.prepare('SELECT id, session_id, time_created, data FROM message WHERE session_id = ? ORDER BY time_created, id').all(sessionId) as Row[];
  const parts = db.prepare('SELECT id, message_id, session_id, time_created, data FROM part WHERE session_id = ? ORDER BY time_created, id').all(sessionId) as Row[];
  const byMessage = new Map<string, Row[]>();
  for (const p of parts) {
    const list = byMessage.get(p.message_id ?? '') ?? [];
    list.push(p);
    byMessage.set(p.message_id ?? '', list);
  }
  const out: unknown[] = [session];
  for (const m of messages) {
    const data = json(m.data) as Record<string, unknown> | null;
    const role = data && typeof data === 'object' ? data.role : undefined;
    const summary = data && typeof data === 'object' && data.summary === true;
    out.push({ type: 'message', id: m.id, session_id: m.session_id, time_created: m.time_created, data });
    for (const p of byMessage.get(m.id) ?? []) {
      out.push({ type: 'part', id: p.id, message_id: p.message_id, session_id: p.session_id, time_created: p.time_created, role, summary, data: json(p.data) });
    }
  }
  return out;
}

export const opencodeSqlite: HistoryReader = {
  async list(path, file): Promise<HistoryLog[]> {
    if (path.endsWith('.json')) return listSessionFile(path, file);
    return withReadOnlyDb(path, (db) => {
      if (!usable(db)) return [];
      // One pass over each table (no per-session subquery): a large store is listed in linear time.
      const rows = db.prepare(`SELECT s.id, s.directory, s.time_updated, coalesce(m.bytes, 0) + coalesce(p.bytes, 0) AS bytes
        FROM session s
        LEFT JOIN (SELECT session_id, sum(length(data)) AS bytes FROM message GROUP BY session_id) m ON m.session_id = s.id
        LEFT JOIN (SELECT session_id, sum(length(data)) AS bytes FROM part GROUP BY session_id) p ON p.session_id = s.id
        ORDER BY s.time_created, s.id`).all() as Array<{ id: string; directory: string; time_updated: number; bytes: number }>;
      return rows.map((r) => ({
        key: `${path}#${r.id}`, path, bytes: Number(r.bytes) || 0,
        mtimeMs: Number(r.time_updated) || file.mtimeMs, sessionId: r.id, cwd: r.directory || undefined,
      }));
    });
  },
  async open(log) {
    if (!log.sessionId) return null;
    if (log.path.endsWith('.json')) {
      const made = await sessionFileLines(log);
      return made ? bufferSource(jsonLines(made), 0, Number((made[0] as { time_created?: unknown }).time_created) || 0) : null;
    }
    const lines = withReadOnlyDb(log.path, (db) => (usable(db) ? sessionLines(db, log.sessionId!) : null));
    if (!lines) return null;
    const created = Number((lines[0] as { time_created?: unknown }).time_created) || 0;
    return bufferSource(jsonLines(lines), 0, created);
  },
};
