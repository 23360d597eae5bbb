// Worker first, database second: the fallback rules and the HTTP client's mapping of answers.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { FallbackReader } from '../../src/mcp/access.js';
import { RequestRejectedError, WorkerUnavailableError } from '../../src/mcp/reader.js';
import { WorkerReader } from '../../src/mcp/worker-reader.js';
import { dataPaths } from '../../src/shared/paths.js';
import { AUTH_HEADER, parseAuthHeader, PROOF_HEADER, requestProblem, responseProof } from '../../src/shared/worker-auth.js';
import { tempDir } from '../helpers/temp.js';
import { FakeReader } from './fake-reader.js';

class ScriptedWorker extends FakeReader {
  override async search(...args: Parameters<FakeReader['search']>) {
    const r = await super.search(...args);
    return { ...r, via: 'worker' as const };
  }
}

describe('FallbackReader', () => {
  it('uses the worker while it answers', async () => {
    const direct = new FakeReader();
    let kicks = 0;
    const r = new FallbackReader(new ScriptedWorker(), direct, { kickWorker: () => kicks++ });
    expect((await r.search({ query: 'x' })).via).toBe('worker');
    expect(direct.calls).toHaveLength(0);
    expect(kicks).toBe(0);
  });

  it('falls back to the database, kicks the worker, and skips it for a while', async () => {
    const worker = new FakeReader();
    worker.fail = new WorkerUnavailableError('connect ECONNREFUSED');
    const direct = new FakeReader();
    let kicks = 0;
    let now = 1000;
    const r = new FallbackReader(worker, direct, { kickWorker: () => kicks++, skipWorkerMs: 5000, now: () => now });
    expect((await r.search({ query: 'x' })).via).toBe('database');
    expect(kicks).toBe(1);
    await r.getObservations([1]);
    expect(worker.calls).toHaveLength(1); // skipped during the window
    now += 5000;
    await r.context({});
    expect(worker.calls).toHaveLength(2); // tried again after it
    expect(direct.calls.map((c) => c.op)).toEqual(['search', 'getObservations', 'context']);
  });

  it('does not fall back when the request itself is wrong', async () => {
    const worker = new FakeReader();
    worker.fail = new RequestRejectedError('bad query');
    const direct = new FakeReader();
    const r = new FallbackReader(worker, direct, { kickWorker: () => undefined });
    await expect(r.search({ query: 'x' })).rejects.toThrow('bad query');
    expect(direct.calls).toHaveLength(0);
  });
});

describe('WorkerReader', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

  const TOKEN = 'tok';

  /** A worker answering like the real one (signed answers to requests signed for instance `i`), unless `prove` is false. */
  async function fakeWorker(handler: (req: IncomingMessage, body: string, signed: string) => [number, unknown] | undefined, prove = true) {
    const paths = dataPaths(tempDir('data'));
    mkdirSync(paths.root, { recursive: true });
    let port = 0;
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        const auth = parseAuthHeader(req.headers[AUTH_HEADER] as string | undefined);
        const problem = auth ? requestProblem({ token: TOKEN, instanceId: 'i', port }, { method: req.method!, path: req.url!, body: Buffer.from(body) }, auth) : 'unsigned';
        const sent = JSON.stringify(req.headers).includes(`"${TOKEN}`) || JSON.stringify(req.headers).includes(` ${TOKEN}"`);
        const answer = handler(req, body, sent ? 'TOKEN SENT' : problem ?? 'signed');
        if (!answer) return; // never answer: a hung worker
        const text = JSON.stringify(answer[1]);
        const proof = prove && !problem ? { [PROOF_HEADER]: responseProof(TOKEN, auth!.nonce, answer[0], text) } : {};
        res.writeHead(answer[0], { 'content-type': 'application/json', ...proof }).end(text);
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    port = (server.address() as { port: number }).port;
    writeFileSync(paths.workerJson, JSON.stringify({ pid: process.pid, port, version: 't', startedAt: '', dataDir: paths.root, instanceId: 'i' }));
    writeFileSync(paths.token, `${TOKEN}\n`);
    return paths;
  }

  it('sends the documented routes, signed (never the token itself), and maps the answers', async () => {
    const seen: string[] = [];
    const paths = await fakeWorker((req, body, signed) => {
      seen.push(`${req.method} ${req.url} ${signed} ${body}`);
      if (req.url!.startsWith('/api/search')) return [200, { results: [{ id: 1 }] }];
      if (req.url!.startsWith('/api/timeline')) return [200, { items: [{ id: 2 }] }];
      if (req.url === '/api/observations/batch') return [200, { observations: [{ id: 3 }] }];
      if (req.url === '/api/memory') return [200, { observation: { id: 4 } }];
      if (req.url!.startsWith('/api/context')) return [200, { project: 'p', text: 't', observationIds: [], summaryId: null, approxTokens: 1 }];
      return [404, { error: { code: 'not_found', message: 'no route' } }];
    });
    const w = new WorkerReader(paths);
    expect((await w.search({ query: 'a b', project: 'p', limit: 3 })).value).toEqual({ results: [{ id: 1 }], project: null, widened: false });
    expect((await w.timeline({ anchorId: 9, before: 2 })).value).toEqual([{ id: 2 }]);
    expect((await w.getObservations([3])).value).toEqual([{ id: 3 }]);
    expect((await w.save({ text: 'm' })).value).toEqual({ id: 4 });
    expect((await w.context({ project: 'p', maxTokens: 100 })).value.text).toBe('t');
    expect(seen).toEqual([
      'GET /api/search?q=a+b&project=p&limit=3 signed ',
      'GET /api/timeline?anchor=9&before=2 signed ',
      'POST /api/observations/batch signed {"ids":[3]}',
      'POST /api/memory signed {"text":"m"}',
      'GET /api/context?project=p&maxTokens=100 signed ',
    ]);
  });

  it('never relays what a process without the token answers on the recorded port (a stale worker.json)', async () => {
    const paths = await fakeWorker((req) => (req.url!.startsWith('/api/search') ? [200, { results: [{ id: 666 }] }] : [400, { error: { code: 'x', message: 'forged' } }]), false);
    const w = new WorkerReader(paths);
    await expect(w.search({ query: 'x' })).rejects.toBeInstanceOf(WorkerUnavailableError);
    await expect(w.save({ text: 'm' })).rejects.toBeInstanceOf(WorkerUnavailableError);
  });

  it('400 is the caller\'s mistake; 401, 5xx, timeouts and no worker are the worker being unavailable', async () => {
    let status = 400;
    const paths = await fakeWorker(() => (status === 0 ? undefined : [status, { error: { code: 'x', message: `status ${status}` } }]));
    const w = new WorkerReader(paths, 300);
    await expect(w.search({ query: 'x' })).rejects.toThrow(new RequestRejectedError('status 400'));
    for (status of [401, 404, 500, 0]) await expect(w.search({ query: 'x' })).rejects.toBeInstanceOf(WorkerUnavailableError);
    await expect(new WorkerReader(dataPaths(tempDir('empty'))).search({ query: 'x' })).rejects.toThrow(/no worker recorded/);
  });
});
