/**
 * Event ingestion: validation, privacy, idempotency and derivation of sessions, prompts,
 * observations and summaries. Every statement is prepared once; the caller runs `ingest` inside
 * one transaction per batch. One bad event cannot sink the rest: see EventFailure.
 */
import { createHash, randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { CaptureEvent, CaptureKind } from '../shared/capture-event.js';
import { eventKey, toolEventKey } from '../shared/event-key.js';
import { DEFAULT_MEMORY_HOST, type HostId } from '../shared/hosts.js';
import { cut, oneLine } from '../shared/text.js';
import type { ObservationDraft, SessionDigest, SummaryDraft } from '../observer/types.js';
import { isEnvironmentError, StoreError } from './errors.js';
import { ObservationQueue, type ObservationRow, type ObservationText } from './observation-queue.js';
import { parseList } from './rows.js';
import { observationTags, rowTags } from './tags.js';
import { siblingKey, ToolHalves, type StoredHalf } from './tool-halves.js';
import { contentKey, Twins } from './twins.js';
import type { IngestResult, ReplicaEvent, ReplicaResult, SaveMemoryInput } from './types.js';
import { kindKey } from './traffic.js';
import { eventTombstone, sessionTombstone } from './memory-keys.js';
import { validateEvent } from './validate.js';

export interface IngestDeps {
  sanitize: (e: CaptureEvent) => CaptureEvent | null;
  observe: (e: CaptureEvent) => ObservationDraft | null;
  summarize: (digest: SessionDigest) => SummaryDraft;
  projectFor: (cwd: string) => string;
  now: () => Date;
}

/** Kinds whose content belongs to a turn: dropped while that turn is private. */
const TURN_CONTENT_KINDS = new Set<CaptureKind>(['tool_use', 'tool_result', 'file_edit', 'observation', 'assistant_message']);
const OBSERVED_KINDS = new Set<CaptureKind>(['tool_use', 'tool_result', 'file_edit', 'observation']);
const MAX_TITLE_CHARS = 500;
const MAX_ASSISTANT_CHARS = 8_000;
const DIGEST_PROMPTS = 50;
const DIGEST_OBSERVATIONS = 300;
const DIGEST_ASSISTANT = 40;
const MEMORY_TITLE_CHARS = 80;
interface SessionState {
  id: number;
  privateTurn: number;
  promptCount: number;
  project: string;
}

interface SessionDbState extends SessionState {
  key: string;
  startedAt: string;
  parentId: number | null;
  sub: number;
  agentId: string | null;
  probe: number;
}

interface SessionEndState {
  lastAssistant: string | null;
  endReason: string | null;
}

interface SessionFacts {
  /** Given for explicit notes; otherwise derived from cwd, and only when the row is created. */
  project?: string;
  cwd: string;
  parentId: number | null;
  sub: number;
  agentId: string | null;
  at: string;
  probe: number;
}

/**
 * Raised on the fast path (no savepoints) when one event fails for a reason of its own: the store
 * rolls the batch back and runs it again with a savepoint per event, so only that event is rejected.
 */
export class EventFailure extends Error {
  constructor(readonly index: number, readonly original: unknown) {
    super(`event ${index} failed: ${original instanceof Error ? original.message : String(original)}`);
  }
}

/**
 * A subagent that runs under its parent's session id (agentId set, no other session id) gets a
 * row of its own, linked to the parent. `#` cannot occur in a host's session id, so this never
 * collides with a real one.
 */
export function subagentSessionId(sessionId: string, agentId: string): string {
  return `${sessionId}#${agentId}`;
}

/** Copies the own properties of `from` that are not undefined (a spread that skips them). */
function assignDefined(to: Record<string, unknown>, from: object): Record<string, unknown> {
  for (const k of Object.keys(from)) {
    const v = (from as Record<string, unknown>)[k];
    if (v !== undefined) to[k] = v;
  }
  return to;
}

function defined<T extends object>(o: T): Partial<T> {
  return assignDefined({}, o) as Partial<T>;
}

/** One finished call from its two halves: the use's input, the result's response. */
function mergeToolHalves(current: CaptureEvent, sibling: CaptureEvent): CaptureEvent {
  const [use, result] = current.kind === 'tool_use' ? [current, sibling] : [sibling, current];
  const merged = assignDefined(assignDefined({}, use), result);
  merged.kind = 'tool_result';
  merged.toolName = result.toolName ?? use.toolName;
  merged.rawToolName = result.rawToolName ?? use.rawToolName;
  merged.toolInput = result.toolInput ?? use.toolInput;
  merged.at = use.at;
  return merged as unknown as CaptureEvent;
}

/** The synthetic session holding a project's explicit notes (one per project and host). */
export function manualSessionId(project: string): string {
  return `manual:${createHash('sha256').update(project).digest('hex').slice(0, 16)}`;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x !== '') : []);
const list = (v: unknown): string => JSON.stringify(strings(v));

function prepareStatements(db: Database.Database) {
  const p = (sql: string) => db.prepare(sql);
  return {
    selectSession: p(`SELECT id, private_turn AS privateTurn, prompt_count AS promptCount, project, started_at AS startedAt,
        parent_session_id AS parentId, is_subagent AS sub, agent_id AS agentId, probe
      FROM sessions WHERE host = ? AND host_session_id = ?`),
    insertSession: p(`INSERT INTO sessions (host, host_session_id, project, cwd, parent_session_id, is_subagent, agent_id, started_at, probe, origin)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
    updateSession: p(`UPDATE sessions SET started_at = min(started_at, ?), parent_session_id = coalesce(parent_session_id, ?),
      is_subagent = max(is_subagent, ?), agent_id = coalesce(agent_id, ?), probe = min(probe, ?) WHERE id = ?`),
    insertEvent: p(`INSERT INTO events (idem_key, session_id, host, kind, payload, dropped, probe, at, created_at, origin)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idem_key) DO NOTHING`),
    insertPrompt: p(`INSERT INTO prompts (session_id, event_id, host, project, number, native_id, text, private, tags, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`),
    setTurn: p('UPDATE sessions SET prompt_count = ?, private_turn = ? WHERE id = ?'),
    reopen: p(`UPDATE sessions SET ended_at = NULL, end_reason = NULL WHERE id = ? AND ended_at IS NOT NULL AND ended_at < ?`),
    setAssistant: p('UPDATE sessions SET last_assistant_message = ? WHERE id = ?'),
    turnState: p('SELECT last_assistant_message AS lastAssistant, end_reason AS endReason FROM sessions WHERE id = ?'),
    sameAssistant: p('SELECT 1 FROM assistant_messages WHERE session_id = ? AND prompt_number IS ? AND text = ?'),
    insertAssistant: p(`INSERT INTO assistant_messages (session_id, event_id, host, project, prompt_number, text, tags, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
    digestAssistant: p(`SELECT text FROM (SELECT id, text FROM assistant_messages WHERE session_id = ?
      ORDER BY id DESC LIMIT ${DIGEST_ASSISTANT}) ORDER BY id`),
    endSession: p(`UPDATE sessions SET ended_at = CASE WHEN ended_at IS NULL OR ended_at < @at THEN @at ELSE ended_at END,
        end_reason = coalesce(@reason, end_reason) WHERE id = @id
      RETURNING last_assistant_message AS lastAssistant, end_reason AS endReason`),
    obsByToolUse: p('SELECT id FROM observations WHERE session_id = ? AND tool_use_id = ?'),
    insertObs: p(`INSERT INTO observations (session_id, event_id, host, project, prompt_number, type, title, subtitle, narrative,
        facts, files_read, files_modified, concepts, tool_name, tags, tool_use_id, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    updateObs: p(`UPDATE observations SET type = ?, title = ?, subtitle = ?, narrative = ?, facts = ?, files_read = ?,
        files_modified = ?, concepts = ?, tool_name = ?, tags = ? WHERE id = ?`),
    digestPrompts: p(`SELECT text FROM (SELECT number, text FROM prompts WHERE session_id = ? AND private = 0
      ORDER BY number DESC LIMIT ${DIGEST_PROMPTS}) ORDER BY number`),
    digestObs: p(`SELECT * FROM (SELECT id, type, title, subtitle, narrative, facts, files_read, files_modified, concepts,
        tool_name, tool_use_id FROM observations WHERE session_id = ? ORDER BY created_at DESC, id DESC
      LIMIT ${DIGEST_OBSERVATIONS}) ORDER BY id`),
    anyTombstone: p('SELECT 1 FROM tombstones LIMIT 1'),
    tombstone: p('SELECT 1 FROM tombstones WHERE key = ?'),
    summaryOf: p(`SELECT s.host, s.project, s.last_assistant_message AS lastAssistant, s.end_reason AS endReason, m.created_at AS at
      FROM sessions s JOIN summaries m ON m.session_id = s.id WHERE s.id = ?`),
    deleteSummary: p('DELETE FROM summaries WHERE session_id = ?'),
    upsertSummary: p(`INSERT INTO summaries (session_id, host, project, request, files_read, files_modified, commands, outcome, text, tags, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (session_id) DO UPDATE SET request = excluded.request, files_read = excluded.files_read,
        files_modified = excluded.files_modified, commands = excluded.commands, outcome = excluded.outcome,
        text = excluded.text, created_at = excluded.created_at`),
  };
}

export class Ingestor {
  private readonly s: ReturnType<typeof prepareStatements>;
  // A nested better-sqlite3 transaction is a SAVEPOINT: a failing event rolls back alone.
  private readonly oneInSavepoint: (e: CaptureEvent, at: string, receivedAt: string) => boolean;
  /**
   * Session rows seen in the current transaction. Safe because writes are IMMEDIATE transactions
   * (no other connection writes meanwhile) and every change to a cached field goes through here;
   * cleared at each batch and after a rolled-back event.
   */
  private readonly sessions = new Map<string, SessionDbState>();
  /** The newest capture time per host among the events the last `ingest` stored (probes excluded). */
  readonly activity = new Map<HostId, string>();
  /** The same per host and kind (`kindKey`), for the capture figures of doctor and status. */
  readonly kindActivity = new Map<string, string>();
  private readonly halves: ToolHalves;
  /** The same event from a hook and from the host's log (twins.ts). */
  private readonly twins: Twins;
  /** Observation rows on the fast path; with savepoints, rows are inserted at once. */
  private readonly queue: ObservationQueue;
  private queueing = false;
  private eventIndex = 0;
  /** Set while a pulled event is stored: its key, payload and project come with it (sync). */
  private replica: ReplicaEvent | null = null;
  /** Whether any tombstone exists (read per batch): most databases have none to look up. */
  private tombstones = false;

  constructor(
    private readonly db: Database.Database,
    private readonly deps: IngestDeps,
  ) {
    this.s = prepareStatements(db);
    this.halves = new ToolHalves(db);
    this.twins = new Twins(db);
    this.queue = new ObservationQueue(
      (row) => this.insertObservation(row),
      (index, err) => (isEnvironmentError(err) ? (err as Error) : new EventFailure(index, err)),
    );
    this.oneInSavepoint = db.transaction((e: CaptureEvent, at: string, receivedAt: string) => this.one(e, at, receivedAt));
  }

  /**
   * Stores a batch. Must run inside a transaction (the store wraps it). With `isolated`, each
   * event runs in a savepoint and a failure becomes that event's rejection; without, the first
   * failure throws EventFailure (savepoints cost a third of the time of a plain insert).
   */
  ingest(events: readonly unknown[], isolated: boolean): IngestResult {
    const result: IngestResult = { stored: 0, duplicates: 0, rejected: [] };
    this.sessions.clear();
    this.activity.clear();
    this.kindActivity.clear();
    this.queue.clear();
    this.queueing = !isolated;
    this.halves.startBatch(events);
    this.twins.startBatch();
    this.tombstones = this.s.anyTombstone.get() !== undefined;
    const receivedAt = this.deps.now().toISOString();
    events.forEach((raw, index) => {
      this.eventIndex = index;
      const checked = validateEvent(raw);
      if ('code' in checked) {
        result.rejected.push({ index, ...checked });
        return;
      }
      let isNew: boolean;
      try {
        isNew = isolated
          ? this.oneInSavepoint(raw as CaptureEvent, checked.at, receivedAt)
          : this.one(raw as CaptureEvent, checked.at, receivedAt);
      } catch (err) {
        if (isEnvironmentError(err) || err instanceof EventFailure) throw err;
        if (!isolated) throw new EventFailure(index, err);
        // The savepoint rolled back what the caches may have seen.
        this.sessions.clear();
        this.halves.forget();
        const reason = err instanceof Error ? err.message : String(err);
        result.rejected.push({ index, code: 'invalid_event', reason: cut(reason, 500) });
        return;
      }
      if (!isNew) {
        result.duplicates++;
        return;
      }
      result.stored++;
      const e = raw as CaptureEvent;
      if (e.probe === true) return;
      if (checked.at > (this.activity.get(e.host) ?? '')) this.activity.set(e.host, checked.at);
      const key = kindKey(e.host, e.kind);
      if (checked.at > (this.kindActivity.get(key) ?? '')) this.kindActivity.set(key, checked.at);
    });
    this.queue.insertAll();
    return result;
  }

  /** Returns true when the event was new, false for a duplicate. */
  private one(raw: CaptureEvent, at: string, receivedAt: string): boolean {
    const replica = this.replica;
    // The key comes from the event as delivered, so a redelivery matches whatever privacy did.
    const key = replica?.idemKey ?? eventKey(raw);
    // Forgotten (forget.ts): counted as already stored, and nothing of it is written again.
    if (this.tombstones && this.forgotten(raw, key)) return false;
    // A pulled event went through privacy on the device that captured it: it is stored as it came.
    const clean = replica ? (replica.dropped ? null : raw) : this.deps.sanitize(raw);
    if (this.tombstones && this.forgottenContent(raw, clean)) return false;
    const { own: session, privateTurn, parentPrivate } = this.resolveSession(raw, at);
    // A subagent's prompt is written during its parent's turn: private if that turn is.
    const isPrivatePrompt = raw.kind === 'prompt' &&
      (raw.privateTurn === true || clean === null || clean.privateTurn === true || parentPrivate);

    let dropped: 'private' | 'privacy' | null = clean === null ? (replica?.dropped === 'private' ? 'private' : 'privacy') : null;
    if (!dropped && TURN_CONTENT_KINDS.has(raw.kind) && privateTurn) dropped = 'private';
    // The other half of a tool call, already stored: its privacy decides this half too.
    const toolUseId = (raw.kind === 'tool_use' || raw.kind === 'tool_result') && raw.toolUseId ? raw.toolUseId : null;
    const sibling = toolUseId ? this.halves.find(siblingKey(raw)) : undefined;
    if (!dropped && sibling?.dropped === 'private') dropped = 'private';

    const stored: CaptureEvent | null = dropped || isPrivatePrompt ? null : clean;
    const payload = replica?.payload ?? JSON.stringify(stored ?? this.stub(raw, dropped ?? 'private'));
    const droppedAs = dropped ?? (isPrivatePrompt ? 'private' : null);
    if (raw.kind === 'tool_use' || raw.kind === 'tool_result') {
      const keys = toolUseId ? [toolEventKey(raw, 'tool_use'), toolEventKey(raw, 'tool_result')] : [key];
      if (this.twins.isToolTwin(raw, keys, session.id, clean?.toolName ?? raw.toolName, at)) return false;
    }
    if (raw.kind === 'prompt' && this.twins.isPromptTwin(raw, key, session.id, isPrivatePrompt ? '' : stored?.prompt ?? '', isPrivatePrompt, at)) return false;
    const ins = this.s.insertEvent.run(
      key, session.id, raw.host, raw.kind, payload, droppedAs, raw.probe === true ? 1 : 0, at, receivedAt, replica?.origin ?? null);
    if (ins.changes === 0) return false;
    const eventId = Number(ins.lastInsertRowid);
    if (toolUseId) this.halves.remember(key, { payload, dropped: droppedAs });

    if (isPrivatePrompt) {
      this.addPrompt(raw, session, eventId, at, '', true);
      return true;
    }
    if (!stored) return true;
    switch (stored.kind) {
      case 'session_start':
        this.s.reopen.run(session.id, at);
        break;
      case 'prompt':
        this.addPrompt(stored, session, eventId, at, stored.prompt ?? '', false);
        break;
      case 'assistant_message':
        if (stored.message?.trim()) this.addAssistantMessage(stored, session, eventId, at);
        break;
      case 'session_end':
        this.endSession(stored, session, at);
        break;
      case 'turn_end':
        this.summarizeSession(stored, session, at, this.s.turnState.get(session.id) as SessionEndState);
        break;
      default:
        if (OBSERVED_KINDS.has(stored.kind)) this.addObservation(stored, session, eventId, at, toolUseId, sibling);
    }
    return true;
  }

  /** True when the event, or a session it belongs to, was forgotten. */
  private forgotten(e: CaptureEvent, key: string): boolean {
    const named = (k: string): boolean => this.s.tombstone.get(k) !== undefined;
    if (named(eventTombstone(key)) || named(sessionTombstone(e.host, e.sessionId))) return true;
    if (e.parentSessionId && named(sessionTombstone(e.host, e.parentSessionId))) return true;
    return !!e.agentId && named(sessionTombstone(e.host, subagentSessionId(e.sessionId, e.agentId)));
  }

  /** An answer, or a prompt without a host id, forgotten by its text (twins.ts contentKey). */
  private forgottenContent(e: CaptureEvent, clean: CaptureEvent | null): boolean {
    const text = e.kind === 'assistant_message' ? clean?.message?.trim() && cut(clean.message.trim(), MAX_ASSISTANT_CHARS)
      : e.kind === 'prompt' && !e.promptId ? clean?.prompt : undefined;
    if (!text) return false;
    return this.s.tombstone.get(eventTombstone(contentKey(e.host, e.sessionId, e.kind as 'prompt', text))) !== undefined;
  }

  /** The session row for an event (created on any first event), linked to its parent for subagents. */
  private resolveSession(e: CaptureEvent, at: string): { own: SessionDbState; privateTurn: boolean; parentPrivate: boolean } {
    const probe = e.probe === true ? 1 : 0;
    const agentId = e.agentId ?? null;
    let parent: SessionState | null = null;
    let ownId = e.sessionId;
    if (e.parentSessionId && e.parentSessionId !== e.sessionId) {
      parent = this.session(e.host, e.parentSessionId, { cwd: e.cwd, parentId: null, sub: 0, agentId: null, at, probe });
    } else if (agentId) {
      parent = this.session(e.host, e.sessionId, { cwd: e.cwd, parentId: null, sub: 0, agentId: null, at, probe });
      ownId = subagentSessionId(e.sessionId, agentId);
    }
    const sub = e.isSubagent === true || parent !== null ? 1 : 0;
    const own = this.session(e.host, ownId, { cwd: e.cwd ?? '', parentId: parent?.id ?? null, sub, agentId, at, probe });
    // A subagent spawned during a private turn is part of that turn.
    const parentPrivate = parent?.privateTurn === 1;
    return { own, privateTurn: own.privateTurn === 1 || parentPrivate, parentPrivate };
  }

  /** Finds or creates a session; writes only when the event adds something (earlier start, parent, ...). */
  private session(host: HostId, hostSessionId: string, v: SessionFacts): SessionDbState {
    const key = `${host}\u0000${hostSessionId}`;
    let row = this.sessions.get(key) ?? (this.s.selectSession.get(host, hostSessionId) as SessionDbState | undefined);
    if (!row) {
      // A pulled session keeps the project identity its device gave it (the cwd is that machine's).
      const project = v.project ?? this.replica?.project ?? this.deps.projectFor(v.cwd);
      const { id } = this.s.insertSession.get(
        host, hostSessionId, project, v.cwd, v.parentId, v.sub, v.agentId, v.at, v.probe, this.replica?.origin ?? null) as { id: number };
      row = {
        key, id, privateTurn: 0, promptCount: 0, project, startedAt: v.at, parentId: v.parentId, sub: v.sub,
        agentId: v.agentId, probe: v.probe,
      };
    } else if (
      v.at < row.startedAt || (v.parentId !== null && row.parentId === null) || v.sub > row.sub ||
      (v.agentId !== null && row.agentId === null) || v.probe < row.probe
    ) {
      this.s.updateSession.run(v.at, v.parentId, v.sub, v.agentId, v.probe, row.id);
      if (v.at < row.startedAt) row.startedAt = v.at;
      row.parentId ??= v.parentId;
      row.sub = Math.max(row.sub, v.sub);
      row.agentId ??= v.agentId;
      row.probe = Math.min(row.probe, v.probe);
    }
    row.key = key;
    this.sessions.set(key, row);
    return row;
  }

  /** What is kept of an event whose content must not be stored: ids and kind only. */
  private stub(e: CaptureEvent, dropped: string): Record<string, unknown> {
    return defined({
      host: e.host, source: e.source, kind: e.kind, sessionId: e.sessionId, promptId: e.promptId,
      toolUseId: e.toolUseId, agentId: e.agentId, parentSessionId: e.parentSessionId, at: e.at,
      privateTurn: e.kind === 'prompt' ? true : undefined, probe: e.probe, dropped,
    });
  }

  private addPrompt(e: CaptureEvent, session: SessionDbState, eventId: number, at: string, text: string, priv: boolean): void {
    const number = session.promptCount + 1;
    const tags = rowTags(e.host, session.project);
    this.twins.noteRow('prompts', session.id, e.promptId ?? null);
    const r = this.s.insertPrompt.run(
      session.id, eventId, e.host, session.project, number, e.promptId ?? null, text, priv ? 1 : 0, tags, at,
    );
    if (r.changes === 0) return;
    this.s.setTurn.run(number, priv ? 1 : 0, session.id);
    this.twins.noteTurn(session.id, e.promptId, number);
    session.promptCount = number;
    session.privateTurn = priv ? 1 : 0;
  }

  /**
   * Every reply of a turn is kept and indexed: an early one often names the cause. The same text
   * captured twice in one turn (a hook and a transcript of the same session) is stored once.
   */
  private addAssistantMessage(e: CaptureEvent, session: SessionDbState, eventId: number, at: string): void {
    const text = cut(e.message!.trim(), MAX_ASSISTANT_CHARS);
    const latest = session.promptCount || null;
    const turn = this.twins.turnOf(session.id, e.promptId) ?? latest;
    if (turn === latest) this.s.setAssistant.run(text, session.id);
    if (this.s.sameAssistant.get(session.id, turn, text) || this.twins.isAnswerTwin(e, session.id, text, at)) return;
    this.s.insertAssistant.run(session.id, eventId, e.host, session.project, turn, text, rowTags(e.host, session.project), at);
  }

  private observeSafely(e: CaptureEvent): ObservationDraft | null {
    const draft = this.deps.observe(e);
    return draft && typeof draft.title === 'string' ? draft : null;
  }

  private addObservation(
    e: CaptureEvent, session: SessionDbState, eventId: number, at: string, toolUseId: string | null, sibling?: StoredHalf,
  ): void {
    let source = e;
    if (toolUseId && sibling) {
      const other = JSON.parse(sibling.payload) as CaptureEvent;
      if (!('dropped' in other)) source = mergeToolHalves(e, other);
    }
    const draft = this.observeSafely(source);
    if (!draft) return;
    const filesRead = strings(draft.filesRead);
    const filesModified = strings(draft.filesModified);
    const text: ObservationText = {
      type: draft.type, title: cut(draft.title, MAX_TITLE_CHARS), subtitle: draft.subtitle ?? null,
      narrative: draft.narrative ?? '', facts: list(draft.facts), filesRead: JSON.stringify(filesRead),
      filesModified: JSON.stringify(filesModified), concepts: list(draft.concepts), toolName: draft.toolName ?? e.toolName ?? null,
      tags: observationTags(e.host, draft.type, session.project, [...filesRead, ...filesModified]),
    };

    // Whichever half arrived first created the row; the second rewrites it with the merged view.
    // Only tool calls carry the id in the row (it is unique per session): a file_edit or note
    // that repeats a call's id is an observation of its own.
    if (toolUseId && sibling) {
      if (this.queueing && this.queue.complete(session.id, toolUseId, text)) return;
      const existing = this.s.obsByToolUse.get(session.id, toolUseId) as { id: number } | undefined;
      if (existing) {
        const t = text;
        // The update trigger re-indexes the row if it was indexed already.
        this.s.updateObs.run(t.type, t.title, t.subtitle, t.narrative, t.facts, t.filesRead, t.filesModified, t.concepts, t.toolName, t.tags, existing.id);
        return;
      }
    }
    const promptNumber = this.twins.turnOf(session.id, e.promptId) ?? (session.promptCount || null);
    const row: ObservationRow = { session, eventId, host: e.host, promptNumber, text, toolUseId, at };
    // The first half of a call stays open: its other half may still come in this batch.
    const firstHalf = toolUseId !== null && !sibling;
    if (this.queueing) this.queue.add(row, this.eventIndex, firstHalf);
    else this.insertObservation(row);
  }

  /** Inserts an observation (fts-index.ts indexes it). */
  private insertObservation(r: ObservationRow): number {
    const t = r.text;
    this.twins.noteRow('calls', r.session.id, r.toolUseId);
    return Number(this.s.insertObs.run(
      r.session.id, r.eventId, r.host, r.session.project, r.promptNumber, t.type, t.title, t.subtitle, t.narrative,
      t.facts, t.filesRead, t.filesModified, t.concepts, t.toolName, t.tags, r.toolUseId, r.at,
    ).lastInsertRowid);
  }

  /**
   * An explicit note (mem_save), stored as a 'memory' observation in the given session or in the
   * project's synthetic `manual:` session. Goes through privacy like any captured event.
   * Must run inside a transaction. Returns the new observation's id.
   */
  saveMemory(input: SaveMemoryInput, project: string): number {
    this.sessions.clear();
    const host: HostId = input.host ?? DEFAULT_MEMORY_HOST;
    const sessionId = input.hostSessionId ?? manualSessionId(project);
    const at = this.deps.now().toISOString();
    const event: CaptureEvent = {
      host, source: 'plugin', kind: 'observation', sessionId, cwd: input.cwd ?? '/', message: input.text,
      title: input.title, at,
    };
    const clean = this.deps.sanitize(event);
    const text = clean?.message?.trim();
    if (!clean || !text) throw new StoreError('invalid_input', 'Nothing to save: the memory is empty or entirely private.');
    const note: MemoryNote = {
      title: cut(oneLine(clean.title?.trim() || text.split('\n')[0]), MEMORY_TITLE_CHARS), text,
      files: strings(input.files), concepts: strings(input.concepts),
    };
    // The note is an event too (with a key of its own), so sync carries it like any capture.
    const payload = JSON.stringify({ host, source: 'plugin', kind: 'observation', sessionId, cwd: input.cwd ?? '', at, memory: note });
    const receivedAt = at;
    const session = this.session(host, sessionId, { project, cwd: input.cwd ?? '', parentId: null, sub: 0, agentId: null, at, probe: 0 });
    const ins = this.s.insertEvent.run(`memory:${randomUUID()}`, session.id, host, 'observation', payload, null, 0, at, receivedAt, null);
    return this.insertMemory(host, session, Number(ins.lastInsertRowid), note, at);
  }

  private insertMemory(host: HostId, session: SessionDbState, eventId: number, note: MemoryNote, at: string): number {
    const memory: ObservationText = {
      type: 'memory', title: note.title, subtitle: null, narrative: note.text, facts: '[]', filesRead: JSON.stringify(note.files),
      filesModified: '[]', concepts: JSON.stringify(note.concepts), toolName: null,
      tags: observationTags(host, 'memory', session.project, note.files),
    };
    return this.insertObservation({ session, eventId, host, promptNumber: session.promptCount || null, text: memory, toolUseId: null, at });
  }

  /**
   * Stores events pulled from other devices (sync), in the order they were captured there. Each
   * runs in a savepoint: a malformed one is skipped, the others are stored. Must run inside a
   * transaction. The rows derived from them are the rows their own device derived.
   */
  ingestReplica(entries: readonly ReplicaEvent[], isolated = true): ReplicaResult {
    const result: ReplicaResult = { stored: 0, duplicates: 0, skipped: 0 };
    this.sessions.clear();
    this.queue.clear();
    this.queueing = false;
    this.tombstones = this.s.anyTombstone.get() !== undefined;
    this.twins.startBatch();
    const parsed = entries.map((r) => ({ r, raw: parseReplica(r) }));
    this.halves.startBatch(parsed.map((p) => p.raw).filter((x) => x !== null));
    const receivedAt = this.deps.now().toISOString();
    for (const { r, raw } of parsed) {
      const at = raw ? replicaProblem(raw) : null;
      if (!raw || !at) {
        result.skipped++;
        continue;
      }
      this.replica = r;
      try {
        const isNew = isolated ? this.replicaInSavepoint(raw, at, receivedAt) : this.replicaOne(raw, at, receivedAt);
        if (isNew) result.stored++;
        else result.duplicates++;
      } catch (err) {
        if (isEnvironmentError(err) || !isolated) throw err;
        this.sessions.clear();
        this.halves.forget();
        result.skipped++;
      } finally {
        this.replica = null;
      }
    }
    return result;
  }

  private replicaInSavepoint = (raw: CaptureEvent & { memory?: MemoryNote }, at: string, receivedAt: string): boolean => {
    this.replicaTxn ??= this.db.transaction((e: CaptureEvent & { memory?: MemoryNote }, t: string, rec: string) => this.replicaOne(e, t, rec));
    return this.replicaTxn(raw, at, receivedAt);
  };

  private replicaOne(e: CaptureEvent & { memory?: MemoryNote }, t: string, rec: string): boolean {
    if (!e.memory) return this.one(e, t, rec);
    const r = this.replica!;
    if (this.tombstones && this.forgotten(e, r.idemKey)) return false;
    const session = this.session(e.host, e.sessionId, { cwd: e.cwd ?? '', parentId: null, sub: 0, agentId: null, at: t, probe: 0 });
    const ins = this.s.insertEvent.run(r.idemKey, session.id, e.host, 'observation', r.payload, null, 0, t, rec, r.origin);
    if (ins.changes === 0) return false;
    this.insertMemory(e.host, session, Number(ins.lastInsertRowid), e.memory, t);
    return true;
  }

  private replicaTxn?: (e: CaptureEvent & { memory?: MemoryNote }, at: string, receivedAt: string) => boolean;

  private endSession(e: CaptureEvent, session: SessionDbState, at: string): void {
    const ended = this.s.endSession.get({ at, reason: e.reason ?? null, id: session.id }) as SessionEndState;
    this.summarizeSession(e, session, at, ended);
  }

  /** Writes (or replaces) the session's one summary from what it holds so far. */
  private summarizeSession(e: CaptureEvent, session: SessionDbState, at: string, ended: SessionEndState): void {
    this.writeSummary(e.host, session, at, ended);
  }

  /**
   * Writes a session's summary again from the rows it still holds (after a forget), keeping its
   * time; removes it when nothing is left. Must run inside a transaction.
   */
  resummarize(sessionId: number): 'rewritten' | 'removed' | 'none' {
    const r = this.s.summaryOf.get(sessionId) as (SessionEndState & { host: HostId; project: string; at: string }) | undefined;
    if (!r) return 'none';
    if (this.writeSummary(r.host, { id: sessionId, project: r.project }, r.at, r)) return 'rewritten';
    this.s.deleteSummary.run(sessionId);
    return 'removed';
  }

  private writeSummary(host: HostId, session: { id: number; project: string }, at: string, ended: SessionEndState): boolean {
    this.queue.insertAll(); // the digest reads the session's observations
    const prompts = (this.s.digestPrompts.all(session.id) as { text: string }[]).map((r) => r.text);
    const observations = (this.s.digestObs.all(session.id) as Record<string, string | null>[]).map(
      (r): ObservationDraft => ({
        type: r.type as ObservationDraft['type'], title: r.title ?? '', subtitle: r.subtitle, narrative: r.narrative ?? '',
        facts: parseList(r.facts), filesRead: parseList(r.files_read), filesModified: parseList(r.files_modified),
        concepts: parseList(r.concepts), toolName: r.tool_name, toolUseId: r.tool_use_id,
      }),
    );
    const assistantMessages = (this.s.digestAssistant.all(session.id) as { text: string }[]).map((r) => r.text);
    if (!prompts.length && !observations.length && !ended.lastAssistant && !assistantMessages.length) return false;
    const digest: SessionDigest = {
      host, project: session.project, prompts, observations, assistantMessages,
      lastAssistantMessage: ended.lastAssistant ?? undefined, endReason: ended.endReason ?? undefined,
    };
    const s = this.deps.summarize(digest);
    // One summary per session: a second session_end replaces it.
    this.s.upsertSummary.run(
      session.id, host, session.project, s.request ?? '', list(s.filesRead), list(s.filesModified), list(s.commands),
      s.outcome ?? '', s.text ?? '', rowTags(host, session.project), at,
    );
    return true;
  }
}

/** An explicit note (mem_save) as its event carries it. */
interface MemoryNote {
  title: string;
  text: string;
  files: string[];
  concepts: string[];
}

function parseReplica(r: ReplicaEvent): (CaptureEvent & { memory?: MemoryNote }) | null {
  try {
    const v: unknown = JSON.parse(r.payload);
    if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
    const e = v as CaptureEvent & { memory?: MemoryNote };
    if (e.host !== r.host || e.kind !== r.kind) return null;
    if (e.memory !== undefined) {
      const m = e.memory;
      if (!m || typeof m.title !== 'string' || typeof m.text !== 'string' || !m.text) return null;
      e.memory = { title: m.title, text: m.text, files: strings(m.files), concepts: strings(m.concepts) };
    }
    return e;
  } catch {
    return null;
  }
}

/** The stored time of a pulled event, or null when it is not one this store could have written. */
function replicaProblem(e: CaptureEvent): string | null {
  // A stub (content dropped on its device) keeps ids and kind only: no cwd.
  const checked = validateEvent({ ...e, cwd: e.cwd || '/', prompt: e.kind === 'prompt' ? e.prompt ?? '' : e.prompt });
  return 'code' in checked ? null : checked.at;
}
