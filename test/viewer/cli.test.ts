/** `claude-mem viewer` as a person runs it: the worker is started when needed, the link is printed, bad flags are usage errors. */
import { afterAll, describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/temp.js';
import { cleanupWorker, ensureBuilt, hookEnv, runBin } from '../hook-runtime/helpers.js';

const h = tempHome();
const env = hookEnv(h.env);

describe('claude-mem viewer', () => {
  afterAll(() => cleanupWorker(env, h.dataDir));

  it('starts the worker and prints a one-time link that signs in once', async () => {
    ensureBuilt();
    const r = await runBin({ env, args: ['viewer', '--no-open'], stdin: null, timeoutMs: 30_000 });
    expect(r.code, r.stderr).toBe(0);
    const url = /^(http:\/\/127\.0\.0\.1:\d+\/viewer\/open\?code=\S+)$/m.exec(r.stdout)?.[1];
    expect(r.stdout).toMatch(/^Open this link in your browser \(it works once, within 5 minutes\):/);
    expect(url).toBeDefined();
    const first = await fetch(url!, { redirect: 'manual' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/viewer');
    expect(first.headers.get('set-cookie')).toMatch(/HttpOnly; SameSite=Strict/);
    expect((await fetch(url!, { redirect: 'manual' })).status).toBe(403);
  });

  it('refuses an unknown flag as a usage error', async () => {
    const r = await runBin({ env, args: ['viewer', '--bogus'], stdin: null });
    expect(r.code).toBe(2);
  });
});
