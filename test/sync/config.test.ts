// The connection: a postgres:// URL or a libpq service file entry; kept 0600 apart from
// settings.json, and shown without its password.
import { statSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { clientConfig, describeTarget } from '../../src/worker/sync/config.js';
import { Remote } from '../../src/worker/sync/remote.js';
import { describePostgres, usePostgres } from '../helpers/postgres.js';
import { tempDir } from '../helpers/temp.js';
import { ensureBuilt } from '../hook-runtime/helpers.js';
import { cleanupDevices, cli, cliJson, newDevice } from './helpers.js';

describePostgres('the sync connection', () => {
  const pg = usePostgres();
  afterAll(() => cleanupDevices(), 60_000);

  it('a service file entry connects like the URL it stands for', async () => {
    const bob = await pg().createRole('bob');
    const file = join(tempDir('svc'), 'pg_service.conf');
    writeFileSync(file, `# team database\n${pg().serviceFileEntry('memory', bob)}`, { mode: 0o600 });
    const remote = await Remote.connect(clientConfig('service=memory', { PGSERVICEFILE: file, HOME: tempDir('h') }));
    expect(remote.member).toBe('bob');
    await remote.close();
    expect(() => clientConfig('service=other', { PGSERVICEFILE: file, HOME: tempDir('h') })).toThrow(/no service "other"/);
    expect(() => clientConfig('mysql://x')).toThrow(/postgres:\/\//);
    expect(describeTarget(pg().url(bob))).toBe(`postgres://bob@127.0.0.1:${pg().port}/postgres`);
  }, 60_000);

  it('keeps the password in a 0600 file of its own, never in settings.json, status or the log', async () => {
    ensureBuilt();
    const alice = await pg().createRole('alice');
    await pg().createDatabase('memory', alice);
    const d = newDevice('laptop');
    cliJson(d, ['sync', 'setup', pg().url(alice, 'memory'), '--device', 'laptop']);
    const secret = join(d.dataDir, 'sync.secret');
    expect(statSync(secret).mode & 0o777).toBe(0o600);
    expect(statSync(join(d.dataDir, 'sync.json')).mode & 0o777).toBe(0o600);
    expect(readFileSync(secret, 'utf8')).toContain(alice.password);
    for (const f of ['sync.json', 'settings.json', 'logs/worker.log']) {
      const p = join(d.dataDir, f);
      if (existsSync(p)) expect(readFileSync(p, 'utf8')).not.toContain(alice.password);
    }
    for (const args of [['sync', 'status'], ['sync', 'status', '--json'], ['sync', 'now'], ['doctor', '--json']]) {
      const r = cli(d, args);
      expect(r.stdout + r.stderr).not.toContain(alice.password);
    }
    const removed = cliJson<{ purged: unknown }>(d, ['sync', 'remove']);
    expect(removed.purged).toBeNull();
    expect(existsSync(secret)).toBe(false);
    // Without --purge-remote the database keeps what this machine registered.
    const left = await pg().query<{ n: number }>(`SELECT count(*)::int AS n FROM claude_mem.devices WHERE name = 'laptop'`, [], 'memory');
    expect(left.rows[0]!.n).toBe(1);
  }, 120_000);

  it('remove --purge-remote asks first, and deletes only this member\'s rows once confirmed', async () => {
    const carol = await pg().createRole('carol');
    await pg().query('GRANT CREATE ON DATABASE memory TO carol');
    const d = newDevice('c1');
    cliJson(d, ['sync', 'setup', pg().url(carol, 'memory')]);
    await pg().query(`INSERT INTO claude_mem.devices (device_id, member, name) VALUES ('00000000-0000-4000-8000-0000000000aa', 'alice', 'x')`, [], 'memory');
    await pg().query(`INSERT INTO claude_mem.events (device_id, member, project, idem_key, host, kind, payload, at)
      VALUES ('00000000-0000-4000-8000-0000000000aa', 'alice', 'p', 'k1', 'claude-code', 'prompt', '{}', 'x'),
             ('00000000-0000-4000-8000-0000000000aa', 'alice', 'p', 'k2', 'claude-code', 'prompt', '{}', 'x')`, [], 'memory');
    await pg().query(`INSERT INTO claude_mem.devices (device_id, member, name) VALUES ('00000000-0000-4000-8000-0000000000cc', 'carol', 'c2')`, [], 'memory');
    await pg().query(`INSERT INTO claude_mem.events (device_id, member, project, idem_key, host, kind, payload, at)
      VALUES ('00000000-0000-4000-8000-0000000000cc', 'carol', 'p', 'k3', 'claude-code', 'prompt', '{}', 'x')`, [], 'memory');
    const refused = cli(d, ['sync', 'remove', '--purge-remote']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('add --yes to confirm');
    expect(existsSync(join(d.dataDir, 'sync.json'))).toBe(true);
    const r = cliJson<{ purged: { events: number; devices: number } }>(d, ['sync', 'remove', '--purge-remote', '--yes']);
    expect(r.purged.events).toBe(1);
    const rows = await pg().query<{ member: string; n: number }>('SELECT member, count(*)::int AS n FROM claude_mem.events GROUP BY member', [], 'memory');
    expect(rows.rows).toEqual([{ member: 'alice', n: 2 }]);
  }, 120_000);
});
