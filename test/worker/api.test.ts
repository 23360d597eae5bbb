/** The real worker (built dist/, real SQLite store) over HTTP. */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerRequest } from '../../src/shared/worker-client.js';
import { alive, auth, cleanupWorkers, cli, newHome, token, waitFor, workerJson, type Home } from './cli-helpers.js';
import { raw } from './http.js';
import { sampleEvent } from './fake-store.js';

let home: Home;
let port = 0;
let tok = '';

beforeAll(() => {
  home = newHome();
  const r = cli(home, ['start']);
  expect(r.status, r.stderr).toBe(0);
  port = workerJson(home).port;
  tok = token(home);
});

afterAll(cleanupWorkers);

const call = <T = any>(path: string, body?: unknown) => workerRequest<T>({ port, auth: auth(home), path, body, timeoutMs: 10_000 });

describe('worker API (real store)', () => {
  it('health is open but names its pid and data directory only to a signed request; everything else needs the token', async () => {
    const h = await raw({ port, path: '/api/health' });
    expect(h.status).toBe(200);
    expect(Object.keys(h.body).sort()).toEqual(['name', 'ok', 'version']);
    expect(JSON.stringify(h.body)).not.toContain(home.dataDir);
    const signed = await workerRequest<any>({ port, auth: auth(home), path: '/api/health', timeoutMs: 5000 });
    expect(signed).toMatchObject({ status: 200, verified: true, body: { instanceId: workerJson(home).instanceId, dataDir: home.dataDir, pid: workerJson(home).pid } });
    expect(signed.body.uptimeMs).toBeGreaterThanOrEqual(0);
    for (const path of ['/api/stats', '/api/search?q=x', '/api/context', '/api/timeline']) {
      expect((await raw({ port, path })).status, path).toBe(401);
      expect((await raw({ port, path, token: 'f'.repeat(64) })).status, path).toBe(401);
      expect((await raw({ port, path, token: tok })).status, path).toBe(200);
    }
    expect((await raw({ port, path: '/api/events', body: '{}' })).body.error.code).toBe('unauthorized');
  });

  it('refuses a wrong Host header', async () => {
    const r = await raw({ port, path: '/api/stats', token: tok, host: 'attacker.example' });
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('bad_host');
  });

  it('answers bad_json, invalid_body with a path, not_found', async () => {
    const bad = await raw({ port, path: '/api/events', token: tok, body: '{"events":' });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'bad_json']);
    const typed = await raw({ port, path: '/api/events', token: tok, body: JSON.stringify({ events: [{ ...sampleEvent(1), at: 5 }] }) });
    expect([typed.status, typed.body.error.code]).toEqual([400, 'invalid_body']);
    expect(typed.body.error.message).toContain('events.0.at');
    const mem = await raw({ port, path: '/api/memory', token: tok, body: JSON.stringify({ text: 3 }) });
    expect(mem.body.error.message).toMatch(/^text:/);
    const nf = await raw({ port, path: '/api/whatever', token: tok });
    expect([nf.status, nf.body.error.code]).toEqual([404, 'not_found']);
  });

  it('answers 413 for a huge body and stays up', async () => {
    const huge = JSON.stringify({ events: [sampleEvent(1, { prompt: 'z'.repeat(9 * 1024 * 1024) })] });
    const r = await raw({ port, path: '/api/events', token: tok, body: huge });
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('body_too_large');
    expect(r.body.error.message).toContain(String(8 * 1024 * 1024));
    // Through the shared client too (what the hook uses).
    const viaClient = await workerRequest<any>({ port, auth: auth(home), path: '/api/memory', body: { text: 'y'.repeat(2 * 1024 * 1024) }, timeoutMs: 10_000 });
    expect(viaClient.status).toBe(413);
    expect((await raw({ port, path: '/api/health' })).status).toBe(200);
    expect(alive(workerJson(home).pid)).toBe(true);
  });

  it('ingests events once: a redelivery counts as duplicates; rejections are reported', async () => {
    const events = [
      sampleEvent(1, { sessionId: 'api-sess', prompt: 'refactor the zebrafish parser' }),
      sampleEvent(2, { sessionId: 'api-sess', kind: 'tool_result', toolUseId: 'tu-1', toolName: 'Bash', toolInput: { command: 'npm test' }, toolResponse: 'ok' }),
    ];
    const first = await call('/api/events', { events });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ stored: 2, duplicates: 0, rejected: [] });
    const again = await call('/api/events', { events });
    expect(again.body).toMatchObject({ stored: 0, duplicates: 2 });
    const rej = await call('/api/events', { events: [sampleEvent(3, { sessionId: 'bad id with spaces' })] });
    expect(rej.status).toBe(200);
    expect(rej.body.rejected[0]).toMatchObject({ index: 0, code: 'invalid_session_id' });

    const search = await call('/api/search?q=zebrafish');
    expect(search.status).toBe(200);
    expect(search.body.results.length).toBeGreaterThan(0);
    const stats = await call('/api/stats');
    expect(stats.body.store.events).toBeGreaterThanOrEqual(2);
    expect(stats.body.spool).toEqual({ files: 0, bytes: 0 });
    expect(stats.body.deadLetters).toBe(1); // the rejected event, kept with its reason
  });

  it('saves a memory and reads it back by id, on the timeline and in context', async () => {
    const saved = await call('/api/memory', { text: 'The staging DB lives on port 6543', title: 'staging db port', cwd: '/tmp/project' });
    expect(saved.status).toBe(201);
    const id = saved.body.observation.id;
    const got = await call('/api/observations/batch', { ids: [id] });
    expect(got.body.observations[0].title).toBe('staging db port');
    const tl = await call(`/api/timeline?anchor=${id}`);
    expect(tl.status).toBe(200);
    expect(tl.body.items.some((i: { id: number }) => i.id === id)).toBe(true);
    const ctx = await call(`/api/context?cwd=${encodeURIComponent('/tmp/project')}&maxTokens=500`);
    expect(ctx.status).toBe(200);
    expect(typeof ctx.body.text).toBe('string');
  });

  it('bounds context asked without a budget by settings.json contextMaxTokens, read per request', async () => {
    const cwd = '/tmp/budget-project';
    for (let i = 0; i < 30; i++) {
      const saved = await call('/api/memory', { text: `Decision ${i}: the invoice exporter retries each failed upload with backoff and logs the tenant, the file and the attempt number`, title: `exporter decision ${i}`, cwd });
      expect(saved.status).toBe(201);
    }
    const settings = join(home.dataDir, 'settings.json');
    const before = existsSync(settings) ? readFileSync(settings, 'utf8') : undefined;
    try {
      const wide = await call(`/api/context?cwd=${encodeURIComponent(cwd)}`);
      expect(wide.body.approxTokens).toBeGreaterThan(200);
      writeFileSync(settings, JSON.stringify({ ...(before ? JSON.parse(before) : {}), contextMaxTokens: 100 }));
      const narrow = await call(`/api/context?cwd=${encodeURIComponent(cwd)}`);
      expect(narrow.body.approxTokens).toBeGreaterThan(0);
      expect(narrow.body.approxTokens).toBeLessThanOrEqual(100);
      // A caller's own budget still wins.
      expect((await call(`/api/context?cwd=${encodeURIComponent(cwd)}&maxTokens=1000`)).body.approxTokens).toBeGreaterThan(200);
    } finally {
      if (before === undefined) rmSync(settings, { force: true });
      else writeFileSync(settings, before);
    }
  });

  it('searches from the CLI through the worker', () => {
    const r = cli(home, ['search', 'zebrafish']);
    expect(r.status, r.stderr).toBe(0);
    // The test's directory is another project: the answer says it searched every project instead.
    expect(r.stdout).toMatch(/^Nothing in .+; results from every project:$/m);
    expect(r.stdout).toMatch(/^session \S+\s+\d{4}-\d{2}-\d{2} \d{2}:\d{2}\s+claude-code/m);
    expect(r.stdout).toMatch(/^ {2}asked: +refactor the zebrafish parser$/m);
    const j = JSON.parse(cli(home, ['search', 'zebrafish', '--json', '--host', 'claude', '--all-projects']).stdout);
    expect(j.via).toBe('worker');
    expect(j.widened).toBe(false);
    expect(j.results.length).toBeGreaterThan(0);
    // Ids of both levels: the session, and each evidence row by kind.
    expect(j.results[0]).toMatchObject({ hostSessionId: expect.any(String), sessionId: expect.any(Number) });
    expect(j.results[0].turns[0].evidence[0]).toMatchObject({ kind: 'prompt', id: expect.any(Number) });
    expect(cli(home, ['search', 'x', '--project', 'p', '--all-projects']).status).toBe(2);
    expect(cli(home, ['search', 'x', '--limit', '0']).status).toBe(2);
  });

  it('stops through the shutdown route', async () => {
    const { pid } = workerJson(home);
    const r = await call('/api/admin/shutdown', {});
    expect(r.status).toBe(202);
    await waitFor(() => !alive(pid), 10_000, 'worker exit');
    const st = cli(home, ['status', '--json']);
    expect(JSON.parse(st.stdout).state).toBe('stopped');
    // Worker down and unable to start: search reads the database directly.
    const direct = cli(home, ['search', 'zebrafish', '--json'], { CLAUDE_MEM_WORKER_ENTRY: '/nonexistent/worker.js' });
    expect(direct.status, direct.stderr).toBe(0);
    const doc = JSON.parse(direct.stdout);
    expect(doc.via).toBe('database');
    expect(doc.results.length).toBeGreaterThan(0);
  });
});
