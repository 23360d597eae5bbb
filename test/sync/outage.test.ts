// The worker syncs by itself: pushes soon after capture, pulls on a schedule, and when the
// database goes down, capture goes on locally (hooks exit 0, nothing lost), the failure is
// reported, and sync resumes on its own once the database is back.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describePostgres, usePostgres } from '../helpers/postgres.js';
import { ensureBuilt, waitFor } from '../hook-runtime/helpers.js';
import { captureSession, cleanupDevices, cli, cliJson, count, memorySets, newDevice, type Device } from './helpers.js';

/** doctor's sync checks, by id. */
function doctorSync(d: Device): Record<string, { status: string; evidence: string }> {
  const r = cli(d, ['doctor', '--json']);
  const report = JSON.parse(r.stdout) as { checks: { id: string; area: string; status: string; evidence: string }[] };
  return Object.fromEntries(report.checks.filter((c) => c.area === 'sync').map((c) => [c.id, c]));
}

interface Status {
  pending: number;
  lastError: string | null;
  failures: number;
  lastPushAt: string | null;
}

function fastSettings(d: Device): void {
  mkdirSync(d.dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(join(d.dataDir, 'settings.json'), JSON.stringify({ syncPullIntervalMs: 1000 }));
}

describePostgres('the worker syncs on its own', () => {
  const pg = usePostgres();
  let a: Device;
  let b: Device;

  afterAll(() => cleanupDevices(), 60_000);

  const has = (d: Device, session: string) => count(d, 'SELECT count(*) FROM sessions WHERE host_session_id = ?', session) === 1;

  it('pushes shortly after capture and the other machine pulls it without being asked', async () => {
    ensureBuilt();
    const alice = await pg().createRole('alice');
    await pg().createDatabase('memory', alice);
    a = newDevice('a');
    b = newDevice('b');
    fastSettings(a);
    fastSettings(b);
    await captureSession(a, 'sess-first', 1); // starts a's worker
    await captureSession(b, 'sess-b-first', 1);
    cliJson(a, ['sync', 'setup', pg().url(alice, 'memory'), '--device', 'a']);
    cliJson(b, ['sync', 'setup', pg().url(alice, 'memory'), '--device', 'b']);
    await captureSession(a, 'sess-live', 2);
    await waitFor(() => has(b, 'sess-live'), 30_000);
  }, 120_000);

  it('with the database down: hooks still exit 0, capture is kept, the error is reported; then it catches up by itself', async () => {
    await pg().stop();
    await captureSession(a, 'sess-offline', 5);
    expect(has(a, 'sess-offline')).toBe(true);
    const down = await waitFor(() => {
      const s = cliJson<Status>(a, ['sync', 'status']);
      return s.lastError && s.pending > 0 ? s : undefined;
    }, 30_000, 500);
    expect(down.lastError).toMatch(/ECONNREFUSED|connect|terminat|shut/i);
    expect(down.failures).toBeGreaterThan(0);
    const sick = doctorSync(a);
    expect(sick['sync.connection']?.status).toBe('fail');
    expect(sick['sync.last-error']?.status).toBe('warn');

    await pg().start();
    await waitFor(() => has(b, 'sess-offline'), 90_000, 250);
    await waitFor(() => cliJson<Status>(a, ['sync', 'status']).pending === 0, 30_000, 250);
    const s = cliJson<Status>(a, ['sync', 'status']);
    expect(s.lastError).toBeNull();
    await waitFor(() => has(a, 'sess-b-first'), 30_000, 250);
    expect(memorySets(b)).toEqual(memorySets(a));
    const well = doctorSync(a);
    expect(well['sync.connection']).toMatchObject({ status: 'ok' });
    expect(well['sync.connection']!.evidence).toContain('signed in as alice');
    expect(well['sync.schema']).toMatchObject({ status: 'ok' });
    expect(well['sync.lag']).toMatchObject({ status: 'ok' });
    expect(well['sync.lag']!.evidence).toMatch(/^0 event\(s\) to push/);
    expect(well['sync.last-error']).toMatchObject({ status: 'ok' });
  }, 240_000);
});
