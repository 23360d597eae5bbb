/**
 * Sync throughput on a real PostgreSQL (its own cluster, as the tests make it): push and pull of
 * 100,000 observations' events between two stores, against a same-run baseline of plain INSERTs
 * of the same rows into a table without policies or keys, and of plain SELECTs of them back into
 * a plain SQLite table; convergence time (push + pull); and the hook's latency while the worker
 * pulls, against the same hook with sync paused.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { CaptureEvent } from '../src/shared/capture-event.js';
import { openStore, type SqliteStore } from '../src/store/sqlite-store.js';
import { deviceId, pullAll, pushAll, PULL_BATCH, PUSH_BATCH } from '../src/worker/sync/engine.js';
import { Remote } from '../src/worker/sync/remote.js';
import { PgCluster } from '../test/helpers/postgres-cluster.js';
import { benchHome, BIN, cli, median, round } from './util.js';

export interface SyncBenchFigures {
  rows: number;
  pushRowsPerS: number;
  baselineInsertRowsPerS: number;
  pullRowsPerS: number;
  baselineSelectRowsPerS: number;
  convergeS: number;
  hookPausedMs: number;
  hookSyncingMs: number;
}

function events(n: number): CaptureEvent[] {
  const out: CaptureEvent[] = [];
  for (let i = 0; i < n; i++) {
    out.push({
      host: 'claude-code', source: 'hook', kind: 'tool_result', sessionId: `bench-${Math.floor(i / 200)}`, toolUseId: `toolu_b_${i}`,
      cwd: '/home/dev/app', toolName: 'Bash', toolInput: { command: `npm run build -- --step ${i}` },
      toolResponse: { stdout: `step ${i} finished\n`.repeat(4), stderr: '' }, at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    });
  }
  return out;
}

const secs = (t0: number) => (performance.now() - t0) / 1000;

function hookWall(env: NodeJS.ProcessEnv, i: number): Promise<number> {
  const input = JSON.stringify({
    session_id: 'bench-hook', cwd: '/tmp', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: `echo ${i}` },
    tool_response: { stdout: `${i}\n`, stderr: '' }, tool_use_id: `toolu_hook_${i}`,
  });
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [BIN, 'hook', 'claude-code', 'PostToolUse'], { env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`hook exited ${code}`))));
    child.stdin.end(input);
  });
}

async function baselines(url: string, store: SqliteStore, n: number): Promise<{ insert: number; select: number }> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`CREATE TABLE plain (seq bigserial, project text, idem_key text, host text, kind text, payload text, dropped text, at text)`);
  let t0 = performance.now();
  for (let after = 0; ;) {
    const b = store.syncOutbox(after, PUSH_BATCH);
    if (!b.length) break;
    const col = (k: keyof (typeof b)[number]) => b.map((e) => e[k]);
    await c.query(`INSERT INTO plain (project, idem_key, host, kind, payload, dropped, at)
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[])`,
    [col('project'), col('idemKey'), col('host'), col('kind'), col('payload'), col('dropped'), col('at')]);
    after = b[b.length - 1].id;
  }
  const insert = n / secs(t0);
  const dir = mkdtempSync(join(tmpdir(), 'cm-bench-plain-'));
  const db = new Database(join(dir, 'plain.db'));
  db.pragma('journal_mode = WAL');
  db.exec('CREATE TABLE plain (idem_key TEXT UNIQUE, project TEXT, host TEXT, kind TEXT, payload TEXT, dropped TEXT, at TEXT)');
  const ins = db.prepare('INSERT INTO plain VALUES (?, ?, ?, ?, ?, ?, ?)');
  const many = db.transaction((rows: Record<string, string | null>[]) => {
    for (const r of rows) ins.run(r.idem_key, r.project, r.host, r.kind, r.payload, r.dropped, r.at);
  });
  t0 = performance.now();
  for (let after = 0; ;) {
    const r = await c.query<Record<string, string | null>>('SELECT * FROM plain WHERE seq > $1 ORDER BY seq LIMIT $2', [after, PULL_BATCH]);
    if (!r.rows.length) break;
    many(r.rows);
    after = Number(r.rows[r.rows.length - 1].seq);
  }
  const select = n / secs(t0);
  db.close();
  rmSync(dir, { recursive: true, force: true });
  await c.end();
  return { insert, select };
}

export async function benchSync(n: number): Promise<SyncBenchFigures> {
  const cluster = await PgCluster.start();
  const dir = mkdtempSync(join(tmpdir(), 'cm-bench-sync-'));
  const h = benchHome();
  try {
    const alice = await cluster.createRole('alice');
    await cluster.createDatabase('bench', alice);
    const url = cluster.url(alice, 'bench');
    const a = openStore(join(dir, 'a.db'), { projectFor: () => 'github.com/acme/app' });
    const b = openStore(join(dir, 'b.db'));
    const all = events(n);
    for (let i = 0; i < all.length; i += 1000) a.ingest(all.slice(i, i + 1000));
    const outbox = a.syncPending(0);
    const ra = await Remote.connect({ connectionString: url });
    const rb = await Remote.connect({ connectionString: url });
    await ra.migrate();
    await ra.registerDevice(deviceId(a), 'a');
    await rb.registerDevice(deviceId(b), 'b');

    const base = await baselines(url, a, outbox);
    const t0 = performance.now();
    await pushAll(a, ra, deviceId(a));
    const pushS = secs(t0);
    const t1 = performance.now();
    const pulled = await pullAll(b, rb, deviceId(b));
    const pullS = secs(t1);
    if (pulled.stored !== outbox) throw new Error(`pulled ${pulled.stored} of ${outbox}`);
    await rb.close();
    b.close();

    // The hook while the worker pulls, against the same hook with sync paused.
    mkdirSync(h.dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(join(h.dataDir, 'settings.json'), JSON.stringify({ syncPullIntervalMs: 1000 }));
    // The first round pulls every row pushed above: give it the time it takes.
    const setup = spawnSync(process.execPath, [BIN, 'sync', 'setup', url, '--device', 'hook-bench', '--json'],
      { env: h.env, encoding: 'utf8', timeout: 900_000 });
    if (setup.status !== 0) throw new Error(`sync setup failed (${setup.status ?? setup.signal}): ${setup.stderr}`);
    cli(h.env, ['start']);
    cli(h.env, ['sync', 'pause']);
    const paused: number[] = [];
    for (let i = 0; i < 20; i++) paused.push(await hookWall(h.env, i));
    cli(h.env, ['sync', 'resume']);
    // Another 20,000 rows arrive on the server while the hooks run; the worker pulls them each second.
    const more = events(n + 20_000).slice(n);
    for (let i = 0; i < more.length; i += 1000) a.ingest(more.slice(i, i + 1000));
    let pushing = true;
    const feeding = (async () => {
      for (let after = Number(a.getSyncState().push_after ?? 0); pushing;) {
        const batch = a.syncOutbox(after, 500);
        if (!batch.length) break;
        await ra.push(deviceId(a), batch);
        after = batch[batch.length - 1].id;
      }
    })();
    const syncing: number[] = [];
    for (let i = 20; i < 40; i++) syncing.push(await hookWall(h.env, i));
    pushing = false;
    await feeding;
    await ra.close();
    a.close();
    return {
      rows: outbox,
      pushRowsPerS: round(outbox / pushS, 0),
      baselineInsertRowsPerS: round(base.insert, 0),
      pullRowsPerS: round(outbox / pullS, 0),
      baselineSelectRowsPerS: round(base.select, 0),
      convergeS: round(pushS + pullS, 2),
      hookPausedMs: round(median(paused), 1),
      hookSyncingMs: round(median(syncing), 1),
    };
  } finally {
    h.cleanup();
    rmSync(dir, { recursive: true, force: true });
    await cluster.destroy();
  }
}
