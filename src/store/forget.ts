/**
 * Forgetting for real: the rows a plan names (forget-plan.ts) leave the tables and the search
 * index, the events they came from are deleted, the summaries that quoted them are written again
 * from what is left, and tombstones (memory-keys.ts) keep them from coming back through the
 * spool, a transcript read again or an import. `purge` then rewrites the file so the bytes are not
 * left in free pages or the WAL.
 */
import type Database from 'better-sqlite3';
import type { HostId } from '../shared/hosts.js';
import {
  eventKeyFamily, eventTombstone, observationKey, observationTombstone, OBS_IDENTITY_FROM, OBS_IDENTITY_SQL,
  sessionTombstone, tombstoneKind, type ObservationIdentity,
} from './memory-keys.js';
import { resolvePlan, type ForgetPlan, type ForgetTarget } from './forget-plan.js';
import { contentKey } from './twins.js';
import { FTS_TABLE } from './search-layout.js';
import type { StatementCache } from './statements.js';
import type { ForgottenKind, ForgetCounts, ForgetItem, ForgetResult, PurgeResult } from './types.js';
export type { ForgottenKind, ForgetCounts, ForgetItem, ForgetResult, PurgeResult } from './types.js';






interface ForgetHooks {
  /** Writes a session's summary again from its remaining rows (removes it when nothing is left). */
  resummarize(sessionId: number): 'rewritten' | 'removed' | 'none';
  /** After deletes: keeps the search index watermarks right (fts-index.ts). */
  afterDelete(): void;
  now(): Date;
}

const MAX_ITEMS = 200;
const TEXT_OF: Record<Exclude<ForgottenKind, 'session'>, { table: string; text: string }> = {
  observation: { table: 'observations', text: 'r.title' },
  prompt: { table: 'prompts', text: 'r.text' },
  assistant: { table: 'assistant_messages', text: 'r.text' },
  summary: { table: 'summaries', text: `CASE WHEN r.request != '' THEN r.request ELSE r.outcome END` },
};

const json = (v: unknown): string => JSON.stringify(v);
const line = (s: string | null): string => {
  const one = (s ?? '').replace(/\s+/g, ' ').trim();
  return one.length > 160 ? `${one.slice(0, 159)}…` : one;
};

export class Forgetter {
  constructor(
    private readonly db: Database.Database,
    private readonly stmts: StatementCache,
    private readonly hooks: ForgetHooks,
  ) {}

  /** Resolves and (unless dryRun) forgets. Runs in one IMMEDIATE transaction: all or nothing. */
  forget(target: ForgetTarget, dryRun: boolean): ForgetResult {
    return this.db.transaction(() => {
      const plan = resolvePlan(this.stmts, target);
      const preview = this.preview(plan);
      if (dryRun) return { dryRun: true, ...preview, tombstones: 0 };
      const done = this.apply(plan);
      return { dryRun: false, ...preview, counts: { ...preview.counts, ...done.counts }, tombstones: done.tombstones };
    }).immediate();
  }

  /**
   * Forgets whatever the given tombstone keys name and records them (import, sync). Unknown key
   * shapes are ignored. Must run inside a transaction. Returns the new tombstones.
   */
  applyTombstones(keys: readonly { key: string; project?: string | null; createdAt?: string }[]): number {
    const plan: ForgetPlan = { sessions: [], observations: [], prompts: [], assistant: [], summaries: [], deadLetters: [], events: [] };
    const fresh = keys.filter((k) => tombstoneKind(k.key) && !this.isTombstoned(k.key));
    for (const k of fresh) this.planFor(k.key, plan);
    const ins = this.stmts.get('INSERT OR IGNORE INTO tombstones (key, kind, project, created_at) VALUES (?, ?, ?, ?)');
    let n = 0;
    for (const k of fresh) n += ins.run(k.key, tombstoneKind(k.key), k.project ?? null, k.createdAt ?? this.hooks.now().toISOString()).changes;
    if (plan.sessions.length || plan.observations.length || plan.prompts.length || plan.assistant.length) this.apply(plan);
    // An event named by a tombstone goes even when it derived no row.
    const eventKeys = fresh.filter((k) => tombstoneKind(k.key) === 'event').map((k) => k.key.slice('event:'.length));
    if (eventKeys.length) this.stmts.get('DELETE FROM events WHERE idem_key IN (SELECT value FROM json_each(?))').run(json(eventKeys));
    return n;
  }

  isTombstoned(key: string): boolean {
    return !!this.stmts.get('SELECT 1 FROM tombstones WHERE key = ?').get(key);
  }

  private planFor(key: string, plan: ForgetPlan): void {
    const kind = tombstoneKind(key);
    if (kind === 'session') {
      const ident = key.slice('session:'.length);
      const bar = ident.indexOf('|');
      const found = this.stmts.get(`WITH RECURSIVE tree(id) AS (SELECT id FROM sessions WHERE host = ? AND host_session_id = ?
          UNION SELECT c.id FROM sessions c JOIN tree t ON c.parent_session_id = t.id) SELECT id FROM tree`)
        .pluck().all(ident.slice(0, bar), ident.slice(bar + 1)) as number[];
      plan.sessions.push(...found);
    } else if (kind === 'event') {
      // Either half of a tool call names the observation both made.
      const family = json(eventKeyFamily(key.slice('event:'.length)));
      for (const [table, list] of [['observations', plan.observations], ['prompts', plan.prompts], ['assistant_messages', plan.assistant]] as const) {
        list.push(...(this.stmts.get(`SELECT r.id FROM events e JOIN ${table} r ON r.session_id = e.session_id AND r.event_id = e.id
          WHERE e.idem_key IN (SELECT value FROM json_each(?))`).pluck().all(family) as number[]));
      }
    } else if (kind === 'observation') {
      const id = this.observationByKey(key.slice('obs:'.length));
      if (id !== undefined) plan.observations.push(id);
    }
  }

  /** The local observation an observation key names, if it is here. */
  observationByKey(obsKey: string): number | undefined {
    const t = /^(.*?)\|(.*)\|t:(.*)$/s.exec(obsKey);
    if (t) {
      return this.stmts.get(`SELECT o.id FROM observations o JOIN sessions s ON s.id = o.session_id
        WHERE s.host = ? AND s.host_session_id = ? AND o.tool_use_id = ?`).pluck().get(t[1], t[2], t[3]) as number | undefined;
    }
    if (obsKey.startsWith('ev:')) {
      // Through the event's session: observations have no index on event_id.
      return this.stmts.get(`SELECT o.id FROM events e JOIN observations o ON o.session_id = e.session_id AND o.event_id = e.id
        WHERE e.idem_key = ?`)
        .pluck().get(obsKey.slice(3)) as number | undefined;
    }
    const m = /^(.*?)\|(.*)\|m:[0-9a-f]+$/s.exec(obsKey);
    if (!m) return undefined;
    const rows = this.stmts.get(`SELECT o.id, ${OBS_IDENTITY_SQL} FROM ${OBS_IDENTITY_FROM}
      WHERE s.host = ? AND s.host_session_id = ? AND o.event_id IS NULL`).all(m[1], m[2]) as (ObservationIdentity & { id: number })[];
    return rows.find((r) => observationKey(r) === obsKey)?.id;
  }

  private preview(plan: ForgetPlan): Omit<ForgetResult, 'dryRun' | 'tombstones'> {
    const sess = json(plan.sessions);
    const count = (sql: string, ...params: unknown[]): number => this.stmts.get(sql).pluck().get(...params) as number;
    const inSessions = (table: string) => count(`SELECT count(*) FROM ${table} WHERE session_id IN (SELECT value FROM json_each(?))`, sess);
    const events = this.eventsOf(plan);
    const affected = this.affectedSessions(plan);
    const rewritten = count(`SELECT count(*) FROM summaries WHERE session_id IN (SELECT value FROM json_each(?))
      AND id NOT IN (SELECT value FROM json_each(?))`, json(affected), json(plan.summaries));
    const counts: ForgetCounts = {
      sessions: plan.sessions.length,
      observations: plan.observations.length + inSessions('observations'),
      prompts: plan.prompts.length + inSessions('prompts'),
      assistantMessages: plan.assistant.length + inSessions('assistant_messages'),
      summaries: plan.summaries.length + inSessions('summaries'),
      summariesRewritten: rewritten,
      events: events.ids.length,
      pins: count(`SELECT count(*) FROM pins p JOIN observations o ON o.id = p.observation_id
        WHERE p.unpinned_at IS NULL AND (o.id IN (SELECT value FROM json_each(?)) OR o.session_id IN (SELECT value FROM json_each(?)))`, json(plan.observations), sess),
      deadLetters: plan.deadLetters.length,
    };
    const items = this.items(plan);
    return { counts, items: items.slice(0, MAX_ITEMS), truncated: items.length > MAX_ITEMS };
  }

  private items(plan: ForgetPlan): ForgetItem[] {
    const out: ForgetItem[] = [];
    if (plan.sessions.length) {
      const rows = this.stmts.get(`SELECT s.id, s.host, s.host_session_id AS hostSessionId, s.project, s.started_at AS createdAt,
          coalesce(m.request, (SELECT text FROM prompts p WHERE p.session_id = s.id AND p.private = 0 ORDER BY number LIMIT 1), '') AS title
        FROM sessions s LEFT JOIN summaries m ON m.session_id = s.id
        WHERE s.id IN (SELECT value FROM json_each(?)) ORDER BY s.id LIMIT ${MAX_ITEMS + 1}`).all(json(plan.sessions)) as ForgetItem[];
      out.push(...rows.map((r) => ({ ...r, kind: 'session' as const, title: line(r.title) })));
    }
    const lists: [Exclude<ForgottenKind, 'session'>, number[]][] = [
      ['observation', plan.observations], ['prompt', plan.prompts], ['assistant', plan.assistant], ['summary', plan.summaries],
    ];
    for (const [kind, list] of lists) {
      if (!list.length || out.length > MAX_ITEMS) continue;
      const t = TEXT_OF[kind];
      const rows = this.stmts.get(`SELECT r.id, r.host, s.host_session_id AS hostSessionId, r.project, r.created_at AS createdAt,
          ${t.text} AS title FROM ${t.table} r JOIN sessions s ON s.id = r.session_id
        WHERE r.id IN (SELECT value FROM json_each(?)) ORDER BY r.id LIMIT ${MAX_ITEMS + 1}`).all(json(list)) as ForgetItem[];
      out.push(...rows.map((r) => ({ ...r, kind, title: line(r.title) })));
    }
    return out;
  }

  /** The events the plan's rows came from (ids present here) and every key to tombstone. */
  private eventsOf(plan: ForgetPlan): { ids: number[]; keys: Set<string> } {
    const keys = new Set<string>();
    const ids = new Set<number>();
    const rows = this.stmts.get(`SELECT id, idem_key AS key FROM events WHERE session_id IN (SELECT value FROM json_each(?))`)
      .all(json(plan.sessions)) as { id: number; key: string }[];
    for (const r of rows) (ids.add(r.id), keys.add(r.key));
    const direct = this.stmts.get(`SELECT e.id, e.idem_key AS key FROM events e WHERE e.id IN (
        SELECT event_id FROM observations WHERE id IN (SELECT value FROM json_each(@o))
        UNION ALL SELECT event_id FROM prompts WHERE id IN (SELECT value FROM json_each(@p))
        UNION ALL SELECT event_id FROM assistant_messages WHERE id IN (SELECT value FROM json_each(@a)))`)
      .all({ o: json(plan.observations), p: json(plan.prompts), a: json(plan.assistant) }) as { id: number; key: string }[];
    const family: string[] = [];
    const named = this.stmts.get('SELECT id, idem_key AS key FROM events WHERE id IN (SELECT value FROM json_each(?))')
      .all(json(plan.events)) as { id: number; key: string }[];
    for (const r of [...direct, ...named]) {
      ids.add(r.id);
      for (const k of eventKeyFamily(r.key)) (keys.add(k), family.push(k));
    }
    // The other half of a tool call holds the same content.
    if (family.length) {
      const twins = this.stmts.get('SELECT id FROM events WHERE idem_key IN (SELECT value FROM json_each(?))').pluck().all(json(family)) as number[];
      for (const id of twins) ids.add(id);
    }
    return { ids: [...ids], keys };
  }

  /** Sessions that keep existing but lose rows: their summaries are written again. */
  private affectedSessions(plan: ForgetPlan): number[] {
    return this.stmts.get(`SELECT DISTINCT session_id FROM (
        SELECT session_id FROM observations WHERE id IN (SELECT value FROM json_each(@o))
        UNION SELECT session_id FROM prompts WHERE id IN (SELECT value FROM json_each(@p))
        UNION SELECT session_id FROM assistant_messages WHERE id IN (SELECT value FROM json_each(@a)))
      WHERE session_id NOT IN (SELECT value FROM json_each(@s))`).pluck()
      .all({ o: json(plan.observations), p: json(plan.prompts), a: json(plan.assistant), s: json(plan.sessions) }) as number[];
  }

  private tombstonesFor(plan: ForgetPlan, eventKeys: Set<string>): { key: string; project: string | null }[] {
    const out: { key: string; project: string | null }[] = [];
    const sessions = this.stmts.get(`SELECT host, host_session_id AS sid, project FROM sessions WHERE id IN (SELECT value FROM json_each(?))`)
      .all(json(plan.sessions)) as { host: string; sid: string; project: string }[];
    for (const s of sessions) out.push({ key: sessionTombstone(s.host, s.sid), project: s.project });
    const observations = this.stmts.get(`SELECT o.project, ${OBS_IDENTITY_SQL} FROM ${OBS_IDENTITY_FROM}
      WHERE o.id IN (SELECT value FROM json_each(?))`).all(json(plan.observations)) as (ObservationIdentity & { project: string })[];
    for (const o of observations) out.push({ key: observationTombstone(observationKey(o)), project: o.project });
    for (const k of eventKeys) out.push({ key: eventTombstone(k), project: null });
    // Answers and id-less prompts also by their text: the host's log, imported later, carries them
    // under another key (twins.ts).
    const texts = this.stmts.get(`SELECT s.host, s.host_session_id AS sid, 'assistant_message' AS kind, r.text FROM assistant_messages r
        JOIN sessions s ON s.id = r.session_id WHERE r.id IN (SELECT value FROM json_each(@a))
      UNION ALL SELECT s.host, s.host_session_id, 'prompt', r.text FROM prompts r JOIN sessions s ON s.id = r.session_id
        WHERE r.id IN (SELECT value FROM json_each(@p)) AND r.native_id IS NULL AND r.private = 0`)
      .all({ a: json(plan.assistant), p: json(plan.prompts) }) as { host: string; sid: string; kind: 'prompt' | 'assistant_message'; text: string }[];
    for (const t of texts) out.push({ key: eventTombstone(contentKey(t.host, t.sid, t.kind, t.text)), project: null });
    return out;
  }

  private apply(plan: ForgetPlan): { counts: Partial<ForgetCounts>; tombstones: number } {
    const events = this.eventsOf(plan);
    const affected = this.affectedSessions(plan);
    const at = this.hooks.now().toISOString();
    const ins = this.stmts.get('INSERT OR IGNORE INTO tombstones (key, kind, project, created_at) VALUES (?, ?, ?, ?)');
    let tombstones = 0;
    for (const t of this.tombstonesFor(plan, events.keys)) tombstones += ins.run(t.key, tombstoneKind(t.key), t.project, at).changes;

    const sess = json(plan.sessions);
    const given = this.stmts.get(`SELECT host, host_session_id AS sid FROM sessions WHERE id IN (SELECT value FROM json_each(?))`)
      .all(sess) as { host: string; sid: string }[];
    const del = (table: string, list: number[]) => this.stmts.get(`DELETE FROM ${table} WHERE id IN (SELECT value FROM json_each(?))`).run(json(list));
    // Rows first, then their sessions: each delete goes through the table's index trigger.
    for (const table of ['observations', 'prompts', 'assistant_messages', 'summaries']) {
      this.stmts.get(`DELETE FROM ${table} WHERE session_id IN (SELECT value FROM json_each(?))`).run(sess);
    }
    del('observations', plan.observations);
    del('prompts', plan.prompts);
    del('assistant_messages', plan.assistant);
    del('summaries', plan.summaries);
    this.stmts.get(`UPDATE sessions SET parent_session_id = NULL WHERE parent_session_id IN (SELECT value FROM json_each(?))`).run(sess);
    del('sessions', plan.sessions);
    del('events', events.ids);
    del('dead_letters', plan.deadLetters);
    const forget = this.stmts.get('DELETE FROM context_given WHERE host = ? AND host_session_id = ?');
    for (const g of given) forget.run(g.host, g.sid);
    this.stmts.get(`DELETE FROM context_given WHERE item IN (SELECT 'o:' || value FROM json_each(@o) UNION SELECT 'm:' || value FROM json_each(@m))`)
      .run({ o: json(plan.observations), m: json(plan.summaries) });

    let rewritten = 0;
    const lastReply = this.stmts.get(`UPDATE sessions SET last_assistant_message =
      (SELECT text FROM assistant_messages WHERE session_id = sessions.id ORDER BY id DESC LIMIT 1) WHERE id = ?`);
    for (const id of affected) {
      lastReply.run(id);
      if (plan.summaries.length && this.stmts.get('SELECT 1 FROM summaries WHERE session_id = ? AND id IN (SELECT value FROM json_each(?))').get(id, json(plan.summaries))) continue;
      if (this.hooks.resummarize(id) === 'rewritten') rewritten++;
    }
    this.hooks.afterDelete();
    return { counts: { summariesRewritten: rewritten }, tombstones };
  }
}

/**
 * Rewrites the database so forgotten bytes are not left behind: the search index merged into
 * fresh segments (deleted entries dropped), VACUUM (free pages gone), and the WAL checkpointed and
 * truncated. Not inside a transaction.
 */
export function purgeDatabase(db: Database.Database, sizes: () => { db: number; wal: number }): PurgeResult {
  const before = sizes();
  db.prepare(`INSERT INTO ${FTS_TABLE} (${FTS_TABLE}) VALUES ('optimize')`).run();
  db.exec('VACUUM');
  const r = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number; checkpointed: number }[];
  const after = sizes();
  return { before, after, walTruncated: r[0]?.busy === 0 && after.wal === 0 };
}
