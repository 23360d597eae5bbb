/**
 * OpenClaw keeps each agent's transcripts in SQLite
 * (`$OPENCLAW_STATE_DIR/agents/<agent>/agent/openclaw-agent.sqlite`, table `transcript_events`:
 * one Pi-style entry per row in `event_json`, or zstd-compressed in `event_zstd`). Each session
 * becomes one log: its entries in `seq` order, one per line, each user message given its turn's
 * runId (see nameTurns). A row that cannot be decoded becomes
 * a line the processor dead-letters (a JSON string, never an object), so it is never lost silently.
 */
import { decompress } from 'fzstd';
import type { HistoryLog } from './reader-types.js';
import { bufferSource } from '../byte-source.js';
import type { HistoryReader } from './reader-types.js';
import { hasColumns, withReadOnlyDb, type ReadOnlyDb } from './sqlite-snapshot.js';

const COLUMNS = ['session_id', 'seq', 'event_json', 'created_at'];

function usable(db: ReadOnlyDb): boolean {
  return hasColumns(db, 'transcript_events', COLUMNS);
}

interface EventRow { seq: number; event_json: string | null; event_zstd?: Buffer | null; created_at: number }

type Rec = Record<string, unknown>;
const obj = (v: unknown): Rec | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined);
const runOf = (e: Rec) => {
  const id = obj(obj(obj(e.message)?.__openclaw))?.runId;
  return typeof id === 'string' && id ? id : undefined;
};

/**
 * OpenClaw names a turn (its plugin hooks' prompt id) by the runId its answers and tool results
 * carry; the user message that starts the turn has none. It gets the next runId seen before the
 * next user message.
 */
function nameTurns(entries: Array<Rec | string>): void {
  let next: string | undefined;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (typeof e === 'string' || e.type !== 'message') continue;
    const m = obj(e.message);
    if (m?.role === 'user') {
      if (next && !runOf(e)) m.__openclaw = { ...(obj(m.__openclaw) ?? {}), runId: next };
      next = undefined;
    } else next = runOf(e) ?? next;
  }
}

function lineOf(r: EventRow): string {
  let text = r.event_json;
  if ((text === null || text === '') && r.event_zstd) {
    try { text = Buffer.from(decompress(new Uint8Array(r.event_zstd))).toString('utf8'); } catch (e) {
      return JSON.stringify(`seq ${r.seq}: undecodable event_zstd (${(e as Error).message})`);
    }
  }
  if (text === null || text === '') return JSON.stringify(`seq ${r.seq}: empty event`);
  try {
    const v = JSON.parse(text) as unknown;
    return JSON.stringify(v); // one line, whatever the stored formatting
  } catch {
    return JSON.stringify(`seq ${r.seq}: ${text.slice(0, 4096)}`);
  }
}

export const openclawSqlite: HistoryReader = {
  async list(path, file): Promise<HistoryLog[]> {
    return withReadOnlyDb(path, (db) => {
      if (!usable(db)) return [];
      const bytes = hasColumns(db, 'transcript_events', ['event_utf8_bytes']) ? 'coalesce(event_utf8_bytes, length(event_json), 0)' : 'coalesce(length(event_json), 0)';
      const rows = db.prepare(`SELECT session_id AS id, sum(${bytes}) AS bytes, max(created_at) AS last, min(created_at) AS first
        FROM transcript_events GROUP BY session_id ORDER BY first, session_id`).all() as Array<{ id: string; bytes: number; last: number }>;
      return rows.map((r) => ({ key: `${path}#${r.id}`, path, bytes: Number(r.bytes) || 0, mtimeMs: Number(r.last) || file.mtimeMs, sessionId: r.id }));
    });
  },
  async open(log) {
    if (!log.sessionId) return null;
    const made = withReadOnlyDb(log.path, (db) => {
      if (!usable(db)) return null;
      const zstd = hasColumns(db, 'transcript_events', ['event_zstd']) ? ', event_zstd' : '';
      const rows = db.prepare(`SELECT seq, event_json${zstd}, created_at FROM transcript_events WHERE session_id = ? ORDER BY seq`).all(log.sessionId) as EventRow[];
      if (!rows.length) return null;
      const entries = rows.map(lineOf).map((l): Rec | string => {
        const v = JSON.parse(l) as unknown;
        return obj(v) ?? l;
      });
      nameTurns(entries);
      const text = entries.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n') + '\n';
      return { text, first: Number(rows[0].created_at) || 0 };
    });
    return made ? bufferSource(Buffer.from(made.text, 'utf8'), 0, made.first) : null;
  },
};
