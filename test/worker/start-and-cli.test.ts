import { existsSync, readFileSync, statSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataPaths } from '../../src/shared/paths.js';
import { writeSpool } from '../../src/shared/spool.js';
import { workerRequest } from '../../src/shared/worker-client.js';
import { ensureWorker } from '../../src/shared/worker-start.js';
import { REPO_ROOT } from '../helpers/temp.js';
import { auth, cleanupWorkers, cli, newHome, token, waitFor, workerJson, workerPids } from './cli-helpers.js';
import { sampleEvent } from './fake-store.js';

afterEach(cleanupWorkers);

describe('spool drain at start', () => {
  it('drains spooled capture into the store and dead-letters bad lines', async () => {
    const home = newHome();
    const spool = join(home.dataDir, 'spool');
    writeSpool(spool, [sampleEvent(1, { sessionId: 'spooled', prompt: 'spooled capybara prompt' }), sampleEvent(2, { sessionId: 'spooled' })]);
    writeSpool(spool, [sampleEvent(3, { sessionId: 'spooled' })]);
    writeFileSync(join(spool, '000000000-1-bad0.jsonl'), `${JSON.stringify(sampleEvent(4, { sessionId: 'spooled' }))}\n{torn line\n`);
    const r = cli(home, ['start']);
    expect(r.status, r.stderr).toBe(0);
    await waitFor(() => readdirSync(spool).filter((f) => f.endsWith('.jsonl')).length === 0, 10_000, 'spool empty');
    const port = workerJson(home).port;
    const stats = await workerRequest<any>({ port, auth: auth(home), path: '/api/stats', timeoutMs: 5000 });
    expect(stats.body.store.events).toBe(4);
    expect(stats.body.deadLetters).toBe(1);
    const search = await workerRequest<any>({ port, auth: auth(home), path: '/api/search?q=capybara', timeoutMs: 5000 });
    expect(search.body.results.length).toBeGreaterThan(0);
  });

  it('keeps draining while running (files spooled after start)', async () => {
    const home = newHome();
    expect(cli(home, ['start']).status).toBe(0);
    const spool = join(home.dataDir, 'spool');
    writeSpool(spool, [sampleEvent(7, { sessionId: 'late' })]);
    await waitFor(() => readdirSync(spool).filter((f) => f.endsWith('.jsonl')).length === 0, 10_000, 'spool empty');
    const stats = await workerRequest<any>({ port: workerJson(home).port, auth: auth(home), path: '/api/stats', timeoutMs: 5000 });
    expect(stats.body.store.events).toBe(1);
  });
});

describe('ensureWorker (hooks, MCP)', () => {
  it('with waitMs 0 returns at once and the worker comes up by itself', async () => {
    const home = newHome();
    const paths = dataPaths(home.dataDir);
    const env = { ...home.env, CLAUDE_MEM_WORKER_ENTRY: join(REPO_ROOT, 'dist', 'worker.js') };
    const t0 = performance.now();
    const r = await ensureWorker({ paths, waitMs: 0, env });
    expect(performance.now() - t0).toBeLessThan(1000);
    expect(r).toMatchObject({ ok: false, state: 'starting' });
    await waitFor(() => existsSync(paths.workerJson), 15_000, 'worker.json');
    const ready = await ensureWorker({ paths, waitMs: 5000, env });
    expect(ready).toMatchObject({ ok: true, started: false });
    expect(workerPids(home.dataDir)).toHaveLength(1);
  });

  it('reports a failed start with the worker\'s own reason', async () => {
    const home = newHome();
    mkdirSync(home.dataDir, { recursive: true });
    writeFileSync(join(home.dataDir, 'settings.json'), '{"port": "not a number"}');
    const r = await ensureWorker({ paths: dataPaths(home.dataDir), waitMs: 15_000, env: { ...home.env, CLAUDE_MEM_WORKER_ENTRY: join(REPO_ROOT, 'dist', 'worker.js') } });
    expect(r).toMatchObject({ ok: false, state: 'failed' });
    expect(!r.ok && r.reason).toContain('settings.json');
    expect(!r.ok && r.error?.code).toBe('bad_settings');
  });
});

describe('install on a machine with no host', () => {
  it('--no-start prepares the data directory and says plainly that no host was configured', () => {
    const home = newHome();
    const r = cli(home, ['install', '--yes', '--no-start']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('No supported host was found');
    expect(r.stdout).toContain('claude-mem install --ide <host>');
    expect(statSync(home.dataDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(home.dataDir, 'worker.token')).mode & 0o777).toBe(0o600);
    const settings = JSON.parse(readFileSync(join(home.dataDir, 'settings.json'), 'utf8'));
    expect(settings.port).toBeGreaterThan(1023);
    expect(existsSync(join(home.dataDir, 'worker.json'))).toBe(false);
    // Twice changes nothing.
    const tokenBefore = token(home);
    const again = JSON.parse(cli(home, ['install', '--yes', '--no-start', '--json']).stdout);
    expect(again).toMatchObject({ ok: true, created: [], port: settings.port });
    expect(again.hosts.filter((h: { selected: boolean }) => h.selected)).toEqual([]);
    expect(token(home)).toBe(tokenBefore);
  });

  it('starts the worker; --ide prepares a host that is not installed yet; unknown ids are usage errors', () => {
    const home = newHome();
    const r = cli(home, ['install', '--yes']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/worker: started/);
    expect(workerPids(home.dataDir)).toHaveLength(1);
    const ide = cli(home, ['install', '--ide', 'claude', '--json', '--no-start']);
    expect(ide.status, ide.stderr).toBe(0);
    const doc = JSON.parse(ide.stdout);
    expect(doc.hosts.find((h: { id: string }) => h.id === 'claude-code')).toMatchObject({ selected: true, status: 'ok' });
    expect(existsSync(join(home.home, '.claude', 'settings.json'))).toBe(true);
    expect(cli(home, ['install', '--ide', 'nope']).status).toBe(2);
  });
});

describe('CLI frame', () => {
  it('exit codes: 0 ok, 2 usage', () => {
    const home = newHome();
    const v = cli(home, ['--version']);
    expect(v.status).toBe(0);
    expect(v.stdout.trim()).toBe(JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).version);
    expect(cli(home, ['--help']).status).toBe(0);
    expect(cli(home, []).status).toBe(2);
    const unknown = cli(home, ['frobnicate']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
    expect(cli(home, ['status', '--bogus']).status).toBe(2);
    expect(cli(home, ['search']).status).toBe(2);
    expect(cli(home, ['search', 'x', '--type', 'nope']).status).toBe(2);
    expect(cli(home, ['search', 'x', '--since', 'yesterday-ish']).status).toBe(2);
  });

  it('status --json is a stable document on stdout; exit 1 when stopped', () => {
    const home = newHome();
    const r = cli(home, ['status', '--json']);
    expect(r.status).toBe(1);
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc).sort()).toEqual(
      ['dataDir', 'evidence', 'fix', 'health', 'lastError', 'losses', 'portOwner', 'state', 'stats', 'tokenAccepted', 'worker'].sort(),
    );
    expect(doc.state).toBe('stopped');
  });
});
