/**
 * One event seen by two capture paths: a hook (or plugin) as it happens, and the host's own log
 * read later by the transcript engine (history import, watcher). With the host's ids both carry
 * the same idempotency key; the rules here cover what ids cannot:
 *
 * - Turn: an event that names its prompt id belongs to that prompt's turn, wherever the session's
 *   latest turn is (an import reads old turns of a session live capture already holds).
 * - Prompts the two paths cannot key alike (no host id, or an id only the log carries — Copilot
 *   CLI and Gemini CLI logs name each message, their hooks do not): a prompt from the log and one
 *   from a hook are one prompt when they are in the same session, carry the same text (after
 *   privacy) and lie within TWIN_WINDOW_MS of each other, and at most one of them has an id (two
 *   different ids are two prompts). Matching is one to one (the nearest unmatched twin), so the
 *   same text typed twice stays two prompts; the second key is kept in event_aliases and is a
 *   duplicate ever after.
 * - Tool calls one path names and the other does not (Copilot CLI and Gemini CLI hooks carry no
 *   call id, their logs do): the same tool in the same session from the other path within
 *   TOOL_WINDOW_MS, at most one side with an id, is one call, matched one to one (nearest); both
 *   halves' keys of the unmatched side become aliases of the stored call.
 * - Answers without a prompt id: the same text in the same session from the other path within
 *   the window is one answer.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { CaptureEvent } from '../shared/capture-event.js';

/** How far apart a hook's capture time and the log's own time of one event may lie. */
const TWIN_WINDOW_MS = 5 * 60 * 1000;
/** The same for a tool call: a hook fires as the call ends, the log records it then too. */
const TOOL_WINDOW_MS = 2 * 60 * 1000;

const fromLog = (source: string | undefined) => source === 'transcript';

function window(at: string, ms = TWIN_WINDOW_MS): [string, string] {
  const t = Date.parse(at);
  return [new Date(t - ms).toISOString(), new Date(t + ms).toISOString()];
}

/**
 * The identity of an answer, or of a prompt without a host id, that does not depend on which path
 * captured it: forgetting one tombstones this key too (`event:` + it), so the same text in the same
 * session does not come back from the other path (forget.ts, and the ingest check).
 */
export function contentKey(host: string, sessionId: string, kind: 'prompt' | 'assistant_message', text: string): string {
  return `${host}|${sessionId}|${kind}|c:${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
}

export class Twins {
  private readonly s;
  /** `session id \0 prompt id` → prompt number, for the current batch. */
  private readonly turns = new Map<string, number | null>();
  /**
   * Per session row, for the current batch: whether it may hold a call (observation) or a prompt
   * without the host's id. One with an id can only be the twin of such a row, and most sessions
   * have none, so the window query (the costliest step of storing a call or a prompt in a bulk
   * import) is skipped.
   */
  private readonly idless = { calls: new Map<number, boolean>(), prompts: new Map<number, boolean>() };

  constructor(db: Database.Database) {
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      turn: p('SELECT number FROM prompts WHERE session_id = ? AND native_id = ?').pluck(),
      alias: p('SELECT 1 FROM event_aliases WHERE idem_key = ?').pluck(),
      known: p('SELECT 1 FROM events WHERE idem_key = ?').pluck(),
      idlessCall: p('SELECT 1 FROM observations WHERE session_id = ? AND tool_use_id IS NULL LIMIT 1').pluck(),
      idlessPrompt: p('SELECT 1 FROM prompts WHERE session_id = ? AND native_id IS NULL LIMIT 1').pluck(),
      promptTwin: p(`SELECT e.id FROM prompts p JOIN events e ON e.id = p.event_id
        WHERE p.session_id = ? AND (p.native_id IS NULL OR ? IS NULL) AND p.text = ? AND p.private = ? AND e.at BETWEEN ? AND ?
          AND (json_extract(e.payload, '$.source') = 'transcript') = ?
          AND NOT EXISTS (SELECT 1 FROM event_aliases a WHERE a.event_id = e.id)
        ORDER BY abs(julianday(e.at) - julianday(?)) LIMIT 1`).pluck(),
      addAlias: p('INSERT OR IGNORE INTO event_aliases (idem_key, event_id) VALUES (?, ?)'),
      toolTwin: p(`SELECT e.id FROM observations o JOIN events e ON e.id = o.event_id
        WHERE o.session_id = ? AND o.tool_name IS ? AND (o.tool_use_id IS NULL OR ? IS NULL) AND o.created_at BETWEEN ? AND ?
          AND (json_extract(e.payload, '$.source') = 'transcript') = ?
          AND NOT EXISTS (SELECT 1 FROM event_aliases a WHERE a.event_id = e.id)
        ORDER BY abs(julianday(o.created_at) - julianday(?)) LIMIT 1`).pluck(),
      adoptId: p('UPDATE OR IGNORE prompts SET native_id = ? WHERE event_id = ? AND native_id IS NULL'),
      answerTwin: p(`SELECT 1 FROM assistant_messages a JOIN events e ON e.id = a.event_id
        WHERE a.session_id = ? AND a.text = ? AND a.created_at BETWEEN ? AND ?
          AND (json_extract(e.payload, '$.source') = 'transcript') = ? LIMIT 1`).pluck(),
    };
  }

  startBatch(): void {
    this.turns.clear();
    this.idless.calls.clear();
    this.idless.prompts.clear();
  }

  /** A row is about to be written: one without the host's id may be a later twin's match. */
  noteRow(kind: 'calls' | 'prompts', sessionRow: number, hostId: string | null): void {
    if (hostId === null) this.idless[kind].set(sessionRow, true);
  }

  private mayHoldIdless(kind: 'calls' | 'prompts', sessionRow: number): boolean {
    const known = this.idless[kind];
    let v = known.get(sessionRow);
    if (v === undefined) {
      v = (kind === 'calls' ? this.s.idlessCall : this.s.idlessPrompt).get(sessionRow) !== undefined;
      known.set(sessionRow, v);
    }
    return v;
  }

  /** The turn (prompt number) of the prompt the event names, if that prompt is stored. */
  turnOf(sessionRow: number, promptId: string | undefined): number | null {
    if (!promptId) return null;
    const k = `${sessionRow}\u0000${promptId}`;
    let n = this.turns.get(k);
    if (n === undefined) {
      n = (this.s.turn.get(sessionRow, promptId) as number | undefined) ?? null;
      if (n !== null) this.turns.set(k, n);
    }
    return n;
  }

  /** A prompt just stored under its host id: later events of this batch find its turn. */
  noteTurn(sessionRow: number, promptId: string | undefined, number: number): void {
    if (promptId) this.turns.set(`${sessionRow}\u0000${promptId}`, number);
  }

  /**
   * True when this prompt is the other path's capture of a stored one (then `key` is
   * recorded as its alias): the caller counts it as a duplicate and stores nothing.
   */
  isPromptTwin(e: CaptureEvent, key: string, sessionRow: number, text: string, priv: boolean, at: string): boolean {
    if (e.kind !== 'prompt') return false;
    if (this.s.alias.get(key)) return true;
    if (this.s.known.get(key)) return false; // a plain redelivery: the insert counts it
    if ((e.promptId ?? null) !== null && !this.mayHoldIdless('prompts', sessionRow)) return false;
    const [lo, hi] = window(at);
    const twin = this.s.promptTwin.get(sessionRow, e.promptId ?? null, text, priv ? 1 : 0, lo, hi, fromLog(e.source) ? 0 : 1, at) as number | undefined;
    if (twin === undefined) return false;
    this.s.addAlias.run(key, twin);
    // The id only the log carries is kept on the stored prompt: the log's later events of that
    // turn name it, and find their turn through it.
    if (e.promptId) this.s.adoptId.run(e.promptId, twin);
    return true;
  }

  /**
   * True when this tool event is the other path's capture of a stored call (`keys`: this call's
   * keys, both halves when it has an id; all become aliases of it).
   */
  isToolTwin(e: CaptureEvent, keys: string[], sessionRow: number, toolName: string | undefined, at: string): boolean {
    if (keys.some((k) => this.s.alias.get(k))) return true;
    if (keys.some((k) => this.s.known.get(k))) return false;
    if ((e.toolUseId ?? null) !== null && !this.mayHoldIdless('calls', sessionRow)) return false;
    const [lo, hi] = window(at, TOOL_WINDOW_MS);
    const twin = this.s.toolTwin.get(sessionRow, toolName ?? null, e.toolUseId ?? null, lo, hi, fromLog(e.source) ? 0 : 1, at) as number | undefined;
    if (twin === undefined) return false;
    for (const k of keys) this.s.addAlias.run(k, twin);
    return true;
  }

  /** True when an answer without a prompt id was already stored by the other path. */
  isAnswerTwin(e: CaptureEvent, sessionRow: number, text: string, at: string): boolean {
    if (e.promptId) return false;
    const [lo, hi] = window(at);
    return this.s.answerTwin.get(sessionRow, text, lo, hi, fromLog(e.source) ? 0 : 1) !== undefined;
  }
}
