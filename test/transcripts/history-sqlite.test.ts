import Database from 'better-sqlite3';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historySources, ingestHistoryLog } from '../../src/worker/transcripts/history.js';
import { tempDir } from '../helpers/temp.js';
import { rows, testStore } from './helpers.js';
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
      ['2e2c77ff-2523-4001-88fe-6285abcec046', 'say hello using bash'], ['e-late', 'one more thing'],
    ]);
    const again = await ingestHistoryLog({ store, source: openclaw(), log });
    expect(again).toMatchObject({ status: 'done', stored: 0, deadLetters: 0 });
    store.close();
  });
});
