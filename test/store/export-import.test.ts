import { afterEach, describe, expect, it } from 'vitest';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { bash, CWD, ev, openTemp, prompt, query } from './fixtures.js';

const open: SqliteStore[] = [];
function store(): SqliteStore {
  const s = openTemp();
  open.push(s);
  return s;
}
afterEach(() => {
  while (open.length) open.pop()!.close();
});

/** What a memory holds, by identity and content (never local ids). */
function contents(s: SqliteStore) {
  const q = (sql: string) => query(s, sql).map((r) => JSON.stringify(r)).sort();
  return {
    sessions: q(`SELECT host, host_session_id, project, cwd, is_subagent, agent_id, started_at, ended_at, prompt_count,
      (SELECT host_session_id FROM sessions p WHERE p.id = sessions.parent_session_id) AS parent FROM sessions`),
    events: q('SELECT idem_key, host, kind, payload, dropped, at FROM events'),
    prompts: q('SELECT s.host_session_id, r.number, r.text, r.private, r.created_at FROM prompts r JOIN sessions s ON s.id = r.session_id'),
    assistant: q('SELECT s.host_session_id, r.prompt_number, r.text FROM assistant_messages r JOIN sessions s ON s.id = r.session_id'),
    observations: q(`SELECT s.host_session_id, r.type, r.title, r.subtitle, r.narrative, r.facts, r.files_read, r.files_modified,
      r.concepts, r.tool_use_id, r.tags, r.created_at FROM observations r JOIN sessions s ON s.id = r.session_id`),
    summaries: q('SELECT s.host_session_id, r.request, r.outcome, r.text, r.created_at FROM summaries r JOIN sessions s ON s.id = r.session_id'),
    pins: q('SELECT obs_key, project, pinned_at, unpinned_at FROM pins'),
    tombstones: q('SELECT key, kind FROM tombstones'),
  };
}

function fill(s: SqliteStore): void {
  s.ingest([
    prompt('fix the flaky login test', { sessionId: 'e1' }),
    ev({ kind: 'tool_use', sessionId: 'e1', toolName: 'Bash', toolUseId: 'tu1', toolInput: { command: 'npm test -- login' } }),
    ev({ kind: 'tool_result', sessionId: 'e1', toolName: 'Bash', toolUseId: 'tu1', toolInput: { command: 'npm test -- login' },
      toolResponse: { stdout: '1 failing', stderr: '', exitCode: 1 } }),
    ev({ kind: 'file_edit', sessionId: 'e1', toolName: 'Edit', filePath: `${CWD}/src/login.ts`, edits: [{ oldText: 'a', newText: 'b' }] }),
    prompt('and in the subagent', { sessionId: 'e1', agentId: 'ag1' }),
    ev({ kind: 'assistant_message', sessionId: 'e1', message: 'The test waited on a timer; it now awaits the promise.' }),
    ev({ kind: 'session_end', sessionId: 'e1', reason: 'exit' }),
  ]);
  s.ingest([prompt('secret session', { sessionId: 'e2' }), bash('cat creds', 'hunter2', { sessionId: 'e2' })]);
  s.saveMemory({ text: 'Deploys go through the staging branch first.', project: CWD });
  const [note] = query<{ id: number }>(s, `SELECT id FROM observations WHERE type = 'memory'`);
  s.pin(note.id);
  const [tool] = query<{ id: number }>(s, `SELECT id FROM observations WHERE tool_use_id = 'tu1'`);
  s.pin(tool.id);
  s.forget({ sessions: [{ hostSessionId: 'e2' }] });
}

const exported = (s: SqliteStore, filter = {}): unknown[] => [...s.exportLines(filter, 'jsonl')].map((l) => JSON.parse(l) as unknown);

describe('export and import', () => {
  it('rebuilds the same memory in a fresh database, and a second import adds nothing', () => {
    const a = store();
    fill(a);
    const lines = [...a.exportLines({}, 'jsonl')];
    for (const l of lines) expect(() => JSON.parse(l)).not.toThrow();
    const records = lines.map((l) => JSON.parse(l) as { type: string });
    expect(records[0]).toMatchObject({ type: 'header', format: 'claude-mem-export', version: 1 });
    expect(records.at(-1)).toMatchObject({ type: 'end' });
    expect(new Set(records.map((r) => r.type))).toEqual(new Set(['header', 'session', 'event', 'prompt', 'assistant', 'observation', 'summary', 'pin', 'tombstone', 'end']));

    const b = store();
    const first = b.importRecords(records);
    expect(first.added.sessions).toBe(3); // e1, its subagent, the notes' session
    expect(first.added.pins).toBe(2);
    expect(contents(b)).toEqual(contents(a));
    // The forgotten session is not in the export, and its events stay refused in the new place.
    expect(JSON.stringify(records)).not.toContain('hunter2');
    expect(b.ingest([prompt('secret session', { sessionId: 'e2' })]).stored).toBe(0);

    const again = b.importRecords(records);
    expect(again.added).toEqual({ sessions: 0, events: 0, prompts: 0, assistant: 0, observations: 0, summaries: 0, pins: 0, tombstones: 0 });
    const home = a.importRecords(records);
    expect(Object.values(home.added).every((n) => n === 0)).toBe(true);
    expect(contents(a)).toEqual(contents(b));
    // The index is rebuilt from the imported rows: search finds them.
    b.flushSearchIndex();
    expect(b.search({ query: 'flaky login' }).results[0]?.hostSessionId).toBe('e1');
  });

  it('an imported tombstone forgets what it names here', () => {
    const a = store();
    const b = store();
    a.ingest([prompt('keep this', { sessionId: 't1' }), bash('echo blorptastic', 'blorptastic', { sessionId: 't1' })]);
    b.importRecords(exported(a));
    expect(query(b, `SELECT id FROM observations WHERE title LIKE '%blorptastic%'`).length).toBe(1);
    const [o] = query<{ id: number }>(a, `SELECT id FROM observations WHERE title LIKE '%blorptastic%'`);
    a.forget({ observationIds: [o.id] });
    const r = b.importRecords(exported(a));
    expect(r.added.tombstones).toBeGreaterThan(0);
    expect(query(b, `SELECT id FROM observations WHERE title LIKE '%blorptastic%'`).length).toBe(0);
    expect(query(b, `SELECT id FROM events WHERE payload LIKE '%blorptastic%'`).length).toBe(0);
  });

  it('an unpin travels too, and an older export does not pin again', () => {
    let t = Date.parse('2025-06-01T00:00:00Z');
    const now = () => new Date((t += 1000));
    const a = openTemp({ now });
    const b = openTemp({ now });
    open.push(a, b);
    a.ingest([bash('cat notes.md', 'the notes', { sessionId: 'u1' })]);
    const [o] = query<{ id: number }>(a, 'SELECT id FROM observations');
    a.pin(o.id);
    const pinned = exported(a);
    b.importRecords(pinned);
    expect(b.listPins().length).toBe(1);
    expect(a.unpin(o.id)).toBe(true);
    expect(b.importRecords(exported(a)).added.pins).toBe(1);
    expect(b.listPins()).toEqual([]);
    expect(b.context({ project: CWD }).text).not.toContain('## Pinned');
    expect(b.importRecords(pinned).added.pins).toBe(0); // the older state loses
    expect(b.listPins()).toEqual([]);
    a.pin(o.id); // pinned again, later still
    b.importRecords(exported(a));
    expect(b.listPins().length).toBe(1);
  });

  it('filters by project, host and time', () => {
    const a = store();
    a.ingest([prompt('here', { sessionId: 'f1' }), prompt('there', { sessionId: 'f2', cwd: '/home/dev/other' }),
      prompt('gem', { sessionId: 'f3', host: 'gemini' })]);
    const sessions = (f: object) => (exported(a, f) as { type: string; hostSessionId?: string }[]).filter((r) => r.type === 'session').map((r) => r.hostSessionId).sort();
    expect(sessions({ project: CWD })).toEqual(['f1', 'f3']);
    expect(sessions({ host: 'gemini' })).toEqual(['f3']);
    expect(sessions({ since: '2999-01-01' })).toEqual([]);
  });

  it('markdown: one section per session, captured text never becomes markup', () => {
    const a = store();
    a.ingest([prompt('<script>alert(1)</script> # not a heading\n- not a list\n---', { sessionId: 'm1' }), bash('ls', 'a b')]);
    const md = [...a.exportLines({}, 'markdown')].join('\n');
    expect(md).toMatch(/^# claude-mem export/);
    expect(md).toContain('## ');
    expect(md).not.toContain('<script>');
    expect(md).toContain('\\<script\\>');
    expect(md).toContain('\\- not a list');
    expect(md).toContain('\\---');
    expect(md).not.toMatch(/^\s*- not a list/m);
  });
});
