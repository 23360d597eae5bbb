import { describe, expect, it } from 'vitest';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import { eventKey } from '../../src/shared/event-key.js';
import { observe } from '../../src/observer/index.js';
import { subagentSessionId } from '../../src/store/ingest.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { at, bash, CWD, dbPath, ev, openTemp, prompt, query, evidence, useTempStore } from './fixtures.js';

const { store } = useTempStore();

const count = (s: SqliteStore, table: string, where = '1=1', ...params: unknown[]): number =>
  query<{ n: number }>(s, `SELECT count(*) AS n FROM ${table} WHERE ${where}`, ...params)[0].n;

describe('validation', () => {
  it('rejects bad events with stable codes and stores the rest of the batch', () => {
    const s = store();
    const good = bash('npm test', 'ok');
    const r = s.ingest([
      { ...good, sessionId: 'bad id with spaces' },
      { ...good, cwd: 'relative/path' },
      { ...good, host: 'notepad' as never },
      { ...good, kind: 'teleport' as never },
      { ...good, at: 'yesterday' },
      null as unknown as CaptureEvent,
      { ...good, kind: 'prompt', prompt: undefined },
      good,
    ]);
    expect(r.rejected.map((x) => [x.index, x.code])).toEqual([
      [0, 'invalid_session_id'],
      [1, 'invalid_cwd'],
      [2, 'invalid_host'],
      [3, 'invalid_kind'],
      [4, 'invalid_event'],
      [5, 'invalid_event'],
      [6, 'invalid_event'],
    ]);
    expect(r.stored).toBe(1);
    expect(count(s, 'events')).toBe(1);
    expect(count(s, 'observations')).toBe(1);
  });

  it('rejects only the event whose derivation fails, keeping the others of the batch', () => {
    const s = store({
      observe: (e) => {
        if (e.toolInput && JSON.stringify(e.toolInput).includes('boom')) throw new Error('observer exploded');
        return observe(e);
      },
    });
    const r = s.ingest([prompt('first'), bash('echo one', '1'), bash('echo boom', '2'), prompt('second'), bash('echo three', '3')]);
    expect(r.stored).toBe(4);
    expect(r.rejected).toEqual([{ index: 2, code: 'invalid_event', reason: expect.stringContaining('observer exploded') }]);
    expect(count(s, 'events')).toBe(4);
    expect(query(s, 'SELECT number, text FROM prompts ORDER BY number')).toEqual([{ number: 1, text: 'first' }, { number: 2, text: 'second' }]);
    expect(query(s, 'SELECT prompt_count FROM sessions')).toEqual([{ prompt_count: 2 }]);
    expect(query<{ title: string }>(s, 'SELECT title FROM observations ORDER BY id').map((o) => o.title).join('|')).toMatch(/one.*three/);
  });
});

describe('idempotency', () => {
  it('stores a batch delivered twice once', () => {
    const s = store();
    const batch = [ev({ kind: 'session_start' }), prompt('add a retry'), bash('npm test', 'ok', { toolUseId: 'tu-1' })];
    expect(s.ingest(batch)).toEqual({ stored: 3, duplicates: 0, rejected: [] });
    expect(s.ingest(batch)).toEqual({ stored: 0, duplicates: 3, rejected: [] });
    expect(count(s, 'events')).toBe(3);
    expect(count(s, 'prompts')).toBe(1);
    expect(count(s, 'observations')).toBe(1);
    expect(count(s, 'sessions')).toBe(1);
  });

  it('stores the same event once when two connections race to ingest it', async () => {
    const path = dbPath();
    const a = store({}, path);
    const b = store({}, path);
    const e = bash('cargo build', 'Finished', { toolUseId: 'race-1' });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => new Promise<ReturnType<SqliteStore['ingest']>>((resolve) => {
        setImmediate(() => resolve((i % 2 ? a : b).ingest([e])));
      })),
    );
    expect(results.reduce((n, r) => n + r.stored, 0)).toBe(1);
    expect(results.reduce((n, r) => n + r.duplicates, 0)).toBe(49);
    expect(count(a, 'events', 'idem_key = ?', eventKey(e))).toBe(1);
    expect(count(a, 'observations')).toBe(1);
  });

  it('keeps one prompt row for a retried native prompt id, and two rows for two ids with the same text', () => {
    const s = store();
    s.ingest([prompt('run the tests', { promptId: 'p-1', at: at(100) })]);
    s.ingest([prompt('run the tests', { promptId: 'p-1', at: at(100) })]);
    expect(count(s, 'prompts')).toBe(1);

    s.ingest([prompt('run the tests', { promptId: 'p-2', at: at(101) })]);
    const rows = query<{ number: number; native_id: string; text: string }>(s, 'SELECT number, native_id, text FROM prompts ORDER BY number');
    expect(rows).toEqual([
      { number: 1, native_id: 'p-1', text: 'run the tests' },
      { number: 2, native_id: 'p-2', text: 'run the tests' },
    ]);
  });

  it('keeps two rows for the same id-less prompt typed twice', () => {
    const s = store();
    const first = prompt('continue', { at: at(200) });
    s.ingest([first]);
    s.ingest([first]); // a redelivery of the same capture
    s.ingest([prompt('continue', { at: at(260) })]);
    const rows = query<{ number: number; native_id: string | null }>(s, 'SELECT number, native_id FROM prompts ORDER BY number');
    expect(rows).toEqual([{ number: 1, native_id: null }, { number: 2, native_id: null }]);
  });
});

describe('sessions', () => {
  it('creates the session on its first event, whatever the order, with the earliest start', () => {
    const s = store();
    s.ingest([bash('ls', 'x', { at: at(50) })]);
    s.ingest([ev({ kind: 'session_start', at: at(10), reason: 'startup' })]);
    const row = s.getSession('claude-code', 'sess-1')!;
    expect(row).toMatchObject({ hostSessionId: 'sess-1', host: 'claude-code', project: CWD, cwd: CWD, isSubagent: false, endedAt: null });
    expect(row.startedAt).toBe(at(10));
    expect(count(s, 'sessions')).toBe(1);
  });

  it('keeps the same native session id of two hosts apart', () => {
    const s = store();
    s.ingest([bash('ls', 'x', { sessionId: 'same' }), bash('ls', 'x', { sessionId: 'same', host: 'codex' })]);
    expect(s.getSession('claude-code', 'same')!.id).not.toBe(s.getSession('codex', 'same')!.id);
  });

  it('links subagent sessions to their parent, creating the parent when absent', () => {
    const s = store();
    s.ingest([bash('grep -r TODO .', 'a.ts', { sessionId: 'child-1', parentSessionId: 'parent-1', isSubagent: true, agentId: 'explorer' })]);
    const parent = s.getSession('claude-code', 'parent-1')!;
    const child = s.getSession('claude-code', 'child-1')!;
    expect(parent).toBeDefined();
    expect(parent.isSubagent).toBe(false);
    expect(child).toMatchObject({ isSubagent: true, parentSessionId: parent.id, agentId: 'explorer' });
    const obs = query<{ session_id: number }>(s, 'SELECT session_id FROM observations');
    expect(obs).toEqual([{ session_id: child.id }]);
  });

  it('gives a subagent that shares its parent session id a linked row of its own', () => {
    const s = store();
    s.ingest([prompt('look around'), bash('ls', 'x', { agentId: 'agent-7', isSubagent: true })]);
    const parent = s.getSession('claude-code', 'sess-1')!;
    const child = s.getSession('claude-code', subagentSessionId('sess-1', 'agent-7'))!;
    expect(child).toMatchObject({ isSubagent: true, parentSessionId: parent.id, agentId: 'agent-7' });
    expect(parent.isSubagent).toBe(false);
  });

  it('ends a session with a summary, and a second end replaces the summary', () => {
    const s = store();
    s.ingest([
      prompt('fix the flaky upload test'),
      bash('npm test -- upload', '1 failing'),
      ev({ kind: 'assistant_message', message: 'First answer.' }),
      ev({ kind: 'assistant_message', message: 'Fixed the race in the upload test.' }),
      ev({ kind: 'session_end', reason: 'exit', at: at(900) }),
    ]);
    let sums = query<{ id: number; request: string; outcome: string; text: string }>(s, 'SELECT * FROM summaries');
    expect(sums).toHaveLength(1);
    expect(sums[0].request).toContain('flaky upload');
    expect(sums[0].outcome).toContain('Fixed the race');
    const session = s.getSession('claude-code', 'sess-1')!;
    expect(session.endedAt).toBe(at(900));
    expect(session.endReason).toBe('exit');

    s.ingest([bash('npm test', 'all green'), ev({ kind: 'session_end', reason: 'clear', at: at(950) })]);
    sums = query(s, 'SELECT * FROM summaries');
    expect(sums).toHaveLength(1);
    expect(evidence(s.search({ query: 'flaky', type: 'summary' }))).toHaveLength(1);
    expect(s.getSession('claude-code', 'sess-1')!.endReason).toBe('clear');
  });

  it('stores every assistant message of a turn once, indexed for search and in the summary', () => {
    const s = store();
    const reply = (message: string, n: number) => ev({ kind: 'assistant_message', message, at: at(n) });
    s.ingest([prompt('why is the build red', { at: at(1) }), reply('The cause is a stale lockfile on the runner.', 2), reply('Fixed by regenerating it.', 3)]);
    // The same reply delivered again (a hook and a transcript of one session): stored once.
    s.ingest([ev({ kind: 'assistant_message', message: 'Fixed by regenerating it.', source: 'transcript', at: at(4) })]);
    s.ingest([prompt('thanks, now bump the version', { at: at(5) }), reply('Fixed by regenerating it.', 6)]);
    const rows = query<{ text: string; prompt_number: number }>(s, 'SELECT text, prompt_number FROM assistant_messages ORDER BY id');
    expect(rows).toEqual([
      { text: 'The cause is a stale lockfile on the runner.', prompt_number: 1 },
      { text: 'Fixed by regenerating it.', prompt_number: 1 },
      { text: 'Fixed by regenerating it.', prompt_number: 2 },
    ]);
    expect(evidence(s.search({ query: 'stale lockfile' })).map((e) => e.kind)).toEqual(['assistant']);
    s.ingest([ev({ kind: 'session_end', at: at(9) })]);
    expect(query<{ text: string }>(s, 'SELECT text FROM summaries')[0].text).toContain('Found: The cause is a stale lockfile on the runner.');
  });

  it('drops the assistant messages of a private turn', () => {
    const s = store();
    s.ingest([prompt('<private>secret plan</private>', { at: at(1), privateTurn: true }), ev({ kind: 'assistant_message', message: 'the secret plan is', at: at(2) })]);
    expect(count(s, 'assistant_messages')).toBe(0);
  });

  it('stores compact and assistant messages as events', () => {
    const s = store();
    s.ingest([ev({ kind: 'compact', reason: 'auto' }), ev({ kind: 'assistant_message', message: 'done' })]);
    expect(query<{ kind: string }>(s, 'SELECT kind FROM events ORDER BY id').map((r) => r.kind)).toEqual(['compact', 'assistant_message']);
  });
});

describe('tool calls', () => {
  const use = () => ev({ kind: 'tool_use', toolName: 'Bash', toolUseId: 'call-9', toolInput: { command: 'pytest -k checkout' }, at: at(300) });
  const result = () => ev({ kind: 'tool_result', toolName: 'Bash', toolUseId: 'call-9', toolResponse: { stdout: '3 passed in 0.4s', stderr: '' }, at: at(301) });

  for (const order of ['use first', 'result first'] as const) {
    it(`merges tool_use and tool_result into one observation (${order})`, () => {
      const s = store();
      const [first, second] = order === 'use first' ? [use(), result()] : [result(), use()];
      s.ingest([first]);
      expect(count(s, 'observations')).toBe(1);
      s.ingest([second]);
      const rows = query<{ id: number; narrative: string; tool_use_id: string; created_at: string }>(s, 'SELECT * FROM observations');
      expect(rows).toHaveLength(1);
      expect(rows[0].tool_use_id).toBe('call-9');
      expect(rows[0].narrative).toContain('pytest -k checkout');
      expect(rows[0].narrative).toContain('3 passed');
      // The FTS entry follows the merged row: words of both halves are found, once.
      expect(evidence(s.search({ query: '"checkout" "passed"' })).map((h) => h.id)).toEqual([rows[0].id]);
      expect(count(s, 'events')).toBe(2);
    });
  }

  it('writes the calls of one batch as if each half were stored on its own', () => {
    type Row = { id: number; event_id: number; prompt_number: number; narrative: string; tool_use_id: string | null; created_at: string };
    const call = (id: string, command: string, output: string, n: number) => [
      ev({ kind: 'tool_use', toolName: 'Bash', toolUseId: id, toolInput: { command }, at: at(n) }),
      ev({ kind: 'tool_result', toolName: 'Bash', toolUseId: id, toolResponse: { stdout: output, stderr: '' }, at: at(n + 50) }),
    ];
    const [useA, resultA] = call('a', 'npm run lint', 'lint clean', 400);
    const [useB, resultB] = call('b', 'npm run build', 'build done', 410);
    const batch = [prompt('one'), useA, prompt('two'), useB, resultB, bash('ls', 'listing', { at: at(420) }), resultA];

    const together = store();
    together.ingest(batch);
    const apart = store();
    for (const e of batch) apart.ingest([e]);

    const rows = (s: SqliteStore) => query<Row>(s, 'SELECT id, event_id, prompt_number, narrative, tool_use_id, created_at FROM observations ORDER BY id');
    expect(rows(together)).toEqual(rows(apart));
    const [a, b, ls] = rows(together);
    expect([a.tool_use_id, b.tool_use_id, ls.tool_use_id]).toEqual(['a', 'b', null]);
    expect(a.narrative).toContain('lint clean');
    expect([a.prompt_number, b.prompt_number]).toEqual([1, 2]);
    expect(a.created_at).toBe(at(400));
  });

  it('still pairs the halves of a call when another event of the batch is rejected', () => {
    const s = store({
      observe: (e) => {
        if (JSON.stringify(e.toolInput ?? '').includes('boom')) throw new Error('observer exploded');
        return observe(e);
      },
    });
    const r = s.ingest([
      ev({ kind: 'tool_use', toolName: 'Bash', toolUseId: 'p1', toolInput: { command: 'npm run seed' } }),
      bash('echo boom', 'x'),
      ev({ kind: 'tool_result', toolName: 'Bash', toolUseId: 'p1', toolResponse: { stdout: 'seeded 12 rows', stderr: '' } }),
    ]);
    expect(r.rejected.map((x) => x.index)).toEqual([1]);
    const rows = query<{ narrative: string }>(s, 'SELECT narrative FROM observations');
    expect(rows).toHaveLength(1);
    expect(rows[0].narrative).toContain('seeded 12 rows');
  });

  it('summarizes a session ended in the batch that made its observations, a call still running', () => {
    const s = store();
    s.ingest([
      prompt('migrate the db'),
      bash('npm run backup', 'saved'),
      ev({ kind: 'tool_use', toolName: 'Bash', toolUseId: 'c', toolInput: { command: 'npm run migrate' } }),
      ev({ kind: 'session_end', reason: 'exit' }),
      ev({ kind: 'tool_result', toolName: 'Bash', toolUseId: 'c', toolResponse: { stdout: 'migrated', stderr: '' } }),
    ]);
    const sums = query<{ commands: string }>(s, 'SELECT commands FROM summaries');
    expect(sums).toHaveLength(1);
    expect(JSON.parse(sums[0].commands)).toEqual(['npm run backup', 'npm run migrate']);
    expect(query<{ narrative: string }>(s, `SELECT narrative FROM observations WHERE tool_use_id = 'c'`)[0].narrative).toContain('migrated');
  });

  it('keeps calls with different ids, or in different sessions, apart', () => {
    const s = store();
    s.ingest([
      bash('ls', 'a', { toolUseId: 'x1' }),
      bash('ls', 'b', { toolUseId: 'x2' }),
      bash('ls', 'c', { toolUseId: 'x1', sessionId: 'other' }),
    ]);
    expect(count(s, 'observations')).toBe(3);
  });

  it('records file edits and ready-made notes as observations', () => {
    const s = store();
    s.ingest([
      ev({ kind: 'file_edit', toolName: 'Edit', filePath: `${CWD}/src/cart.ts`, edits: [{ oldText: 'a', newText: 'b' }] }),
      ev({ kind: 'observation', title: 'Cart totals use integer cents', message: 'Prices are stored in cents.' }),
    ]);
    const rows = query<{ type: string; title: string }>(s, 'SELECT type, title FROM observations ORDER BY id');
    expect(rows.map((r) => r.type)).toEqual(['edit', 'note']);
    expect(rows[1].title).toContain('integer cents');
  });

  it('numbers observations by the prompt they belong to', () => {
    const s = store();
    s.ingest([prompt('one'), bash('ls', 'x'), prompt('two'), bash('pwd', '/')]);
    expect(query<{ prompt_number: number }>(s, 'SELECT prompt_number FROM observations ORDER BY id').map((r) => r.prompt_number)).toEqual([1, 2]);
  });
});

describe('private turns', () => {
  it('drops the tool events of a private turn until the next prompt', () => {
    const s = store();
    s.ingest([
      prompt('normal work'),
      bash('ls', 'visible-before'),
      prompt('<private>rotate the prod credentials</private>', { promptId: 'pp' }),
      bash('vault write secret/prod password=hunter2', 'Success! hidden-output', { toolUseId: 'priv-1' }),
      ev({ kind: 'tool_use', toolName: 'Read', toolUseId: 'priv-2', toolInput: { file_path: `${CWD}/.env.production` } }),
      ev({ kind: 'assistant_message', message: 'Rotated the keys for prod.' }),
      prompt('back to normal'),
      bash('ls', 'visible-after'),
    ]);
    const titles = query<{ narrative: string }>(s, 'SELECT narrative FROM observations').map((r) => r.narrative).join('\n');
    expect(titles).toContain('visible-before');
    expect(titles).toContain('visible-after');
    expect(count(s, 'observations')).toBe(2);
    const all = JSON.stringify(query(s, 'SELECT * FROM events')) + JSON.stringify(query(s, 'SELECT * FROM prompts'));
    for (const secret of ['rotate the prod', 'hunter2', 'hidden-output', '.env.production', 'Rotated the keys']) {
      expect(all).not.toContain(secret);
    }
    // The private prompt still counts as a turn, without its text.
    expect(query(s, 'SELECT number, text, private FROM prompts ORDER BY number')).toEqual([
      { number: 1, text: 'normal work', private: 0 },
      { number: 2, text: '', private: 1 },
      { number: 3, text: 'back to normal', private: 0 },
    ]);
  });

  it('drops the late result of a call whose first half was private', () => {
    const s = store();
    s.ingest([
      prompt('<private>x</private>'),
      ev({ kind: 'tool_use', toolName: 'Bash', toolUseId: 'late', toolInput: { command: 'cat secret.txt' } }),
      prompt('next'),
      ev({ kind: 'tool_result', toolName: 'Bash', toolUseId: 'late', toolResponse: { stdout: 'late-secret-output' } }),
    ]);
    expect(count(s, 'observations')).toBe(0);
    expect(JSON.stringify(query(s, 'SELECT payload FROM events'))).not.toContain('late-secret-output');
  });

  it('treats a subagent started in a private turn as private, its task prompt included', () => {
    const s = store();
    s.ingest([
      prompt('<private>p</private>'),
      prompt('find the leaked salary sheet', { sessionId: 'kid', parentSessionId: 'sess-1' }),
      bash('ls', 'sub-secret', { sessionId: 'kid', parentSessionId: 'sess-1' }),
      bash('ls', 'agent-secret', { agentId: 'helper' }),
    ]);
    expect(count(s, 'observations')).toBe(0);
    const all = JSON.stringify(query(s, 'SELECT * FROM events')) + JSON.stringify(query(s, 'SELECT * FROM prompts'));
    for (const secret of ['salary', 'sub-secret', 'agent-secret']) expect(all).not.toContain(secret);
  });
});

describe('probes', () => {
  it('removes probe events and everything derived from them', () => {
    const s = store();
    s.ingest([bash('real work', 'kept', { sessionId: 'real' })]);
    s.ingest([
      ev({ kind: 'session_start', sessionId: 'doctor-probe-1', probe: true }),
      prompt('probe prompt', { sessionId: 'doctor-probe-1', probe: true }),
      bash('echo probe', 'probe', { sessionId: 'doctor-probe-1', probe: true }),
      ev({ kind: 'session_end', sessionId: 'doctor-probe-1', probe: true }),
    ]);
    expect(s.stats().lastEventAtByHost['claude-code']).toBeDefined();
    const before = s.stats();
    expect(s.deleteProbeData('doctor-probe-1')).toBe(4);
    const after = s.stats();
    expect(after.events).toBe(before.events - 4);
    expect(after.sessions).toBe(1);
    expect(after.observations).toBe(1);
    expect(after.prompts).toBe(0);
    expect(after.summaries).toBe(0);
    expect(s.search({ query: 'probe' }).results).toEqual([]);
    expect(evidence(s.search({ query: 'kept' }))).toHaveLength(1);
    // The FTS indexes stayed consistent through the cascade.
    s.flushSearchIndex();
    const db = (s as unknown as { db: import('better-sqlite3').Database }).db;
    expect(() => db.prepare(`INSERT INTO memory_fts(memory_fts) VALUES ('integrity-check')`).run()).not.toThrow();
  });

  it('leaves probes out of the last-event times', () => {
    const s = store();
    s.ingest([bash('x', 'y', { host: 'codex', probe: true, sessionId: 'p' })]);
    expect(s.stats().lastEventAtByHost.codex).toBeUndefined();
    s.ingest([bash('x', 'y', { host: 'codex', at: at(5000), sessionId: 'q' })]);
    s.ingest([bash('x', 'y', { host: 'codex', at: at(4000), sessionId: 'q' })]);
    expect(s.stats().lastEventAtByHost.codex).toBe(at(5000));
  });

  it('keeps the last-event times across a reopen', () => {
    const path = dbPath();
    const a = store({}, path);
    a.ingest([bash('x', 'y', { host: 'gemini', at: at(7000), sessionId: 'g' })]);
    a.close();
    const b = store({}, path);
    expect(b.stats().lastEventAtByHost).toEqual({ gemini: at(7000) });
  });
});

describe('throughput', () => {
  it('ingests a large batch in one transaction', () => {
    const s = store();
    const events = Array.from({ length: 2000 }, (_, i) => bash(`node step-${i}.js`, `done ${i}`, { toolUseId: `bulk-${i}`, sessionId: `bulk-${i % 7}` }));
    const r = s.ingest(events);
    expect(r.stored).toBe(2000);
    expect(count(s, 'observations')).toBe(2000);
  });
});
