// `claude-mem forget`, `export` and `import` end to end: the built CLI against a real worker (and
// against the database file when none runs), checked in the database files themselves.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import { writeSpool } from '../../src/shared/spool.js';
import { workerRequest } from '../../src/shared/worker-client.js';
import { tempDir } from '../helpers/temp.js';
import { auth, cleanupWorkers, cli, newHome, waitFor, workerJson, type Home } from './cli-helpers.js';

afterEach(cleanupWorkers);

const SECRET = 'vorpalquillsecret';
const at = (s: number) => new Date(Date.UTC(2025, 4, 1, 9, 0, s)).toISOString();

function events(cwd: string): CaptureEvent[] {
  const base = { host: 'claude-code', source: 'hook', cwd } as const;
  return [
    { ...base, kind: 'prompt', sessionId: 'm-1', promptId: 'p1', prompt: 'check the deploy token', at: at(1) },
    { ...base, kind: 'tool_use', sessionId: 'm-1', toolUseId: 'tu-1', toolName: 'Bash', toolInput: { command: 'cat .env' }, at: at(2) },
    { ...base, kind: 'tool_result', sessionId: 'm-1', toolUseId: 'tu-1', toolName: 'Bash', toolInput: { command: 'cat .env' },
      toolResponse: { stdout: `DEPLOY=${SECRET}`, stderr: '', exitCode: 0 }, at: at(3) },
    { ...base, kind: 'tool_result', sessionId: 'm-1', toolUseId: 'tu-2', toolName: 'Bash', toolInput: { command: 'npm run lint' },
      toolResponse: { stdout: 'lint clean', stderr: '', exitCode: 0 }, at: at(4) },
    { ...base, kind: 'session_end', sessionId: 'm-1', reason: 'exit', at: at(5) },
    { ...base, kind: 'prompt', sessionId: 'm-2', promptId: 'p1', prompt: 'rename the quasar module', at: at(6) },
  ];
}

const db = (home: Home) => new Database(join(home.dataDir, 'claude-mem.db'), { readonly: true });
function rows(home: Home, sql: string, ...params: unknown[]): unknown[] {
  const d = db(home);
  try {
    return d.prepare(sql).all(...params);
  } finally {
    d.close();
  }
}
const bytesOf = (path: string): string => (existsSync(path) ? readFileSync(path).toString('latin1').toLowerCase() : '');

async function startWithEvents(home: Home, cwd: string): Promise<number> {
  expect(cli(home, ['start']).status).toBe(0);
  const port = workerJson(home).port;
  const r = await workerRequest<{ stored: number }>({ port, auth: auth(home), method: 'POST', path: '/api/events', body: { events: events(cwd) }, timeoutMs: 10_000 });
  expect(r.body.stored).toBe(6);
  return port;
}

describe('claude-mem forget with the worker running', () => {
  it('dry run changes nothing; forget --purge leaves no byte of it in the database or WAL, and the spool cannot bring it back', async () => {
    const home = newHome();
    const cwd = tempDir('proj');
    await startWithEvents(home, cwd);

    const dry = cli(home, ['forget', '--query', SECRET, '--dry-run']);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('Would forget: 1 observation');
    expect(rows(home, `SELECT id FROM observations WHERE narrative LIKE ? OR title LIKE ?`, `%${SECRET}%`, `%${SECRET}%`)).toHaveLength(1);

    // No terminal: no question.
    const r = cli(home, ['forget', '--query', SECRET, '--purge', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toMatchObject({ ok: true, dryRun: false, counts: { observations: 1, events: 2 } });
    expect(out.purge.walTruncated).toBe(true);
    const dbFile = join(home.dataDir, 'claude-mem.db');
    for (const f of [dbFile, `${dbFile}-wal`]) expect(bytesOf(f)).not.toContain(SECRET);
    expect(bytesOf(dbFile)).toContain('quasar'); // the rest is still there

    // The same events spooled again (a hook that could not reach the worker) are refused.
    const spool = join(home.dataDir, 'spool');
    writeSpool(spool, events(cwd));
    await waitFor(() => readdirSync(spool).filter((f) => f.endsWith('.jsonl')).length === 0, 15_000, 'spool drained');
    expect(rows(home, `SELECT id FROM events WHERE payload LIKE ?`, `%${SECRET}%`)).toHaveLength(0);
    expect(rows(home, `SELECT id FROM observations WHERE narrative LIKE ? OR title LIKE ?`, `%${SECRET}%`, `%${SECRET}%`)).toHaveLength(0);
    expect(rows(home, `SELECT id FROM observations`)).toHaveLength(1);
  });

  it('refuses bad arguments with a usage error', () => {
    const home = newHome();
    expect(cli(home, ['forget']).status).toBe(2);
    expect(cli(home, ['forget', 'abc']).status).toBe(2);
    expect(cli(home, ['forget', '1', '--project', 'x']).status).toBe(2);
    expect(cli(home, ['export', '--format', 'pdf']).status).toBe(2);
  });
});

describe('claude-mem export and import', () => {
  it('export -> import into a fresh data directory gives the same memory; importing twice, or at home, adds nothing', async () => {
    const home = newHome();
    const cwd = tempDir('proj');
    await startWithEvents(home, cwd);
    const [obs] = rows(home, `SELECT id FROM observations WHERE title LIKE '%lint%'`) as { id: number }[];
    const pin = await workerRequest({ port: workerJson(home).port, auth: auth(home), method: 'POST', path: '/api/pins', body: { observationId: obs.id }, timeoutMs: 5000 });
    expect(pin.status).toBe(201);
    expect(cli(home, ['forget', '--session', 'm-2']).status).toBe(0);
    cli(home, ['stop']);

    const file = join(tempDir('out'), 'memory.jsonl');
    const ex = cli(home, ['export', '-o', file]);
    expect(ex.status, ex.stderr).toBe(0);
    expect(cli(home, ['export', '-o', file]).status).toBe(1); // never replaces a file unasked
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(lines[0].type).toBe('header');
    expect(lines.filter((l) => l.type === 'pin')).toHaveLength(1);
    expect(lines.filter((l) => l.type === 'tombstone').length).toBeGreaterThan(0);

    const fresh = newHome();
    const first = cli(fresh, ['import', file, '--json']);
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ ok: true, via: 'database', added: { sessions: 1, observations: 2, pins: 1 } });
    const sets = (h: Home) => ({
      obs: rows(h, 'SELECT title, narrative, created_at FROM observations ORDER BY created_at'),
      events: rows(h, 'SELECT idem_key, payload FROM events ORDER BY idem_key'),
      prompts: rows(h, 'SELECT text, number FROM prompts ORDER BY created_at'),
      summaries: rows(h, 'SELECT request, outcome, text FROM summaries'),
      pins: rows(h, 'SELECT obs_key FROM pins'),
      tombstones: rows(h, 'SELECT key FROM tombstones ORDER BY key'),
    });
    expect(sets(fresh)).toEqual(sets(home));

    const second = JSON.parse(cli(fresh, ['import', file, '--json']).stdout);
    expect(Object.values(second.added).every((n) => n === 0)).toBe(true);
    const atHome = JSON.parse(cli(home, ['import', file, '--json']).stdout);
    expect(Object.values(atHome.added).every((n) => n === 0)).toBe(true);
    // The forgotten session stays forgotten in the new place.
    expect(rows(fresh, `SELECT id FROM prompts WHERE text LIKE '%quasar%'`)).toHaveLength(0);

    // Through a running worker, too.
    expect(cli(fresh, ['start']).status).toBe(0);
    const viaWorker = JSON.parse(cli(fresh, ['import', file, '--json']).stdout);
    expect(viaWorker.via).toBe('worker');
    expect(Object.values(viaWorker.added).every((n) => n === 0)).toBe(true);

    const md = cli(home, ['export', '--format', 'markdown']);
    expect(md.status).toBe(0);
    expect(md.stdout).toContain('# claude-mem export');
    expect(md.stdout).toContain('lint clean');
  });

  it('refuses a file that is not an export, naming it', () => {
    const home = newHome();
    const file = join(tempDir('in'), 'notes.jsonl');
    writeFileSync(file, '{"hello": 1}\n');
    const r = cli(home, ['import', file]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('not a claude-mem export');
  });
});
