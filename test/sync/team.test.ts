// A team shares only the projects its members mark as shared, identified by their git remote; the
// server enforces it with roles and row-level security, whatever a member's client does.
import { afterAll, expect, it } from 'vitest';
import pg from 'pg';
import { describePostgres, usePostgres, type PgRole } from '../helpers/postgres.js';
import { ensureBuilt } from '../hook-runtime/helpers.js';
import { tempDir } from '../helpers/temp.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { captureSession, checkout, cleanupDevices, cli, cliJson, count, newDevice, PROJECT, type Device } from './helpers.js';

const SECRET_PROJECT = 'github.com/alice/side-project';

describePostgres('sync with a team', () => {
  const server = usePostgres();
  const roles: Record<string, PgRole> = {};
  let alice: Device;
  let bob: Device;
  let aliceSide: string;

  afterAll(() => cleanupDevices(), 60_000);

  const asRole = async (role: PgRole) => {
    const c = new pg.Client({ connectionString: server().url(role, 'team') });
    await c.connect();
    return c;
  };

  it('members join the team their administrator made; one who is not a member is refused', async () => {
    ensureBuilt();
    for (const name of ['owner', 'alice', 'bob', 'carol']) roles[name] = await server().createRole(name);
    await server().query('CREATE ROLE acme NOLOGIN');
    await server().query('GRANT acme TO alice, bob');
    await server().createDatabase('team', roles.owner);
    // The owner creates the schema once; members need no right to create anything.
    const admin = newDevice('admin');
    cliJson(admin, ['sync', 'setup', server().url(roles.owner, 'team'), '--device', 'admin']);
    cliJson(admin, ['sync', 'remove']);

    alice = newDevice('alice-laptop');
    bob = newDevice('bob-desktop');
    aliceSide = checkout('https://github.com/alice/side-project.git', 'side');
    await captureSession(alice, 'sess-alice-app', 3);
    await captureSession(alice, 'sess-alice-side', 2, aliceSide);
    await captureSession(bob, 'sess-bob-app', 2);
    cliJson(alice, ['sync', 'setup', server().url(roles.alice, 'team'), '--team', 'acme', '--device', 'alice-laptop']);
    cliJson(bob, ['sync', 'setup', server().url(roles.bob, 'team'), '--team', 'acme', '--device', 'bob-desktop']);

    const carol = newDevice('carol');
    const r = cli(carol, ['sync', 'setup', server().url(roles.carol, 'team'), '--team', 'acme']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('carol is not a member of the role "acme"');
    expect(existsSync(join(carol.dataDir, 'sync.json'))).toBe(false);
  }, 180_000);

  it('before anything is shared, a member pulls nothing of another member (but everything of their own machines)', async () => {
    // Bob's second machine pushes after Alice did: Bob's pull cursor moves past Alice's hidden rows.
    const bobLaptop = newDevice('bob-laptop');
    await captureSession(bobLaptop, 'sess-bob-laptop', 1);
    cliJson(bobLaptop, ['sync', 'setup', server().url(roles.bob, 'team'), '--device', 'bob-laptop']);
    const r = cliJson<{ pull: { stored: number } }>(bob, ['sync', 'now']);
    expect(r.pull.stored).toBeGreaterThan(0);
    expect(count(bob, `SELECT count(*) FROM sessions WHERE host_session_id = 'sess-bob-laptop'`)).toBe(1);
    expect(count(bob, `SELECT count(*) FROM sessions WHERE host_session_id LIKE 'sess-alice%'`)).toBe(0);
  }, 60_000);

  it('a shared project reaches the team, its history included; an unshared one does not', async () => {
    const shared = cliJson<{ project: string; changed: boolean }>(alice, ['sync', 'share']);
    expect(shared).toMatchObject({ project: PROJECT, changed: true });
    cliJson(bob, ['sync', 'share', bob.repo]);
    cliJson(alice, ['sync', 'now']);
    cliJson(bob, ['sync', 'now']);
    expect(count(bob, `SELECT count(*) FROM sessions WHERE host_session_id = 'sess-alice-app' AND project = ?`, PROJECT)).toBe(1);
    expect(count(bob, `SELECT count(*) FROM sessions WHERE host_session_id = 'sess-alice-side'`)).toBe(0);
    expect(count(bob, `SELECT count(*) FROM sessions WHERE project = ?`, SECRET_PROJECT)).toBe(0);
    expect(count(alice, `SELECT count(*) FROM sessions WHERE host_session_id = 'sess-bob-app'`)).toBe(1);
    // Pulled rows name the member and machine they came from.
    expect(count(alice, `SELECT count(*) FROM sessions s JOIN sync_devices d ON d.device_id = s.origin
      WHERE s.host_session_id = 'sess-bob-app' AND d.member = 'bob' AND d.name = 'bob-desktop'`)).toBe(1);
  }, 120_000);

  it('the server enforces it: with their own credentials a member reads no unshared row of another, and cannot forge one', async () => {
    const asBob = await asRole(roles.bob);
    try {
      const own = await asBob.query<{ member: string; project: string; n: number }>(
        'SELECT member, project, count(*)::int AS n FROM claude_mem.events GROUP BY 1, 2 ORDER BY 1, 2');
      expect(own.rows.map((r) => `${r.member} ${r.project}`)).toEqual([`alice ${PROJECT}`, `bob ${PROJECT}`]);
      expect((await asBob.query(`SELECT count(*)::int AS n FROM claude_mem.events WHERE project = $1`, [SECRET_PROJECT])).rows[0].n).toBe(0);
      await expect(asBob.query(`INSERT INTO claude_mem.events (member, device_id, project, idem_key, host, kind, payload, at)
        SELECT 'alice', device_id, 'x', 'forged', 'claude-code', 'prompt', '{}', 'now' FROM claude_mem.devices LIMIT 1`))
        .rejects.toThrow(/row-level security/);
      await expect(asBob.query(`INSERT INTO claude_mem.shared_projects (member, team, project) VALUES ('alice', 'acme', $1)`, [SECRET_PROJECT]))
        .rejects.toThrow(/row-level security/);
      expect((await asBob.query(`DELETE FROM claude_mem.events WHERE member = 'alice'`)).rowCount).toBe(0);
    } finally {
      await asBob.end();
    }
    const asCarol = await asRole(roles.carol);
    try {
      expect((await asCarol.query('SELECT count(*)::int AS n FROM claude_mem.events')).rows[0].n).toBe(0);
      expect((await asCarol.query('SELECT count(*)::int AS n FROM claude_mem.shared_projects')).rows[0].n).toBe(0);
      await expect(asCarol.query(`INSERT INTO claude_mem.shared_projects (team, project) VALUES ('acme', 'github.com/carol/x')`))
        .rejects.toThrow(/row-level security/);
    } finally {
      await asCarol.end();
    }
    const all = await server().query<{ n: number }>(`SELECT count(*)::int AS n FROM claude_mem.events WHERE project = $1`, [SECRET_PROJECT], 'team');
    expect(all.rows[0]!.n).toBeGreaterThan(0);
  }, 60_000);

  it('a project is shared by its git remote, never by a folder name; unshare stops what follows', async () => {
    const plain = tempDir('no-git');
    const r = cli(alice, ['sync', 'share', plain]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('has no git remote');
    expect(cliJson<{ changed: boolean }>(alice, ['sync', 'unshare', PROJECT]).changed).toBe(true);
    await captureSession(alice, 'sess-alice-after', 1);
    cliJson(alice, ['sync', 'now']);
    cliJson(bob, ['sync', 'now']);
    expect(count(bob, `SELECT count(*) FROM sessions WHERE host_session_id = 'sess-alice-after'`)).toBe(0);
    expect(count(bob, `SELECT count(*) FROM sessions WHERE host_session_id = 'sess-alice-app'`)).toBe(1);
  }, 120_000);

  it('a role that may not connect gets a clear error and nothing is set up', async () => {
    await server().query('REVOKE CONNECT ON DATABASE team FROM PUBLIC');
    await server().query('GRANT CONNECT ON DATABASE team TO owner, acme');
    const carol = newDevice('carol-2');
    const r = cli(carol, ['sync', 'setup', server().url(roles.carol, 'team')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/cannot reach postgres:\/\/carol@127\.0\.0\.1:\d+\/team: permission denied for database "team"/);
    expect(r.stderr).not.toContain(roles.carol.password);
    expect(existsSync(join(carol.dataDir, 'sync.json'))).toBe(false);
  }, 60_000);
});
