/** The hook's small HTTP client against real servers: the answers it must read, the failures it must report. */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { liteRequest } from '../../src/hook/http-lite.js';
import { AUTH_HEADER, parseAuthHeader, PROOF_HEADER, requestProblem, responseProof } from '../../src/shared/worker-auth.js';

const closers: (() => void)[] = [];
afterEach(() => {
  for (const c of closers.splice(0)) c();
});

async function listen<T extends HttpServer | NetServer>(server: T): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const sockets = new Set<Socket>();
  server.on('connection', (s: Socket) => sockets.add(s));
  closers.push(() => {
    for (const s of sockets) s.destroy();
    server.close();
  });
  return (server.address() as AddressInfo).port;
}

describe('liteRequest', () => {
  it('signs the request without sending the token, and accepts the answer only with the worker\'s proof', async () => {
    const auth = { token: 'a'.repeat(64), instanceId: 'inst-1' };
    let seen: { method?: string; url?: string; host?: string; body?: string; raw?: string; problem?: string } = {};
    const port = await listen(createHttpServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const signed = parseAuthHeader(req.headers[AUTH_HEADER] as string);
        const problem = signed ? requestProblem({ ...auth, port }, { method: req.method!, path: req.url!, body }, signed) : 'unsigned';
        seen = { method: req.method, url: req.url, host: req.headers.host, body: body.toString(), raw: JSON.stringify(req.headers), problem };
        const text = JSON.stringify({ stored: 1, duplicates: 0, rejected: [] });
        res.writeHead(200, { 'content-type': 'application/json', [PROOF_HEADER]: responseProof(auth.token, signed!.nonce, 200, text) });
        res.end(text);
      });
    }));
    const res = await liteRequest({ port, auth, method: 'POST', path: '/api/events', body: { events: [{ a: 'é' }] }, timeoutMs: 2000 });
    expect(res).toEqual({ status: 200, body: { stored: 1, duplicates: 0, rejected: [] }, verified: true });
    expect(seen).toMatchObject({ method: 'POST', url: '/api/events', host: `127.0.0.1:${port}`, body: '{"events":[{"a":"é"}]}', problem: undefined });
    expect(seen.raw).not.toContain(auth.token);
  });

  it('refuses a 200 that carries no proof, or a wrong one: that is not our worker', async () => {
    const auth = { token: 'b'.repeat(64), instanceId: 'inst-2' };
    const bare = await listen(createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"stored":1}');
    }));
    await expect(liteRequest({ port: bare, auth, method: 'POST', path: '/api/events', body: { events: [] }, timeoutMs: 2000 }))
      .rejects.toMatchObject({ code: 'unproven_answer' });
    const forged = await listen(createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', [PROOF_HEADER]: responseProof('c'.repeat(64), '0'.repeat(32), 200, '{}') });
      res.end('{}');
    }));
    await expect(liteRequest({ port: forged, auth, method: 'GET', path: '/api/context', timeoutMs: 2000 })).rejects.toMatchObject({ code: 'unproven_answer' });
    // An unproven refusal is only a refusal: the caller keeps its events.
    const refusing = await listen(createHttpServer((_req, res) => {
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"error":{"code":"x","message":"y"}}');
    }));
    expect(await liteRequest({ port: refusing, auth, method: 'POST', path: '/api/events', body: { events: [] }, timeoutMs: 2000 }))
      .toMatchObject({ status: 503, verified: false });
  });

  it('reads a chunked answer', async () => {
    const port = await listen(createHttpServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"text":"hello ');
      setTimeout(() => res.end('world"}'), 20);
    }));
    expect(await liteRequest({ port, method: 'GET', path: '/api/context?cwd=%2Ftmp', timeoutMs: 2000 })).toEqual({ status: 200, body: { text: 'hello world' }, verified: false });
  });

  it('reports the status of an early refusal (413) even while the body is still being sent', async () => {
    const port = await listen(createHttpServer((_req, res) => {
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
      res.end(JSON.stringify({ error: { code: 'too_large' } }));
    }));
    const res = await liteRequest({ port, method: 'POST', path: '/api/events', body: { big: 'x'.repeat(4 * 1024 * 1024) }, timeoutMs: 5000 });
    expect(res.status).toBe(413);
  });

  it('fails with ECONNREFUSED when nothing listens', async () => {
    const port = await listen(createNetServer());
    closers.pop()!();
    await new Promise((r) => setTimeout(r, 20));
    await expect(liteRequest({ port, method: 'GET', path: '/', timeoutMs: 2000 })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('gives up at the deadline when the server never answers', async () => {
    const port = await listen(createNetServer(() => {}));
    const started = Date.now();
    await expect(liteRequest({ port, method: 'GET', path: '/', timeoutMs: 150 })).rejects.toThrow(/within 150 ms/);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('rejects an answer that is not HTTP, or cut short', async () => {
    const garbage = await listen(createNetServer((s) => s.end('SSH-2.0-OpenSSH\r\n\r\n')));
    await expect(liteRequest({ port: garbage, method: 'GET', path: '/', timeoutMs: 2000 })).rejects.toThrow(/not an HTTP response/);
    const cut = await listen(createNetServer((s) => s.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{"partial"')));
    await expect(liteRequest({ port: cut, method: 'GET', path: '/', timeoutMs: 2000 })).rejects.toThrow(/closed before/);
  });
});
