/**
 * Ingest throughput: one event per request (what a hook sends) against a bare node:http server
 * answering the same requests in the same run, and the batch route in events per second.
 * Every event must be stored exactly once: counted in the database afterwards.
 */
import { createServer, request, Agent, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { CaptureEvent } from '../src/shared/capture-event.js';
import { AUTH_HEADER, signRequest, type WorkerAuth } from '../src/shared/worker-auth.js';
import { benchHome, cli } from './util.js';

interface Target {
  port: number;
  /** Signs each request as claude-mem's clients do (the worker verifies every signature). */
  auth?: WorkerAuth;
}

function post(agent: Agent, t: Target, path: string, body: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {
      host: `127.0.0.1:${t.port}`,
      'content-type': 'application/json',
      'content-length': body.length,
    };
    if (t.auth) headers[AUTH_HEADER] = signRequest(t.auth, t.port, 'POST', path, body).header;
    const req = request({ host: '127.0.0.1', port: t.port, method: 'POST', path, headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

function toolEvent(i: number, session: string): CaptureEvent {
  return {
    host: 'claude-code',
    source: 'hook',
    kind: 'tool_result',
    sessionId: session,
    toolUseId: `toolu_${i}`,
    cwd: '/tmp/bench-project',
    toolName: 'Bash',
    toolInput: { command: `npm test -- --grep case-${i}`, description: 'run tests' },
    toolResponse: { stdout: `ok ${i}\n`.repeat(8), stderr: '', interrupted: false },
    at: new Date(1_700_000_000_000 + i).toISOString(),
  };
}

/** Fires `total` requests from `concurrency` keep-alive clients; returns requests per second. */
async function drive(t: Target, path: string, total: number, concurrency: number, body: (i: number) => Buffer): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  let next = 0;
  let failures = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const status = await post(agent, t, path, body(i));
        if (status !== 200) failures++;
      }
    }),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  agent.destroy();
  if (failures) throw new Error(`${failures} of ${total} requests failed`);
  return total / seconds;
}

/** The baseline: node:http parsing the same JSON body and answering a small JSON object. */
function bareServer(): Promise<{ server: Server; port: number }> {
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { events: unknown[] };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ stored: parsed.events.length, duplicates: 0, rejected: [] }));
      });
    });
    server.keepAliveTimeout = 5000;
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      resolve({ server, port: typeof addr === 'object' && addr ? addr.port : 0 });
    });
  });
}

export interface IngestFigures {
  bareReqPerSec: number;
  workerReqPerSec: number;
  singleEventRatio: number;
  batchEventsPerSec: number;
  expectedRows: number;
  storedRows: number;
}

export async function benchIngest(opts: { singleRequests: number; batches: number; batchSize: number; concurrency: number }): Promise<IngestFigures> {
  const home = benchHome();
  try {
    const start = cli(home.env, ['start']);
    if (start.status !== 0) throw new Error(`worker did not start: ${start.stderr || start.stdout}`);
    const info = JSON.parse(readFileSync(`${home.dataDir}/worker.json`, 'utf8')) as { port: number; instanceId: string };
    const token = readFileSync(`${home.dataDir}/worker.token`, 'utf8').trim();
    const worker: Target = { port: info.port, auth: { token, instanceId: info.instanceId } };

    const single = (session: string) => (i: number) => Buffer.from(JSON.stringify({ events: [toolEvent(i, session)] }));

    // Warm both servers so JIT and SQLite caches are comparable, then alternate the measured runs.
    const bare = await bareServer();
    await drive({ port: bare.port }, '/api/events', 500, opts.concurrency, single('warm'));
    await drive(worker, '/api/events', 500, opts.concurrency, single('warm'));
    const bareRates: number[] = [];
    const workerRates: number[] = [];
    for (let round = 0; round < 3; round++) {
      bareRates.push(await drive({ port: bare.port }, '/api/events', opts.singleRequests, opts.concurrency, single(`bare-${round}`)));
      workerRates.push(await drive(worker, '/api/events', opts.singleRequests, opts.concurrency, single(`single-${round}`)));
    }
    bare.server.close();
    const bareReqPerSec = Math.max(...bareRates);
    const workerReqPerSec = Math.max(...workerRates);

    const batchBody = (i: number) =>
      Buffer.from(JSON.stringify({ events: Array.from({ length: opts.batchSize }, (_, j) => toolEvent(i * opts.batchSize + j, 'batch')) }));
    const batchReqPerSec = await drive(worker, '/api/events', opts.batches, 2, batchBody);

    const stop = cli(home.env, ['stop']);
    if (stop.status !== 0) throw new Error(`worker did not stop: ${stop.stderr}`);
    const db = new Database(`${home.dataDir}/claude-mem.db`, { readonly: true });
    const storedRows = (db.prepare(`SELECT count(*) AS n FROM events WHERE json_extract(payload, '$.sessionId') <> 'warm'`).get() as { n: number }).n;
    db.close();
    return {
      bareReqPerSec,
      workerReqPerSec,
      singleEventRatio: workerReqPerSec / bareReqPerSec,
      batchEventsPerSec: batchReqPerSec * opts.batchSize,
      expectedRows: 3 * opts.singleRequests + opts.batches * opts.batchSize,
      storedRows,
    };
  } finally {
    home.cleanup();
  }
}
