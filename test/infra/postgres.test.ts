// The PostgreSQL test server is real: a cluster of its own, roles whose credentials are checked,
// row-level security enforced per role, the server going down and coming back with its data, and
// no postmaster left behind whichever way the test process ends.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { expect, it } from 'vitest';
import { describePostgres, PgCluster, usePostgres, type PgRole } from '../helpers/postgres.js';
import { isRunning, postmasterPid } from '../helpers/postgres-guard.js';
import { tempDir, tempHome } from '../helpers/temp.js';
import { spawnCollect } from '../helpers/spawn.js';

/** Error code of a connection attempt that must fail. */
async function connectError(connectionString: string): Promise<string> {
  const client = new pg.Client({ connectionString, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (e) {
    return (e as { code?: string }).code ?? String(e);
  } finally {
    await client.end().catch(() => {});
  }
  throw new Error(`connected to ${connectionString}`);
}

async function ownRows(cluster: PgCluster, role: PgRole): Promise<string[]> {
  const c = await cluster.connect(role, { database: 'memory' });
  const { rows } = await c.query<{ body: string }>('SELECT body FROM notes ORDER BY id');
  await c.end();
  return rows.map((r) => r.body);
}

describePostgres('PostgreSQL test server', () => {
  const server = usePostgres();
  let alice: PgRole;
  let bob: PgRole;

  it('runs PostgreSQL 15 or later on 127.0.0.1 and a private socket, with checked passwords', async () => {
    const { rows } = await server().query<{ v: string }>("SELECT current_setting('server_version_num') AS v");
    expect(Number(rows[0]!.v)).toBeGreaterThanOrEqual(150000);
    alice = await server().createRole('alice');
    bob = await server().createRole('bob');
    const overSocket = await server().connect(alice, { socket: true });
    expect((await overSocket.query('SELECT current_user AS u')).rows[0].u).toBe('alice');
    await overSocket.end();
    expect(await connectError(server().url({ user: 'alice', password: 'wrong' }))).toBe('28P01');
  });

  it('keeps one role from reading or writing another role\'s rows (row-level security)', async () => {
    await server().createDatabase('memory');
    const ddl = [
      'CREATE TABLE notes (id serial PRIMARY KEY, owner name NOT NULL DEFAULT current_user, body text NOT NULL)',
      'ALTER TABLE notes ENABLE ROW LEVEL SECURITY',
      'ALTER TABLE notes FORCE ROW LEVEL SECURITY',
      'CREATE POLICY own_rows ON notes USING (owner = current_user) WITH CHECK (owner = current_user)',
      'GRANT SELECT, INSERT ON notes TO alice, bob',
      'GRANT USAGE ON SEQUENCE notes_id_seq TO alice, bob',
    ];
    for (const sql of ddl) await server().query(sql, [], 'memory');
    for (const [role, body] of [[alice, 'alice: the deploy key is rotated'], [bob, 'bob: flaky test in ci']] as const) {
      const c = await server().connect(role, { database: 'memory' });
      await c.query('INSERT INTO notes (body) VALUES ($1)', [body]);
      await c.end();
    }
    expect(await ownRows(server(), alice)).toEqual(['alice: the deploy key is rotated']);
    expect(await ownRows(server(), bob)).toEqual(['bob: flaky test in ci']);

    const asBob = await server().connect(bob, { database: 'memory' });
    expect((await asBob.query("SELECT count(*)::int AS n FROM notes WHERE owner = 'alice'")).rows[0].n).toBe(0);
    await expect(asBob.query("INSERT INTO notes (owner, body) VALUES ('alice', 'forged')"))
      .rejects.toThrow(/row-level security/);
    await asBob.end();
    const all = await server().query<{ n: number }>('SELECT count(*)::int AS n FROM notes', [], 'memory');
    expect(all.rows[0]!.n).toBe(2);
  });

  it('is reachable by libpq too: the socket URL and a service file work with psql', async () => {
    const { env } = tempHome();
    const serviceFile = join(tempDir('pgservice'), 'pg_service.conf');
    writeFileSync(serviceFile, server().serviceFileEntry('alice_memory', alice, 'memory'), { mode: 0o600 });
    const psql = join(server().bin.dir, 'psql');
    const bySocket = await spawnCollect(psql, ['-XAtc', 'SELECT current_user', server().socketUrl(alice, 'memory')], { env, timeoutMs: 20_000 });
    expect(bySocket.stderr).toBe('');
    expect(bySocket.stdout.trim()).toBe('alice');
    const byService = await spawnCollect(psql, ['-XAtc', 'SELECT body FROM notes', 'service=alice_memory'],
      { env: { ...env, PGSERVICEFILE: serviceFile }, timeoutMs: 20_000 });
    expect(byService.stderr).toBe('');
    expect(byService.stdout.trim()).toBe('alice: the deploy key is rotated');
  });

  it('goes down (connections refused, open clients see the error) and comes back with its data', async () => {
    const open = await server().connect(alice, { database: 'memory' });
    await server().stop();
    expect(await server().isRunning()).toBe(false);
    expect(await connectError(server().url(alice, 'memory'))).toBe('ECONNREFUSED');
    expect(await connectError(server().socketUrl(alice, 'memory'))).toBe('ENOENT');
    await expect(open.query('SELECT 1')).rejects.toThrow();
    expect(open.lastError).toBeDefined();

    await server().start();
    expect(await ownRows(server(), alice)).toEqual(['alice: the deploy key is rotated']);
    // A crash (immediate shutdown) is recovered from as well.
    await server().stop('immediate');
    await server().start();
    expect(await ownRows(server(), bob)).toEqual(['bob: flaky test in ci']);
  });

  it('leaves no postmaster or directory behind after destroy()', async () => {
    const other = await PgCluster.start();
    expect(other.port).not.toBe(server().port);
    const pid = postmasterPid(other.dataDir)!;
    expect(isRunning(pid)).toBe(true);
    await other.destroy();
    expect(isRunning(pid)).toBe(false);
    expect(existsSync(other.baseDir)).toBe(false);
    expect(PgCluster.all()).toEqual([server()]);
  });
});
