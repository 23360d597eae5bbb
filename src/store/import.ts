/**
 * Import of an export's JSON lines (export.ts). Every record is matched by identity
 * (memory-keys.ts) before it is written, so importing twice, or into the machine that exported,
 * adds nothing; whatever a tombstone names (here or in the file) is skipped, and an imported
 * tombstone forgets what it names. Imported events do not count as capture activity (doctor).
 */
import type Database from 'better-sqlite3';
import { StoreError } from './errors.js';
import { EXPORT_FORMAT, EXPORT_VERSION } from './export.js';
import type { Forgetter } from './forget.js';
import {
  eventKeyFamily, eventTombstone, observationKey, observationTombstone, sessionTombstone,
} from './memory-keys.js';
import { observationTags, rowTags } from './tags.js';
import type { StatementCache } from './statements.js';
import type { ImportCounts, ImportResult } from './types.js';
export type { ImportCounts, ImportResult } from './types.js';



type Rec = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const need = (v: unknown, what: string): string => {
  if (typeof v !== 'string' || v === '') throw new StoreError('invalid_input', `import: ${what} is missing`);
  return v;
};
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const list = (v: unknown): string => JSON.stringify(Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
const splitIdentity = (id: string): [string, string] => {
  const bar = id.indexOf('|');
  if (bar <= 0) throw new StoreError('invalid_input', `import: bad session reference ${JSON.stringify(id.slice(0, 80))}`);
  return [id.slice(0, bar), id.slice(bar + 1)];
};

export function emptyCounts(): ImportCounts {
  return { sessions: 0, events: 0, prompts: 0, assistant: 0, observations: 0, summaries: 0, pins: 0, tombstones: 0 };
}

/** Checks an export's first line. Throws a clear error for anything else. */
export function checkHeader(rec: unknown): void {
  const h = rec as Rec | null;
  if (!h || h.type !== 'header' || h.format !== EXPORT_FORMAT) {
    throw new StoreError('invalid_input', `not an export written by claude-mem (the first line must be its header, format "${EXPORT_FORMAT}")`);
  }
  if (typeof h.version !== 'number' || h.version > EXPORT_VERSION) {
    throw new StoreError('invalid_input', `export format version ${String(h.version)} is newer than this claude-mem reads (${EXPORT_VERSION}); upgrade claude-mem`);
  }
}

export class Importer {
  private readonly sessions = new Map<string, number | null>();

  constructor(
    private readonly db: Database.Database,
    private readonly stmts: StatementCache,
    private readonly forgetter: Forgetter,
    private readonly now: () => Date,
  ) {}

  /** Imports records in one transaction. Header and end records are accepted and ignored. */
  importRecords(records: readonly unknown[]): ImportResult {
    return this.db.transaction(() => {
      this.sessions.clear();
      const result: ImportResult = { added: emptyCounts(), skipped: 0, unknown: 0 };
      // Tombstones first: nothing of what they name is written, even from earlier in the batch.
      const stones = records.filter((r) => (r as Rec)?.type === 'tombstone') as Rec[];
      if (stones.length) {
        result.added.tombstones = this.forgetter.applyTombstones(stones.map((t) => ({
          key: need(t.key, 'tombstone key'), project: str(t.project), createdAt: str(t.createdAt) ?? undefined,
        })));
        result.skipped += stones.length - result.added.tombstones;
      }
      for (const raw of records) {
        const r = raw as Rec;
        if (!r || typeof r !== 'object') throw new StoreError('invalid_input', 'import: a record is not a JSON object');
        const added = this.one(r);
        if (added === 'unknown') result.unknown++;
        else if (added) result.added[added]++;
        else if (r.type !== 'tombstone' && r.type !== 'header' && r.type !== 'end') result.skipped++;
      }
      return result;
    }).immediate();
  }

  private one(r: Rec): keyof ImportCounts | null | 'unknown' {
    switch (r.type) {
      case 'header': case 'end': case 'tombstone': return null;
      case 'session': return this.session(r) ? 'sessions' : null;
      case 'event': return this.event(r) ? 'events' : null;
      case 'prompt': return this.prompt(r) ? 'prompts' : null;
      case 'assistant': return this.assistant(r) ? 'assistant' : null;
      case 'observation': return this.observation(r) ? 'observations' : null;
      case 'summary': return this.summary(r) ? 'summaries' : null;
      case 'pin': return this.pin(r) ? 'pins' : null;
      default: return 'unknown';
    }
  }

  private stoned(key: string): boolean {
    return this.forgetter.isTombstoned(key);
  }

  /** The local session for an identity (`host|id`), or null when it is not here or forgotten. */
  private sessionId(identity: unknown): number | null {
    const id = need(identity, 'session reference');
    if (this.sessions.has(id)) return this.sessions.get(id)!;
    const [host, sid] = splitIdentity(id);
    const local = this.stoned(sessionTombstone(host, sid)) ? null
      : ((this.stmts.get('SELECT id FROM sessions WHERE host = ? AND host_session_id = ?').pluck().get(host, sid) as number | undefined) ?? null);
    this.sessions.set(id, local);
    return local;
  }

  private session(r: Rec): boolean {
    const host = need(r.host, 'session host');
    const sid = need(r.hostSessionId, 'session id');
    if (this.stoned(sessionTombstone(host, sid))) return false;
    if (this.stmts.get('SELECT 1 FROM sessions WHERE host = ? AND host_session_id = ?').get(host, sid)) return false;
    const parent = str(r.parent) ? this.sessionId(r.parent) : null;
    // A parent forgotten here takes its subagents with it.
    if (str(r.parent) && parent === null && this.stoned(sessionTombstone(...splitIdentity(str(r.parent)!)))) return false;
    this.stmts.get(`INSERT INTO sessions (host, host_session_id, project, cwd, parent_session_id, is_subagent, agent_id, started_at,
        ended_at, end_reason, prompt_count, last_assistant_message, private_turn, probe)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`).run(
      host, sid, need(r.project, 'session project'), str(r.cwd) ?? '', parent, r.isSubagent === true ? 1 : 0, str(r.agentId),
      need(r.startedAt, 'session start'), str(r.endedAt), str(r.endReason), num(r.promptCount) ?? 0, str(r.lastAssistantMessage),
      r.privateTurn === true ? 1 : 0,
    );
    this.sessions.delete(`${host}|${sid}`);
    return true;
  }

  private event(r: Rec): boolean {
    const key = need(r.key, 'event key');
    if (eventKeyFamily(key).some((k) => this.stoned(eventTombstone(k)))) return false;
    const session = this.sessionId(r.session);
    if (session === null) return false;
    const res = this.stmts.get(`INSERT INTO events (idem_key, session_id, host, kind, payload, dropped, probe, at, created_at)
      VALUES (?, ?, ?, ?, ?, ?, 0, ?, ?) ON CONFLICT (idem_key) DO NOTHING`).run(
      key, session, need(r.host, 'event host'), need(r.kind, 'event kind'), JSON.stringify(r.payload ?? {}), str(r.dropped),
      need(r.at, 'event time'), str(r.createdAt) ?? this.now().toISOString(),
    );
    return res.changes > 0;
  }

  /** The local event for a key, or null; false when the key is forgotten. */
  private eventId(key: unknown): number | null | false {
    const k = str(key);
    if (!k) return null;
    if (eventKeyFamily(k).some((x) => this.stoned(eventTombstone(x)))) return false;
    return (this.stmts.get('SELECT id FROM events WHERE idem_key = ?').pluck().get(k) as number | undefined) ?? null;
  }

  private prompt(r: Rec): boolean {
    const session = this.sessionId(r.session);
    const event = this.eventId(r.event);
    if (session === null || event === false) return false;
    const number = num(r.number) ?? 0;
    // A prompt is its session's n-th (or its native id there): both go through an index.
    const nativeId = str(r.nativeId);
    if (this.stmts.get('SELECT 1 FROM prompts WHERE session_id = ? AND number = ?').get(session, number)) return false;
    if (nativeId && this.stmts.get('SELECT 1 FROM prompts WHERE session_id = ? AND native_id = ?').get(session, nativeId)) return false;
    const project = this.projectOf(session);
    const res = this.stmts.get(`INSERT INTO prompts (session_id, event_id, host, project, number, native_id, text, private, tags, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`).run(
      session, event, need(r.host, 'prompt host'), project, number, nativeId, str(r.text) ?? '', r.private === true ? 1 : 0,
      rowTags(String(r.host), project), need(r.createdAt, 'prompt time'),
    );
    if (res.changes) this.stmts.get('UPDATE sessions SET prompt_count = max(prompt_count, ?) WHERE id = ?').run(number, session);
    return res.changes > 0;
  }

  private assistant(r: Rec): boolean {
    const session = this.sessionId(r.session);
    const event = this.eventId(r.event);
    if (session === null || event === false) return false;
    const text = str(r.text) ?? '';
    const turn = num(r.promptNumber);
    if (this.stmts.get('SELECT 1 FROM assistant_messages WHERE session_id = ? AND prompt_number IS ? AND text = ?').get(session, turn, text)) return false;
    const project = this.projectOf(session);
    this.stmts.get(`INSERT INTO assistant_messages (session_id, event_id, host, project, prompt_number, text, tags, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(session, event, need(r.host, 'reply host'), project, turn, text,
      rowTags(String(r.host), project), need(r.createdAt, 'reply time'));
    return true;
  }

  private observation(r: Rec): boolean {
    const key = need(r.key, 'observation key');
    if (this.stoned(observationTombstone(key))) return false;
    const session = this.sessionId(r.session);
    const event = this.eventId(r.event);
    if (session === null || event === false) return false;
    if (this.forgetter.observationByKey(key) !== undefined) return false;
    const [host, sid] = splitIdentity(need(r.session, 'observation session'));
    const title = str(r.title) ?? '';
    const narrative = str(r.narrative) ?? '';
    const createdAt = need(r.createdAt, 'observation time');
    const toolUseId = str(r.toolUseId);
    // The key must be the one this row will have here, else a second import would not find it.
    const eventKey = event === null ? null : str(r.event);
    if (observationKey({ host, hostSessionId: sid, toolUseId, eventKey, createdAt, title, narrative }) !== key) return false;
    const project = this.projectOf(session);
    const type = need(r.obsType, 'observation type');
    const files = [...JSON.parse(list(r.filesRead)), ...JSON.parse(list(r.filesModified))] as string[];
    this.stmts.get(`INSERT INTO observations (session_id, event_id, host, project, prompt_number, type, title, subtitle, narrative,
        facts, files_read, files_modified, concepts, tool_name, tags, tool_use_id, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`).run(
      session, event, need(r.host, 'observation host'), project, num(r.promptNumber), type, title, str(r.subtitle), narrative,
      list(r.facts), list(r.filesRead), list(r.filesModified), list(r.concepts), str(r.toolName),
      observationTags(String(r.host), type, project, files), toolUseId, createdAt,
    );
    return true;
  }

  private summary(r: Rec): boolean {
    const session = this.sessionId(r.session);
    if (session === null) return false;
    const createdAt = need(r.createdAt, 'summary time');
    const have = this.stmts.get('SELECT created_at AS at FROM summaries WHERE session_id = ?').get(session) as { at: string } | undefined;
    if (have && have.at >= createdAt) return false;
    const project = this.projectOf(session);
    this.stmts.get(`INSERT INTO summaries (session_id, host, project, request, files_read, files_modified, commands, outcome, text, tags, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (session_id) DO UPDATE SET request = excluded.request, files_read = excluded.files_read,
        files_modified = excluded.files_modified, commands = excluded.commands, outcome = excluded.outcome,
        text = excluded.text, created_at = excluded.created_at`).run(
      session, need(r.host, 'summary host'), project, str(r.request) ?? '', list(r.filesRead), list(r.filesModified), list(r.commands),
      str(r.outcome) ?? '', str(r.text) ?? '', rowTags(String(r.host), project), createdAt,
    );
    return true;
  }

  private pin(r: Rec): boolean {
    const key = need(r.observation, 'pinned observation');
    const id = this.forgetter.observationByKey(key);
    if (id === undefined) return false;
    const pinnedAt = need(r.pinnedAt, 'pin time');
    const unpinnedAt = str(r.unpinnedAt);
    // The later of the two times is the state, here and in the file: the newer state wins.
    const res = this.stmts.get(`INSERT INTO pins (observation_id, obs_key, project, pinned_at, unpinned_at)
        SELECT id, @key, project, @pinnedAt, @unpinnedAt FROM observations WHERE id = @id
      ON CONFLICT (observation_id) DO UPDATE SET pinned_at = excluded.pinned_at, unpinned_at = excluded.unpinned_at
        WHERE max(excluded.pinned_at, coalesce(excluded.unpinned_at, '')) > max(pins.pinned_at, coalesce(pins.unpinned_at, ''))`)
      .run({ key, pinnedAt, unpinnedAt, id });
    return res.changes > 0;
  }

  private projectOf(session: number): string {
    return this.stmts.get('SELECT project FROM sessions WHERE id = ?').pluck().get(session) as string;
  }
}
