import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { bash, CWD, ev, openTemp, prompt, query } from './fixtures.js';

const open: SqliteStore[] = [];
function store(...args: Parameters<typeof openTemp>): SqliteStore {
  const s = openTemp(...args);
  open.push(s);
  return s;
}
afterEach(() => {
  while (open.length) open.pop()!.close();
});

const count = (s: SqliteStore, table: string, where = '1=1', ...params: unknown[]): number =>
  query<{ n: number }>(s, `SELECT count(*) AS n FROM ${table} WHERE ${where}`, ...params)[0].n;

/** Rows of the index holding `word`, straight from the FTS table (not through search). */
const indexed = (s: SqliteStore, word: string): number => {
  s.flushSearchIndex();
  return count(s, 'memory_fts', 'memory_fts MATCH ?', `"${word}"`);
};

function session(sid: string, secret: string): CaptureEvent[] {
  return [
    prompt(`please check the deploy of ${sid}`, { sessionId: sid }),
    ev({ kind: 'tool_use', sessionId: sid, toolName: 'Bash', toolUseId: `tu-${sid}`, toolInput: { command: `cat ${secret}.env` } }),
    ev({ kind: 'tool_result', sessionId: sid, toolName: 'Bash', toolUseId: `tu-${sid}`, toolInput: { command: `cat ${secret}.env` },
      toolResponse: { stdout: `TOKEN=${secret}`, stderr: '', exitCode: 0 } }),
    bash('npm test', 'all tests passed', { sessionId: sid }),
    ev({ kind: 'assistant_message', sessionId: sid, message: `The deploy of ${sid} reads its token from the env file.` }),
    ev({ kind: 'session_end', sessionId: sid, reason: 'exit' }),
  ];
}

describe('forget', () => {
  it('removes an observation from the tables, the index, its events and the summary that quoted it', () => {
    const s = store();
    const events = session('s1', 'zorblaxsecret');
    s.ingest(events);
    const obs = query<{ id: number }>(s, `SELECT id FROM observations WHERE narrative LIKE '%zorblaxsecret%' OR title LIKE '%zorblaxsecret%'`);
    expect(obs.length).toBe(1);
    expect(indexed(s, 'zorblaxsecret')).toBeGreaterThan(0);
    expect(count(s, 'summaries', `text LIKE '%zorblaxsecret%'`)).toBe(1);

    const dry = s.forget({ observationIds: [obs[0].id] }, { dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(dry.counts).toMatchObject({ observations: 1, events: 2, summariesRewritten: 1, sessions: 0 });
    expect(dry.items[0]).toMatchObject({ kind: 'observation', id: obs[0].id, hostSessionId: 's1' });
    expect(count(s, 'observations', 'id = ?', obs[0].id)).toBe(1); // a dry run changes nothing

    const r = s.forget({ observationIds: [obs[0].id] });
    expect(r.counts).toMatchObject({ observations: 1, events: 2, summariesRewritten: 1 });
    expect(r.tombstones).toBeGreaterThanOrEqual(3);
    expect(count(s, 'observations', 'id = ?', obs[0].id)).toBe(0);
    expect(count(s, 'events', `payload LIKE '%zorblaxsecret%'`)).toBe(0);
    expect(count(s, 'summaries', `text LIKE '%zorblaxsecret%' OR request LIKE '%zorblaxsecret%'`)).toBe(0);
    expect(count(s, 'summaries')).toBe(1); // written again from what is left
    expect(count(s, 'observations')).toBe(1); // npm test stays
    expect(indexed(s, 'zorblaxsecret')).toBe(0);
    expect(s.search({ query: 'zorblaxsecret' }).results).toEqual([]);
    expect(s.getObservations([obs[0].id])).toEqual([]);
  });

  it('keeps forgotten events from coming back when they are delivered again (spool, transcript re-read)', () => {
    const s = store();
    const events = session('s1', 'zorblaxsecret');
    s.ingest(events);
    const [obs] = query<{ id: number }>(s, `SELECT id FROM observations WHERE title LIKE '%zorblaxsecret%'`);
    s.forget({ observationIds: [obs.id] });
    const again = s.ingest(events);
    expect(again.stored).toBe(0);
    expect(count(s, 'observations', `title LIKE '%zorblaxsecret%'`)).toBe(0);
    expect(count(s, 'events', `payload LIKE '%TOKEN=zorblaxsecret%'`)).toBe(0);
    // A half of the call arriving late does not bring it back either.
    const late = s.ingest([{ ...events[2], at: new Date(Date.parse(events[2].at) + 5000).toISOString() }]);
    expect(late.stored).toBe(0);
  });

  it('forgets a session with its subagents and refuses its events afterwards', () => {
    const s = store();
    s.ingest(session('s1', 'keepme'));
    s.ingest(session('s2', 'dropme'));
    s.ingest([prompt('subagent work on dropme', { sessionId: 's2', agentId: 'a1' })]);
    expect(count(s, 'sessions')).toBe(3);
    const r = s.forget({ sessions: [{ hostSessionId: 's2' }] });
    expect(r.counts.sessions).toBe(2);
    expect(count(s, 'sessions')).toBe(1);
    for (const t of ['prompts', 'observations', 'assistant_messages', 'summaries']) expect(count(s, t, `session_id NOT IN (SELECT id FROM sessions)`)).toBe(0);
    expect(count(s, 'events', `payload LIKE '%dropme%'`)).toBe(0);
    expect(indexed(s, 'dropme')).toBe(0);
    expect(indexed(s, 'keepme')).toBeGreaterThan(0);
    // A new event of the forgotten session (same session id, new content) is not stored.
    expect(s.ingest([prompt('more about dropme', { sessionId: 's2' })]).stored).toBe(0);
    expect(count(s, 'sessions')).toBe(1);
  });

  it('forgets by query: rows holding every word, in one project only', () => {
    const s = store();
    s.ingest([prompt('rotate the quuxkey for billing', { sessionId: 'a1' }), bash('echo quuxkey', 'quuxkey', { sessionId: 'a1' })]);
    s.ingest([prompt('quuxkey in another project', { sessionId: 'b1', cwd: '/home/dev/other' })]);
    s.ingest([prompt('billing only', { sessionId: 'a2' })]);
    const dry = s.forget({ query: { q: 'quuxkey', project: CWD } }, { dryRun: true });
    expect(dry.counts).toMatchObject({ prompts: 1, observations: 1 });
    s.forget({ query: { q: 'quuxkey', project: CWD } });
    expect(count(s, 'prompts', `text LIKE '%quuxkey%'`)).toBe(1);
    expect(count(s, 'prompts', `text LIKE '%quuxkey%' AND project = ?`, '/home/dev/other')).toBe(1);
    expect(count(s, 'prompts', `text = 'billing only'`)).toBe(1);
    expect(() => s.forget({ query: { q: '   ' } })).toThrow(/no searchable word/);
  });

  it('by query, also takes events whose captured output holds the words beyond what the row kept', () => {
    const s = store();
    const filler = Array.from({ length: 750 }, (_, i) => `line ${i} of the build log`).join('\n');
    s.ingest([prompt('run the build', { sessionId: 'd1' }), bash('npm run build', `${filler}\nthe codename quibblefrost42 appears\n${filler}`, { sessionId: 'd1' }),
      bash('npm test', 'ok', { sessionId: 'd1' })]);
    expect(count(s, 'observations', `narrative LIKE '%quibblefrost42%' OR title LIKE '%quibblefrost42%'`)).toBe(0); // the row kept less
    expect(count(s, 'events', `payload LIKE '%quibblefrost42%'`)).toBe(1);
    const dry = s.forget({ query: { q: 'quibblefrost42' } }, { dryRun: true });
    expect(dry.counts).toMatchObject({ events: 1, observations: 1 });
    s.forget({ query: { q: 'quibblefrost42' } });
    expect(count(s, 'events', `payload LIKE '%quibblefrost42%'`)).toBe(0);
    expect(count(s, 'observations', `title LIKE '%npm run build%'`)).toBe(0);
    expect(count(s, 'observations', `title LIKE '%npm test%'`)).toBe(1);
  });

  it('takes the dead letters that hold the query or name the session', () => {
    const s = store();
    s.ingest(session('s1', 'zorblaxsecret'));
    s.addDeadLetter({ source: 'spool', filePath: null, offset: null, reason: 'torn line', raw: '{"sessionId":"s1","prompt":"cat zorblaxsecret.env' });
    s.addDeadLetter({ source: 'spool', filePath: null, offset: null, reason: 'torn line', raw: '{"sessionId":"s9","prompt":"unrelated' });
    expect(s.forget({ query: { q: 'zorblaxsecret' } }).counts.deadLetters).toBe(1);
    expect(count(s, 'dead_letters', `raw LIKE '%zorblaxsecret%'`)).toBe(0);
    expect(count(s, 'dead_letters')).toBe(1);
    s.addDeadLetter({ source: 'api', filePath: null, offset: null, reason: 'bad', raw: '{"sessionId":"s9","x":1}' });
    expect(s.forget({ sessions: [{ hostSessionId: 's9' }] }).counts.deadLetters).toBe(2);
  });

  it('imported tombstones forget what they name', () => {
    const a = store();
    const b = store();
    const events = session('s1', 'zorblaxsecret');
    a.ingest(events);
    b.ingest(events);
    const [obs] = query<{ id: number }>(a, `SELECT id FROM observations WHERE title LIKE '%zorblaxsecret%'`);
    a.forget({ observationIds: [obs.id] });
    const stones = a.listTombstones({ limit: 1000 });
    expect(stones.map((t) => t.kind).sort()).toEqual(['event', 'event', 'observation']);
    expect(b.applyTombstones(stones)).toBe(3);
    expect(count(b, 'observations', `title LIKE '%zorblaxsecret%'`)).toBe(0);
    expect(count(b, 'events', `payload LIKE '%TOKEN=zorblaxsecret%'`)).toBe(0);
    expect(b.applyTombstones(stones)).toBe(0);
  });

  it('purge leaves no forgotten bytes in the database file or the WAL', () => {
    const s = store();
    s.ingest(session('s1', 'qwxplorfinch'));
    s.ingest(session('s2', 'keepsake'));
    s.flushSearchIndex();
    s.checkpointWal();
    s.forget({ sessions: [{ hostSessionId: 's1' }] });
    const r = s.purge();
    expect(r.walTruncated).toBe(true);
    const bytes = (p: string) => {
      try {
        return readFileSync(p).toString('latin1').toLowerCase();
      } catch {
        return '';
      }
    };
    for (const f of [s.path, `${s.path}-wal`]) expect(bytes(f)).not.toContain('qwxplorfinch');
    expect(bytes(s.path)).toContain('keepsake');
  });
});

describe('pins', () => {
  it('a pinned observation is always in its project session-start context, until unpinned', () => {
    const s = store();
    s.ingest([bash('cat docs/pinned-note.md', 'the release checklist', { sessionId: 'p1' })]);
    const [old] = query<{ id: number }>(s, 'SELECT id FROM observations');
    // Many newer observations push it out of the recent list.
    for (let i = 0; i < 40; i++) s.ingest([bash(`echo step ${i}`, `${i}`, { sessionId: `p${i + 2}` })]);
    const before = s.context({ project: CWD, limit: 5 });
    expect(before.observationIds).not.toContain(old.id);
    const pin = s.pin(old.id);
    expect(pin).toMatchObject({ observationId: old.id, project: CWD });
    expect(pin.obsKey).toMatch(/^ev:/);
    const ctx = s.context({ project: CWD, limit: 5, host: 'claude-code', hostSessionId: 'fresh', mode: 'session' });
    expect(ctx.observationIds).toContain(old.id);
    expect(ctx.text).toContain('## Pinned');
    expect(ctx.text).toContain(`#${old.id}`);
    expect(s.context({ project: '/home/dev/other', limit: 5 }).text).not.toContain('## Pinned');
    expect(s.listPins(CWD).map((p) => p.observation.id)).toEqual([old.id]);
    expect(s.unpin(old.id)).toBe(true);
    expect(s.context({ project: CWD, limit: 5 }).observationIds).not.toContain(old.id);
    expect(() => s.pin(999_999)).toThrow(/no observation/);
  });

  it('a forgotten observation loses its pin', () => {
    const s = store();
    s.ingest([bash('cat a.md', 'x', { sessionId: 'p1' })]);
    const [o] = query<{ id: number }>(s, 'SELECT id FROM observations');
    s.pin(o.id);
    expect(s.forget({ observationIds: [o.id] }).counts.pins).toBe(1);
    expect(s.listPins()).toEqual([]);
  });
});
