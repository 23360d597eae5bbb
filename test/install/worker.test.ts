/** Install starts the worker; a partial uninstall leaves it running; removing the last host stops it; --purge removes the data. */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupWorker } from '../hook-runtime/helpers.js';
import { cli, cliEnv, ensureBuiltNow, seedHome, tempHome } from './helpers.js';

const t = tempHome();
const env = cliEnv(t.env, { PATH: '/usr/bin:/bin' });

beforeAll(() => {
  ensureBuiltNow();
  seedHome(t.home);
}, 180_000);
afterAll(() => cleanupWorker(env, t.dataDir));

describe('install and uninstall drive the worker', () => {
  it('starts, survives a partial uninstall, stops with the last host, and --purge removes the data directory', () => {
    const inst = cli(env, ['install', '--yes', '--ide', 'claude-code', 'cursor', '--json']);
    expect(inst.code, inst.stderr).toBe(0);
    const doc = JSON.parse(inst.stdout) as { worker: { ok: boolean; state: string; pid: number } };
    expect(doc.worker).toMatchObject({ ok: true, state: 'started', pid: expect.any(Number) });
    expect(cli(env, ['status']).code).toBe(0);

    const again = JSON.parse(cli(env, ['install', '--yes', '--ide', 'claude-code', '--json']).stdout) as { worker: { state: string } };
    expect(again.worker.state).toBe('running');

    const part = cli(env, ['uninstall', '--ide', 'cursor', '--yes']);
    expect(part.code, part.stderr).toBe(0);
    expect(part.stdout).toMatch(/worker: left running \(still used by claude-code\)/);
    expect(cli(env, ['status']).code).toBe(0);

    const last = cli(env, ['uninstall', '--yes', '--purge', '--json']);
    expect(last.code, last.stderr).toBe(0);
    expect(JSON.parse(last.stdout)).toMatchObject({ ok: true, worker: { action: 'stopped' }, purged: true, remaining: [] });
    expect(existsSync(t.dataDir)).toBe(false);
  }, 90_000);
});
