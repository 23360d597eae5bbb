// Two and three machines of one developer, capturing through the real hook and syncing through a
// real PostgreSQL: `sync now` makes their memories identical, nothing twice, every row counted.
import { afterAll, expect, it } from 'vitest';
import { describePostgres, usePostgres, type PgRole } from '../helpers/postgres.js';
import { claudePayload, ensureBuilt, runHook } from '../hook-runtime/helpers.js';
import { REMOTE_MIGRATIONS } from '../../src/worker/sync/remote-schema.js';
import { captureSession, cleanupDevices, cli, cliJson, count, memorySets, newDevice, PROJECT, type Device } from './helpers.js';

describePostgres('sync between one developer\'s machines', () => {
  const pg = usePostgres();
  let alice: PgRole;
  let url: string;
  const devs: Device[] = [];

  afterAll(() => cleanupDevices(), 60_000);

  it('sets up two machines against a fresh database, creating the schema once', async () => {
    ensureBuilt();
    alice = await pg().createRole('alice');
    await pg().createDatabase('memory', alice);
    url = pg().url(alice, 'memory');
    devs.push(newDevice('laptop'), newDevice('desktop'));
    await captureSession(devs[0], 'sess-laptop-1', 5);
    await captureSession(devs[1], 'sess-desktop-1', 3);

    const first = cliJson<{ schemaApplied: number[]; member: string; round: { push: { pushed: number } } }>(devs[0], ['sync', 'setup', url, '--device', 'laptop']);
    expect(first.schemaApplied).toEqual(REMOTE_MIGRATIONS.map((m) => m.version));
    expect(first.member).toBe('alice');
    expect(first.round.push.pushed).toBe(count(devs[0], 'SELECT count(*) FROM events WHERE probe = 0'));
    const second = cliJson<{ schemaApplied: number[] }>(devs[1], ['sync', 'setup', url, '--device', 'desktop']);
    expect(second.schemaApplied).toEqual([]);
  }, 120_000);

  it('converges: identical sessions, prompts, observations and summaries on both, nothing duplicated', async () => {
    cliJson(devs[0], ['sync', 'now']);
    const a = memorySets(devs[0]);
    const b = memorySets(devs[1]);
    expect(a).toEqual(b);
    expect(a.sessions.filter((s) => s.includes('sess-laptop-1') || s.includes('sess-desktop-1'))).toHaveLength(2);
    expect(a.sessions.every((s) => s.includes(PROJECT))).toBe(true);
    expect(a.observations.length).toBeGreaterThanOrEqual(8);
    expect(a.summaries).toHaveLength(2);
    for (const d of devs) {
      expect(count(d, 'SELECT count(*) - count(DISTINCT idem_key) FROM events')).toBe(0);
      expect(count(d, `SELECT count(*) FROM observations o JOIN sessions s ON s.id = o.session_id
        GROUP BY s.host_session_id, o.tool_use_id HAVING count(*) > 1`) ?? 0).toBe(0);
    }
    const server = await pg().query<{ n: number; distinct: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT idem_key)::int AS distinct FROM claude_mem.events', [], 'memory');
    expect(server.rows[0]!.n).toBe(a.events.length);
    expect(server.rows[0]!.distinct).toBe(a.events.length);
    // Rows pulled remember the machine they came from.
    expect(count(devs[0], `SELECT count(*) FROM sessions s JOIN sync_devices d ON d.device_id = s.origin
      WHERE s.host_session_id = 'sess-desktop-1' AND d.name = 'desktop' AND d.member = 'alice'`)).toBe(1);
    expect(count(devs[1], `SELECT count(*) FROM sessions WHERE host_session_id = 'sess-desktop-1' AND origin IS NULL`)).toBe(1);
  }, 120_000);

  it('a second round moves nothing; a third machine catches up with both', async () => {
    const again = cliJson<{ push: { pushed: number }; pull: { pulled: number } }>(devs[0], ['sync', 'now']);
    expect(again.push.pushed).toBe(0);
    expect(again.pull.pulled).toBe(0);
    devs.push(newDevice('server'));
    await captureSession(devs[2], 'sess-server-1', 2);
    cliJson(devs[2], ['sync', 'setup', url, '--device', 'server']);
    for (const d of devs) cliJson(d, ['sync', 'now']);
    const sets = devs.map(memorySets);
    expect(sets[1]).toEqual(sets[0]);
    expect(sets[2]).toEqual(sets[0]);
    expect(sets[0].summaries).toHaveLength(3);
  }, 180_000);

  it('status tells what waits, when it last pushed and pulled, and never shows the password', async () => {
    const r = cli(devs[0], ['sync', 'status', '--json']);
    expect(r.status).toBe(0);
    expect(r.stdout).not.toContain(alice.password);
    const s = JSON.parse(r.stdout) as { configured: boolean; pending: number; lastPullAt: string; target: string; devices: { name: string }[] };
    expect(s.configured).toBe(true);
    expect(s.pending).toBe(0);
    expect(s.target).toMatch(/^postgres:\/\/alice@127\.0\.0\.1:\d+\/memory$/);
    expect(s.devices.map((d) => d.name).sort()).toEqual(['desktop', 'server']);
    const human = cli(devs[0], ['sync', 'status']);
    expect(human.stdout).toContain('from desktop (alice)');
  }, 60_000);

  it('pulled sessions are searched and given as context like local ones, naming the machine they came from', async () => {
    const found = cliJson<{ results: { hostSessionId: string; from: string | null }[] }>(devs[0], ['search', 'flaky build', '--all-projects']);
    const fromDesktop = found.results.find((r) => r.hostSessionId === 'sess-desktop-1');
    expect(fromDesktop?.from).toBe('desktop (alice)');
    expect(found.results.find((r) => r.hostSessionId === 'sess-laptop-1')?.from).toBeNull();
    expect(cli(devs[0], ['search', 'flaky build', '--all-projects']).stdout).toContain('from desktop (alice)');
    const start = await runHook(devs[0].env, 'claude-code', 'SessionStart',
      JSON.stringify(claudePayload('001-SessionStart.json', { session_id: 'sess-laptop-ctx', cwd: devs[0].repo })), devs[0].repo);
    expect(start.code).toBe(0);
    expect(start.stdout).toMatch(/## Session [^\n]*from (desktop|server) \(alice\)/);
  }, 60_000);
});
