import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkerServer, type WorkerServer } from '../../src/worker/server.js';
import { memoryLogger } from '../../src/worker/logger.js';
import { workerRequest } from '../../src/shared/worker-client.js';
import { busyError, FakeStore, sampleEvent } from './fake-store.js';
import { raw } from './http.js';

const TOKEN = 'a'.repeat(64);
const store = new FakeStore();
let srv: WorkerServer;
let port = 0;
let shutdownReason: string | undefined;
let kicks = 0;

beforeAll(async () => {
  srv = createWorkerServer({
    token: TOKEN,
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
      shutdown: (reason) => void (shutdownReason = reason),
    },
  });
  port = await srv.listen(0);
});

afterAll(() => srv.close(100));

describe('worker HTTP server', () => {
  it('answers health without a token and with identity', async () => {
    const r = await raw({ port, path: '/api/health' });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, name: 'claude-mem', instanceId: 'inst', dataDir: '/x' });
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
    const first = await workerRequest<any>({ port, token: TOKEN, path: '/api/events', body: { events }, timeoutMs: 2000 });
    expect(first.status).toBe(200);
    expect(first.body.stored).toBe(2);
    expect(first.body.rejected).toEqual([expect.objectContaining({ index: 2, code: 'invalid_session_id' })]);
    expect(store.deadLetters).toEqual([expect.objectContaining({ source: 'api', reason: expect.stringContaining('invalid_session_id') })]);
    const second = await workerRequest<any>({ port, token: TOKEN, path: '/api/events', body: { events: events.slice(0, 2) }, timeoutMs: 2000 });
    expect(second.body).toMatchObject({ stored: 0, duplicates: 2 });
  });

  it('maps a busy database to 503 store_busy and asks for a drain pass', async () => {
    store.failWith = busyError();
    try {
      const r = await workerRequest<any>({ port, token: TOKEN, path: '/api/events', body: { events: [sampleEvent(9)] }, timeoutMs: 2000 });
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe('store_busy');
      expect(kicks).toBeGreaterThan(0);
    } finally {
      store.failWith = undefined;
    }
  });

  it('maps an unexpected error to 500 internal', async () => {
    store.failWith = new Error('boom');
    try {
      const r = await workerRequest<any>({ port, token: TOKEN, path: '/api/search?q=a', timeoutMs: 2000 });
      expect(r.status).toBe(500);
      expect(r.body.error).toEqual({ code: 'internal', message: 'boom' });
    } finally {
      store.failWith = undefined;
    }
  });

  it('serves the read routes and stats', async () => {
    const obs = await workerRequest<any>({ port, token: TOKEN, path: '/api/observations/batch', body: { ids: [1, 2] }, timeoutMs: 2000 });
    expect(obs.body.observations.map((o: { id: number }) => o.id)).toEqual([1, 2]);
    const mem = await workerRequest<any>({ port, token: TOKEN, path: '/api/memory', body: { text: 'remember this', title: 'T' }, timeoutMs: 2000 });
    expect(mem.status).toBe(201);
    expect(mem.body.observation.title).toBe('T');
    const ctx = await workerRequest<any>({ port, token: TOKEN, path: '/api/context?project=abc&maxTokens=100', timeoutMs: 2000 });
    expect(ctx.body.project).toBe('abc');
    const tl = await workerRequest<any>({ port, token: TOKEN, path: '/api/timeline?anchor=3', timeoutMs: 2000 });
    expect(tl.body).toEqual({ items: [] });
    const stats = await workerRequest<any>({ port, token: TOKEN, path: '/api/stats', timeoutMs: 2000 });
    expect(stats.body).toMatchObject({ spool: { files: 2, bytes: 10 }, deadLetters: 1, worker: { instanceId: 'inst' } });
  });

  it('shuts down after answering the shutdown route', async () => {
    const r = await workerRequest<any>({ port, token: TOKEN, method: 'POST', path: '/api/admin/shutdown', timeoutMs: 2000 });
    expect(r.status).toBe(202);
    await new Promise((res) => setTimeout(res, 20));
    expect(shutdownReason).toContain('shutdown');
  });
});
