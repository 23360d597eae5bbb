import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerServer, type WorkerServer } from '../../src/worker/server.js';
import { memoryLogger } from '../../src/worker/logger.js';
import { request } from 'node:http';
import { workerRequest } from '../../src/shared/worker-client.js';
import { AUTH_HEADER, PROOF_HEADER, signRequest } from '../../src/shared/worker-auth.js';
import { busyError, FakeStore, sampleEvent } from './fake-store.js';
import { raw } from './http.js';

const TOKEN = 'a'.repeat(64);
const AUTH = { token: TOKEN, instanceId: 'inst' };
const store = new FakeStore();
const storageFailures: unknown[] = [];
let srv: WorkerServer;
let port = 0;
let shutdownReason: string | undefined;
let kicks = 0;

beforeAll(async () => {
  srv = createWorkerServer({
    token: TOKEN,
    instanceId: 'inst',
    limits: { default: 16 * 1024, events: 256 * 1024 },
    ctx: {
      store,
      ingest: async (events) => store.ingest(events),
      logger: memoryLogger(),
      health: () => ({
        ok: true, name: 'claude-mem', version: '0.0.0-test', pid: process.pid, instanceId: 'inst', dataDir: '/x', startedAt: '', uptimeMs: 1,
      }),
      spoolDepth: () => ({ files: 2, bytes: 10 }),
      kickDrain: () => void kicks++,
      storageFailed: (err) => void storageFailures.push(err),
      storageState: () => null,
      shutdown: (reason) => void (shutdownReason = reason),
    },
  });
  port = await srv.listen(0);
});

afterAll(() => srv.close(100));

describe('worker HTTP server', () => {
  it('answers health without a token, but tells who it is (pid, data dir, instance) only to a signed request', async () => {
    const r = await raw({ port, path: '/api/health' });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ok: true, name: 'claude-mem', version: '0.0.0-test' });
    expect(r.headers[PROOF_HEADER]).toBeUndefined();
    const signed = await workerRequest<any>({ port, auth: AUTH, path: '/api/health', timeoutMs: 2000 });
    expect(signed).toMatchObject({ status: 200, verified: true, body: { instanceId: 'inst', dataDir: '/x', pid: process.pid } });
    // Signed with another token, or for another instance (a stale worker.json): refused, nothing told.
    for (const auth of [{ token: 'b'.repeat(64), instanceId: 'inst' }, { token: TOKEN, instanceId: 'old-inst' }]) {
      const bad = await workerRequest<any>({ port, auth, path: '/api/health', timeoutMs: 2000 });
      expect(bad).toMatchObject({ status: 401, verified: false, body: { error: { code: 'unauthorized' } } });
      expect(JSON.stringify(bad.body)).not.toContain('/x');
    }
  });

  it('refuses a signature replayed with another body, path or port', async () => {
    const body = Buffer.from(JSON.stringify({ events: [sampleEvent(50)] }));
    const { header } = signRequest(AUTH, port, 'POST', '/api/events', body);
    const send = (path: string, b: Buffer, auth = header) => new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, method: 'POST', path, agent: false, headers: {
        host: `127.0.0.1:${port}`, 'content-type': 'application/json', 'content-length': b.length, [AUTH_HEADER]: auth,
      } }, (res) => { res.resume(); res.on('end', () => resolve(res.statusCode ?? 0)); });
      req.on('error', reject);
      req.end(b);
    });
    expect(await send('/api/events', Buffer.from(JSON.stringify({ events: [sampleEvent(51)] })))).toBe(401);
    expect(await send('/api/memory', body)).toBe(401);
    // Signed for a process on another port (a stale worker.json's): useless here.
    expect(await send('/api/events', body, signRequest(AUTH, port + 1, 'POST', '/api/events', body).header)).toBe(401);
    expect(await send('/api/events', body, 'v1 inst 1 nonsense')).toBe(401);
    expect(await send('/api/events', body)).toBe(200);
  });

  it('requires the token on every other route', async () => {
    for (const [method, path] of [['GET', '/api/stats'], ['GET', '/api/search?q=x'], ['POST', '/api/events'], ['POST', '/api/admin/shutdown']]) {
      const none = await raw({ port, method, path, body: method === 'POST' ? '{}' : undefined });
      expect(none.status, `${method} ${path}`).toBe(401);
      expect(none.body.error.code).toBe('unauthorized');
      const wrong = await raw({ port, method, path, token: 'b'.repeat(64), body: method === 'POST' ? '{}' : undefined });
      expect(wrong.status).toBe(401);
      const short = await raw({ port, method, path, token: 'x', body: method === 'POST' ? '{}' : undefined });
      expect(short.status).toBe(401);
    }
    expect(shutdownReason).toBeUndefined();
  });

  it('refuses a foreign Host header (DNS rebinding), even on health', async () => {
    for (const host of ['evil.example:80', `evil.example:${port}`, '127.0.0.1', `127.0.0.1:${port + 1}`]) {
      const r = await raw({ port, path: '/api/health', host });
      expect(r.status, host).toBe(403);
      expect(r.body.error.code).toBe('bad_host');
    }
    expect((await raw({ port, path: '/api/health', host: `localhost:${port}` })).status).toBe(200);
  });

  it('answers 404 for unknown routes and 405 for wrong methods', async () => {
    const nf = await raw({ port, path: '/api/nope', token: TOKEN });
    expect(nf.status).toBe(404);
    expect(nf.body.error.code).toBe('not_found');
    const na = await raw({ port, method: 'GET', path: '/api/events', token: TOKEN });
    expect(na.status).toBe(405);
    expect(na.body.error.code).toBe('method_not_allowed');
    expect(na.headers.allow).toBe('POST');
  });

  it('rejects malformed JSON with bad_json', async () => {
    const r = await raw({ port, path: '/api/events', token: TOKEN, body: '{"events": [' });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('bad_json');
    const empty = await raw({ port, path: '/api/memory', token: TOKEN, body: '' });
    expect(empty.body.error.code).toBe('bad_json');
    const text = await raw({ port, path: '/api/memory', token: TOKEN, body: 'hello', contentType: 'text/plain' });
    expect(text.body.error.code).toBe('bad_json');
  });

  it('rejects wrong types with invalid_body naming the path', async () => {
    const bad = { events: [sampleEvent(1), { ...sampleEvent(2), sessionId: 42 }] };
    const r = await raw({ port, path: '/api/events', token: TOKEN, body: JSON.stringify(bad) });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_body');
    expect(r.body.error.message).toContain('events.1.sessionId');
    expect(r.body.error.issues[0].path).toBe('events.1.sessionId');
    const ids = await raw({ port, path: '/api/observations/batch', token: TOKEN, body: JSON.stringify({ ids: ['x'] }) });
    expect(ids.body.error.code).toBe('invalid_body');
    expect(ids.body.error.message).toContain('ids.0');
    const none = await raw({ port, path: '/api/events', token: TOKEN, body: JSON.stringify({ events: [] }) });
    expect(none.body.error.code).toBe('invalid_body');
  });

  it('validates queries', async () => {
    const r = await raw({ port, path: '/api/search?q=x&limit=abc', token: TOKEN });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_query');
    expect(r.body.error.message).toContain('limit');
    const host = await raw({ port, path: '/api/search?q=x&host=nohost', token: TOKEN });
    expect(host.body.error.message).toContain('unknown host');
    const ok = await raw({ port, path: '/api/search?q=x&host=claude&limit=5', token: TOKEN });
    expect(ok.status).toBe(200);
  });

  it('answers 413 for a body over the limit, with the limit, and keeps serving', async () => {
    const huge = JSON.stringify({ text: 'x'.repeat(100 * 1024) });
    const r = await raw({ port, path: '/api/memory', token: TOKEN, body: huge });
    expect(r.status).toBe(413);
    expect(r.body.error.code).toBe('body_too_large');
    expect(r.body.error.message).toContain(String(16 * 1024));
    // Without content-length the limit is enforced while reading.
    const chunked = await raw({ port, path: '/api/memory', token: TOKEN, body: huge, chunked: true });
    expect(chunked.status).toBe(413);
    // The events route has its own, larger limit.
    const events = await raw({ port, path: '/api/events', token: TOKEN, body: JSON.stringify({ events: [sampleEvent(1, { prompt: 'y'.repeat(300 * 1024) })] }) });
    expect(events.status).toBe(413);
    expect(events.body.error.message).toContain(String(256 * 1024));
    expect((await raw({ port, path: '/api/health' })).status).toBe(200);
  });

  it('ingests events and counts duplicates', async () => {
    const events = [sampleEvent(1), sampleEvent(2), { ...sampleEvent(3), sessionId: 'bad id!' }];
    const first = await workerRequest<any>({ port, auth: AUTH, path: '/api/events', body: { events }, timeoutMs: 2000 });
    expect(first.status).toBe(200);
    expect(first.body.stored).toBe(2);
    expect(first.body.rejected).toEqual([expect.objectContaining({ index: 2, code: 'invalid_session_id' })]);
    expect(store.deadLetters).toEqual([expect.objectContaining({ source: 'api', reason: expect.stringContaining('invalid_session_id') })]);
    const second = await workerRequest<any>({ port, auth: AUTH, path: '/api/events', body: { events: events.slice(0, 2) }, timeoutMs: 2000 });
    expect(second.body).toMatchObject({ stored: 0, duplicates: 2 });
  });

  it('maps a busy database to 503 store_busy and asks for a drain pass', async () => {
    store.failWith = busyError();
    try {
      const r = await workerRequest<any>({ port, auth: AUTH, path: '/api/events', body: { events: [sampleEvent(9)] }, timeoutMs: 2000 });
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('store_busy');
      expect(kicks).toBeGreaterThan(0);
    } finally {
      store.failWith = undefined;
    }
  });

  it('answers a write the disk cannot take with an error (507 store_full, 503 store_readonly): nothing is acknowledged', async () => {
    const cases = [
      [Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' }), 507, 'store_full'],
      [Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' }), 503, 'store_readonly'],
      [Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR_WRITE' }), 503, 'store_io'],
    ] as const;
    for (const [err, status, code] of cases) {
      store.failWith = err;
      try {
        const r = await workerRequest<any>({ port, auth: AUTH, path: '/api/events', body: { events: [sampleEvent(70)] }, timeoutMs: 2000 });
        expect(r).toMatchObject({ status, verified: true, body: { error: { code } } });
        expect(r.body.error.message).toMatch(/nothing was stored/);
      } finally {
        store.failWith = undefined;
      }
    }
    expect(storageFailures).toHaveLength(3);
  });

  it('maps an unexpected error to 500 internal', async () => {
    store.failWith = new Error('boom');
    try {
      const r = await workerRequest<any>({ port, auth: AUTH, path: '/api/search?q=a', timeoutMs: 2000 });
      expect(r.status).toBe(500);
      expect(r.body.error).toEqual({ code: 'internal', message: 'boom' });
    } finally {
      store.failWith = undefined;
    }
  });

  it('serves the read routes and stats', async () => {
    const obs = await workerRequest<any>({ port, auth: AUTH, path: '/api/observations/batch', body: { ids: [1, 2] }, timeoutMs: 2000 });
    expect(obs.body.observations.map((o: { id: number }) => o.id)).toEqual([1, 2]);
    const mem = await workerRequest<any>({ port, auth: AUTH, path: '/api/memory', body: { text: 'remember this', title: 'T' }, timeoutMs: 2000 });
    expect(mem.status).toBe(201);
    expect(mem.body.observation.title).toBe('T');
    const ctx = await workerRequest<any>({ port, auth: AUTH, path: '/api/context?project=abc&maxTokens=100', timeoutMs: 2000 });
    expect(ctx.body.project).toBe('abc');
    const tl = await workerRequest<any>({ port, auth: AUTH, path: '/api/timeline?anchor=3', timeoutMs: 2000 });
    expect(tl.body).toEqual({ items: [] });
    const stats = await workerRequest<any>({ port, auth: AUTH, path: '/api/stats', timeoutMs: 2000 });
    expect(stats.body).toMatchObject({ spool: { files: 2, bytes: 10 }, deadLetters: 1, worker: { instanceId: 'inst' } });
  });

  it('shuts down after answering the shutdown route', async () => {
    const r = await workerRequest<any>({ port, auth: AUTH, method: 'POST', path: '/api/admin/shutdown', timeoutMs: 2000 });
    expect(r.status).toBe(202);
    await new Promise((res) => setTimeout(res, 20));
    expect(shutdownReason).toContain('shutdown');
  });
});
