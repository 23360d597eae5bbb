/** A tiny in-memory MemoryStore for unit tests of the HTTP layer and the spool drain. */
import { isValidSessionId, type CaptureEvent } from '../../src/shared/capture-event.js';
import { eventKey } from '../../src/shared/event-key.js';
import type { DeadLetter, IngestResult, MemoryStore, Observation, SearchAnswer } from '../../src/store/types.js';

export class FakeStore implements MemoryStore {
  keys = new Set<string>();
  events: CaptureEvent[] = [];
  deadLetters: DeadLetter[] = [];
  /** Set to make the next calls throw (e.g. a SQLITE_BUSY error). */
  failWith: Error | undefined;
  closed = false;

  private check() {
    if (this.failWith) throw this.failWith;
  }

  ingest(events: CaptureEvent[]): IngestResult {
    this.check();
    const r: IngestResult = { stored: 0, duplicates: 0, rejected: [] };
    events.forEach((e, index) => {
      if (!isValidSessionId(e.sessionId)) {
        r.rejected.push({ index, code: 'invalid_session_id', reason: 'bad session id' });
        return;
      }
      const k = eventKey(e);
      if (this.keys.has(k)) r.duplicates++;
      else {
        this.keys.add(k);
        this.events.push(e);
        r.stored++;
      }
    });
    return r;
  }
  ingestWithCheckpoint(events: CaptureEvent[]): IngestResult {
    return this.ingest(events);
  }
  getCheckpoint() {
    return undefined;
  }
  deleteCheckpoint() {}
  addDeadLetter(l: DeadLetter): number {
    this.check();
    this.deadLetters.push(l);
    return this.deadLetters.length;
  }
  listDeadLetters() {
    return this.deadLetters;
  }
  search(q: { query: string }): SearchAnswer {
    this.check();
    const results = this.events
      .filter((e) => (e.prompt ?? '').includes(q.query))
      .map((e, i) => ({
        sessionId: i + 1, hostSessionId: e.sessionId, host: e.host, project: 'p', startedAt: e.at, endedAt: null, summaryId: null,
        request: e.prompt ?? '', outcome: '', files: [], createdAt: e.at, score: 0,
        turns: [{ promptNumber: 1, promptId: i + 1, request: e.prompt ?? '', outcome: '', outcomeId: null, evidence: [] }],
      }));
    return { results, project: null, widened: false };
  }
  timeline() {
    return [];
  }
  getObservations(ids: number[]): Observation[] {
    return ids.map((id) => this.obs(id, `obs ${id}`));
  }
  getPrompts() {
    return [];
  }
  getSession() {
    return undefined;
  }
  saveMemory(input: { text: string; title?: string }): Observation {
    return this.obs(99, input.title ?? input.text);
  }
  context(q: { project?: string }) {
    return { project: q.project ?? 'p', text: '', observationIds: [], summaryId: null, approxTokens: 0 };
  }
  // Forget, pins and tombstones are tested against the real store (test/store/forget.test.ts).
  forget(): never {
    throw new Error('forget is not part of the fake store');
  }
  purge(): never {
    throw new Error('purge is not part of the fake store');
  }
  pin(): never {
    throw new Error('pins are not part of the fake store');
  }
  unpin(): boolean {
    return false;
  }
  listPins() {
    return [];
  }
  listTombstones() {
    return [];
  }
  importRecords(): never {
    throw new Error('import is not part of the fake store');
  }
  applyTombstones(): number {
    return 0;
  }
  claimContext() {
    return true;
  }
  deleteProbeData() {
    return 0;
  }
  stats() {
    return {
      sessions: 0, prompts: 0, observations: 0, summaries: 0, events: this.events.length,
      deadLetters: this.deadLetters.length, lastEventAtByHost: {}, captureByHost: {}, schemaVersion: 1,
    };
  }
  quickCheck() {
    return 'ok';
  }
  close() {
    this.closed = true;
  }

  private obs(id: number, title: string): Observation {
    return {
      id, sessionId: 1, hostSessionId: 's', host: 'codex', project: 'p', promptNumber: null, type: 'memory', title,
      subtitle: null, narrative: title, facts: [], filesRead: [], filesModified: [], concepts: [], toolName: null,
      toolUseId: null, createdAt: new Date().toISOString(),
    };
  }
}

export function busyError(): Error {
  return Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
}

export function sampleEvent(i: number, extra: Partial<CaptureEvent> = {}): CaptureEvent {
  return {
    host: 'claude-code', source: 'hook', kind: 'prompt', sessionId: 'sess-1', promptId: `p${i}`, cwd: '/tmp/project',
    prompt: `prompt number ${i}`, at: new Date(Date.UTC(2025, 0, 1, 0, 0, i)).toISOString(), ...extra,
  };
}
