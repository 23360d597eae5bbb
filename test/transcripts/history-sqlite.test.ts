import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historySources, ingestHistoryLog } from '../../src/transcripts/history.js';
import { ingestFiles } from '../../src/transcripts/ingest.js';
import { FIXTURES, tempDir } from '../helpers/temp.js';
import { rows, shipped, testStore } from './helpers.js';
import { HOST_CASES } from './history-hosts.js';

const envOf = (home: string) => ({ HOME: home, XDG_DATA_HOME: join(home, '.local', 'share') });
const opencode = () => historySources().find((s) => s.schema === 'opencode')!;
const sha = (file: string) => (existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : null);

describe('OpenCode store, read while OpenCode runs', () => {
  it('reads while the host holds a write transaction, writes nothing, and the host keeps writing', async () => {
    const home = tempDir('home');
    const [dbPath] = HOST_CASES.find((c) => c.host === 'opencode')!.place(home);
    const host = new Database(dbPath);
    host.pragma('journal_mode = WAL');
    host.exec('BEGIN IMMEDIATE');
    host.prepare('UPDATE session SET title = ? WHERE id = ?').run('renamed', 'ses_dd3e8333effexHg37dzll7XDI0');
    const before = { db: sha(dbPath), wal: sha(`${dbPath}-wal`) };
    const store = testStore();
    const [log] = await opencode().findLogs(envOf(home));
    const r = await ingestHistoryLog({ store, source: opencode(), log });
    expect(r).toMatchObject({ status: 'done', deadLetters: 0 });
    expect(r.stored).toBeGreaterThan(0);
    expect({ db: sha(dbPath), wal: sha(`${dbPath}-wal`) }).toEqual(before);
    host.exec('COMMIT'); // the host's transaction was never blocked by the import
    host.prepare('UPDATE session SET title = ? WHERE id = ?').run('again', 'ses_dd3e8333effexHg37dzll7XDI0');
    host.close();
    store.close();
  });

  it('a session that grew since the last import adds only its new rows', async () => {
    const home = tempDir('home');
    const [dbPath] = HOST_CASES.find((c) => c.host === 'opencode')!.place(home);
    const store = testStore();
    const source = opencode();
    const [log] = await source.findLogs(envOf(home));
    await ingestHistoryLog({ store, source, log });
    const first = rows(store.dbPath);
    const host = new Database(dbPath);
    const t = 1796036099000;
    host.prepare('INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?)')
      .run('msg_zz1', 'ses_dd3e8333effexHg37dzll7XDI0', t, t, JSON.stringify({ role: 'user', time: { created: t } }));
    host.prepare('INSERT INTO part (id, message_id, session_id, time_created, time_updated, data) VALUES (?, ?, ?, ?, ?, ?)')
      .run('prt_zz1', 'msg_zz1', 'ses_dd3e8333effexHg37dzll7XDI0', t, t, JSON.stringify({ type: 'text', text: 'and now goodbye' }));
    host.close();
    const [again] = await source.findLogs(envOf(home));
    const r = await ingestHistoryLog({ store, source, log: again });
    expect(r.status).toBe('done');
    const after = rows(store.dbPath);
    expect(after.prompts.map((p) => [p.nativeId, p.text])).toEqual([
      ...first.prompts.map((p) => [p.nativeId, p.text]), ['msg_zz1', 'and now goodbye'],
    ]);
    expect(after.observations).toEqual(first.observations);
    store.close();
  });

  it('a store of another shape is listed as empty, not an error', async () => {
    const home = tempDir('home');
    const dbPath = join(home, '.local', 'share', 'opencode', 'opencode.db');
    HOST_CASES.find((c) => c.host === 'opencode')!.place(home);
    const db = new Database(dbPath);
    db.exec('DROP TABLE part');
    db.close();
    expect(await opencode().findLogs(envOf(home))).toEqual([]);
  });
});

describe('OpenClaw store', () => {
  const openclaw = () => historySources().find((s) => s.schema === 'openclaw')!;

  it('reads zstd-compressed entries and dead-letters rows that cannot be decoded, then finishes', async () => {
    const home = tempDir('home');
    const [dbPath] = HOST_CASES.find((c) => c.host === 'openclaw')!.place(home);
    const sid = '2ca8660e-5720-4ac4-93f3-2618843d13aa';
    const entry = { type: 'message', id: 'e-late', parentId: null, timestamp: '2026-11-30T10:56:00.000Z', message: { role: 'user', content: 'one more thing' } };
    const compressed = execFileSync('zstd', ['-q', '-c'], { input: JSON.stringify(entry) });
    const db = new Database(dbPath);
    const ins = db.prepare('INSERT INTO transcript_events (session_id, seq, event_json, created_at, event_zstd) VALUES (?, ?, ?, ?, ?)');
    ins.run(sid, 9, '{"type": "message", "id": ', 1796036160000, null);
    ins.run(sid, 10, null, 1796036160001, Buffer.from('not zstd'));
    ins.run(sid, 11, null, 1796036160002, compressed);
    db.close();
    const store = testStore();
    const [log] = await openclaw().findLogs(envOf(home));
    const r = await ingestHistoryLog({ store, source: openclaw(), log });
    expect(r).toMatchObject({ status: 'done', deadLetters: 2 });
    expect(rows(store.dbPath).prompts.map((p) => [p.nativeId, p.text])).toEqual([
      ['97381ac0-a4bb-47f9-9540-2953a495ae2b', 'say hello using bash'], ['e-late', 'one more thing'],
    ]);
    const again = await ingestHistoryLog({ store, source: openclaw(), log });
    expect(again).toMatchObject({ status: 'done', stored: 0, deadLetters: 0 });
    store.close();
  });
});

describe('transcript ingest with a reader schema', () => {
  it('reads a store file through its reader (sessions, not raw bytes), once', async () => {
    const home = tempDir('home');
    const [dbPath] = HOST_CASES.find((c) => c.host === 'opencode')!.place(home);
    const store = testStore();
    const schema = shipped('opencode');
    const first = await ingestFiles({ store, schema, pattern: dbPath });
    expect(first).toMatchObject({ files: 1, deadLetters: 0, failed: [] });
    expect(first.stored).toBeGreaterThan(0);
    expect(rows(store.dbPath).prompts.map((p) => p.nativeId)).toEqual(['msg_22c17cde8001s4kXE5Yz3qspom']);
    const second = await ingestFiles({ store, schema, pattern: dbPath });
    expect(second).toMatchObject({ stored: 0, deadLetters: 0, failed: [] });
    store.close();
  });
});

describe('Goose sessions (documented format, hand-made)', () => {
  const goose = () => historySources().find((s) => s.schema === 'goose')!;
  const messages = [
    { role: 'user', created: 1796036000, content: [{ type: 'text', text: 'say hello using the shell' }] },
    { role: 'assistant', created: 1796036001, content: [{ type: 'toolRequest', id: 'toolu_g1', toolCall: { status: 'success', value: { name: 'developer__shell', arguments: { command: 'echo hello-from-mock' } } } }] },
    { role: 'user', created: 1796036002, content: [{ type: 'toolResponse', id: 'toolu_g1', toolResult: { status: 'success', value: [{ type: 'text', text: 'hello-from-mock\n' }] } }] },
    { role: 'assistant', created: 1796036003, content: [{ type: 'text', text: 'All done.' }] },
  ];

  function check(r: ReturnType<typeof rows>, session: string) {
    expect(r.prompts).toEqual([{ session, nativeId: null, text: 'say hello using the shell' }]);
    expect(r.observations.map((o) => [o.toolUseId, o.toolName])).toEqual([['toolu_g1', 'Bash']]);
    expect(r.events.filter((e) => e.kind === 'assistant_message').map((e) => (e.payload as { message: string }).message)).toEqual(['All done.']);
    expect(new Set(r.events.map((e) => (e.payload as { cwd: string }).cwd))).toEqual(new Set(['/home/dev/projects/demo']));
  }

  it('reads sessions.db (v1.10+) read-only', async () => {
    const home = tempDir('home');
    const dbPath = join(home, '.local', 'share', 'goose', 'sessions', 'sessions.db');
    mkdirSync(join(dbPath, '..'), { recursive: true });
    const db = new Database(dbPath);
    db.pragma('journal_mode = WAL');
    db.exec(`CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT, description TEXT, working_dir TEXT NOT NULL, created_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP, updated_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP);
      CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, content_json TEXT NOT NULL, created_timestamp INTEGER NOT NULL);`);
    db.prepare('INSERT INTO sessions (id, description, working_dir) VALUES (?, ?, ?)').run('20261130_1', 'hello', '/home/dev/projects/demo');
    const ins = db.prepare('INSERT INTO messages (session_id, role, content_json, created_timestamp) VALUES (?, ?, ?, ?)');
    for (const m of messages) ins.run('20261130_1', m.role, JSON.stringify(m.content), m.created);
    db.close();
    const store = testStore();
    const logs = await goose().findLogs(envOf(home));
    expect(logs.map((l) => l.key)).toEqual([`${dbPath}#20261130_1`]);
    const r = await ingestHistoryLog({ store, source: goose(), log: logs[0] });
    expect(r).toMatchObject({ status: 'done', deadLetters: 0 });
    check(rows(store.dbPath), '20261130_1');
    expect((await ingestHistoryLog({ store, source: goose(), log: logs[0] })).stored).toBe(0);
    store.close();
  });

  it('reads a legacy <id>.jsonl session the same way', async () => {
    const home = tempDir('home');
    const file = join(home, '.local', 'share', 'goose', 'sessions', '20250101_3.jsonl');
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, [{ working_dir: '/home/dev/projects/demo', description: 'hello' }, ...messages].map((m) => JSON.stringify(m)).join('\n') + '\n');
    const store = testStore();
    const [log] = await goose().findLogs(envOf(home));
    expect(await ingestHistoryLog({ store, source: goose(), log })).toMatchObject({ status: 'done', deadLetters: 0 });
    check(rows(store.dbPath), '20250101_3');
    store.close();
  });
});

describe('unreadable stores', () => {
  it('a file that is not a database is listed as unreadable and its import fails with the reason', async () => {
    const home = tempDir('home');
    const dbPath = join(home, '.local', 'share', 'opencode', 'opencode.db');
    mkdirSync(join(dbPath, '..'), { recursive: true });
    writeFileSync(dbPath, 'this is not a database, just text that is long enough to have a header page');
    const logs = await opencode().findLogs(envOf(home));
    expect(logs).toEqual([expect.objectContaining({ key: dbPath, unreadable: expect.any(String) })]);
    const store = testStore();
    const r = await ingestHistoryLog({ store, source: opencode(), log: logs[0] });
    expect(r).toMatchObject({ status: 'failed', stored: 0, error: expect.stringMatching(/^cannot read .*opencode\.db: /) });
    store.close();
  });
});

describe('OpenCode JSON storage (before SQLite; documented layout)', () => {
  it('reads storage/session, message and part files into the same rows as the store', async () => {
    const home = tempDir('home');
    const storage = join(home, '.local', 'share', 'opencode', 'storage');
    const read = (t: string) => readFileSync(join(FIXTURES, 'opencode', 'sessions', 'sqlite', `${t}.jsonl`), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
    const write = (file: string, v: unknown) => { mkdirSync(join(file, '..'), { recursive: true }); writeFileSync(file, JSON.stringify(v)); };
    const [s] = read('session');
    write(join(storage, 'session', s.project_id, `${s.id}.json`), { id: s.id, projectID: s.project_id, directory: s.directory, title: s.title, time: { created: s.time_created, updated: s.time_updated } });
    for (const m of read('message')) write(join(storage, 'message', m.session_id, `${m.id}.json`), { id: m.id, sessionID: m.session_id, ...m.data });
    for (const p of read('part')) write(join(storage, 'part', p.message_id, `${p.id}.json`), { id: p.id, sessionID: p.session_id, messageID: p.message_id, ...p.data });
    const fromFiles = testStore();
    const logs = await opencode().findLogs(envOf(home));
    expect(logs).toEqual([expect.objectContaining({ sessionId: s.id, cwd: s.directory })]);
    expect(await ingestHistoryLog({ store: fromFiles, source: opencode(), log: logs[0] })).toMatchObject({ status: 'done', deadLetters: 0 });
    const dbHome = tempDir('home');
    HOST_CASES.find((c) => c.host === 'opencode')!.place(dbHome);
    const fromDb = testStore();
    for (const log of await opencode().findLogs(envOf(dbHome))) await ingestHistoryLog({ store: fromDb, source: opencode(), log });
    expect(rows(fromFiles.dbPath).prompts).toEqual(rows(fromDb.dbPath).prompts);
    expect(rows(fromFiles.dbPath).observations).toEqual(rows(fromDb.dbPath).observations);
    fromFiles.close();
    fromDb.close();
  });
});
