// A forget on one machine reaches every machine and the server, and a machine that was offline
// meanwhile does not bring the forgotten rows back. The remote schema of an older claude-mem is
// migrated in place, its rows kept.
import { afterAll, expect, it } from 'vitest';
import { describePostgres, usePostgres, type PgRole } from '../helpers/postgres.js';
import { ensureBuilt } from '../hook-runtime/helpers.js';
import { captureSession, cleanupDevices, cli, cliJson, count, memorySets, newDevice, type Device } from './helpers.js';
import { Remote } from '../../src/worker/sync/remote.js';
import { migrateRemote, REMOTE_MIGRATIONS, remoteVersion } from '../../src/worker/sync/remote-schema.js';

describePostgres('forget across machines', () => {
  const pg = usePostgres();
  let alice: PgRole;
  let url: string;
  let a: Device;
  let b: Device;
  let c: Device;

  afterAll(() => cleanupDevices(), 60_000);

  const serverEvents = async (session: string) => (await pg().query<{ n: number }>(
    `SELECT count(*)::int AS n FROM claude_mem.events WHERE payload::jsonb ->> 'sessionId' = $1`, [session], 'memory')).rows[0]!.n;

  it('an existing remote of the first schema version is migrated by setup, its rows kept', async () => {
    ensureBuilt();
    alice = await pg().createRole('alice');
    await pg().createDatabase('memory', alice);
    url = pg().url(alice, 'memory');
    const old = await Remote.connect({ connectionString: url });
    expect(await migrateRemote(old.client, REMOTE_MIGRATIONS.slice(0, 1))).toEqual([1]);
    await old.client.query(`INSERT INTO claude_mem.devices (device_id, name) VALUES ('00000000-0000-4000-8000-000000000001', 'old')`);
    await old.client.query(`INSERT INTO claude_mem.events (device_id, project, idem_key, host, kind, payload, at)
      VALUES ('00000000-0000-4000-8000-000000000001', 'github.com/acme/app', 'old-key', 'claude-code', 'prompt',
        '{"host":"claude-code","source":"hook","kind":"prompt","sessionId":"sess-old","cwd":"/old","prompt":"from the old version","at":"2026-01-01T00:00:00.000Z"}',
        '2026-01-01T00:00:00.000Z')`);
    await old.close();

    a = newDevice('a');
    b = newDevice('b');
    c = newDevice('c');
    await captureSession(a, 'sess-a', 2);
    await captureSession(b, 'sess-b', 2);
    const setup = cliJson<{ schemaApplied: number[] }>(a, ['sync', 'setup', url, '--device', 'a']);
    expect(setup.schemaApplied).toEqual(REMOTE_MIGRATIONS.slice(1).map((m) => m.version));
    const check = await Remote.connect({ connectionString: url });
    expect(await remoteVersion(check.client)).toBe(REMOTE_MIGRATIONS.length);
    await check.close();
    cliJson(b, ['sync', 'setup', url, '--device', 'b']);
    cliJson(c, ['sync', 'setup', url, '--device', 'c']);
    for (const d of [a, b, c, a]) cliJson(d, ['sync', 'now']);
    expect(memorySets(b)).toEqual(memorySets(a));
    expect(memorySets(c)).toEqual(memorySets(a));
    expect(count(c, `SELECT count(*) FROM prompts WHERE text = 'from the old version'`)).toBe(1);
  }, 180_000);

  it('a session forgotten on one machine while its own machine is offline is gone everywhere, and stays gone', async () => {
    // b goes offline and goes on capturing in the session a is about to forget.
    cliJson(b, ['sync', 'pause']);
    await captureSession(b, 'sess-b', 4);
    const before = await serverEvents('sess-b');
    expect(before).toBeGreaterThan(0);

    const forget = cli(a, ['forget', '--session', 'sess-b', '--yes', '--json']);
    expect(forget.status, forget.stderr).toBe(0);
    const pushed = cliJson<{ push: { tombstones: number; removed: number } }>(a, ['sync', 'now']);
    expect(pushed.push.tombstones).toBeGreaterThan(0);
    expect(pushed.push.removed).toBe(before);
    expect(await serverEvents('sess-b')).toBe(0);

    const atC = cliJson<{ pull: { tombstones: number } }>(c, ['sync', 'now']);
    expect(atC.pull.tombstones).toBeGreaterThan(0);
    expect(count(c, `SELECT count(*) FROM sessions WHERE host_session_id = 'sess-b'`)).toBe(0);

    // b comes back: what it captured offline is refused by the server, and the tombstone reaches it.
    cliJson(b, ['sync', 'resume']);
    const back = cliJson<{ push: { pushed: number; stored: number }; pull: { tombstones: number } }>(b, ['sync', 'now']);
    expect(back.push.pushed).toBeGreaterThan(0);
    expect(back.push.stored).toBe(0);
    expect(back.pull.tombstones).toBeGreaterThan(0);
    expect(await serverEvents('sess-b')).toBe(0);
    for (const d of [a, c]) cliJson(d, ['sync', 'now']);
    for (const d of [a, b, c]) {
      expect(count(d, `SELECT count(*) FROM sessions WHERE host_session_id = 'sess-b'`)).toBe(0);
      expect(count(d, `SELECT count(*) FROM events WHERE payload LIKE '%sess-b%'`)).toBe(0);
    }
    expect(memorySets(b)).toEqual(memorySets(a));
    expect(memorySets(c)).toEqual(memorySets(a));
    expect(memorySets(a).sessions.some((s) => s.includes('sess-a'))).toBe(true);
  }, 180_000);

  it('export includes the rows pulled from other machines', () => {
    const r = cli(c, ['export', '--format', 'jsonl']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('sess-a');
    expect(r.stdout).toContain('from the old version');
  }, 60_000);
});
