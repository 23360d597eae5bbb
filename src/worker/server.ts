/**
 * The worker's HTTP server: node:http, keep-alive, 127.0.0.1 only. In order, every request is
 * checked for its Host header (DNS rebinding), its route and method, its credentials (all routes
 * but health), its body size (bounded while reading), its signature and its JSON, then validated
 * by the route. Every error is `{ error: { code, message } }`.
 *
 * Credentials: claude-mem's own clients sign requests (src/shared/worker-auth.ts) and get every
 * answer signed back, so they never send the token and never trust an answer from a process that
 * does not hold it. `Authorization: Bearer <worker.token>` is still accepted for scripts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { PROOF_HEADER, responseProof } from '../shared/worker-auth.js';
import { credentials, unauthorized } from './credentials.js';
import { HttpError, isBusyError, isInvalidInputError, storageFailure } from './routes/errors.js';
import { ROUTES } from './routes/index.js';
import { ROUTES as API } from '../shared/worker-api.js';
import type { Route, RouteContext } from './routes/types.js';
import type { Viewer } from './viewer/index.js';

interface BodyLimits {
  default: number;
  events: number;
}

interface ServerOptions {
  ctx: RouteContext;
  token: string;
  /** This worker's instance (worker.json): signed requests must name it. */
  instanceId: string;
  limits: BodyLimits;
  routes?: readonly Route[];
  /** The viewer page (/viewer): its own sign-in (cookie) and answers, behind the same Host check. */
  viewer?: Viewer;
}

export interface WorkerServer {
  server: Server;
  /** Resolves with the bound port; rejects with the listen error (EADDRINUSE, ...). */
  listen(port: number): Promise<number>;
  port(): number;
  /** Stops accepting, lets in-flight requests finish (at most graceMs), then resolves. */
  close(graceMs?: number): Promise<void>;
}

/** After a 413, this much more is read and thrown away so the client gets to read the answer; past it, the socket is cut. */
const DISCARD_CAP = 64 * 1024 * 1024;
const DISCARD_MS = 5000;

type RouteTable = Map<string, Map<string, Route>>;
type Send = (res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>, nonce?: string) => void;
type SendError = (res: ServerResponse, err: unknown, nonce?: string) => void;

function routeTable(routes: readonly Route[]): RouteTable {
  const table: RouteTable = new Map();
  for (const r of routes) {
    if (!table.has(r.path)) table.set(r.path, new Map());
    table.get(r.path)!.set(r.method, r);
  }
  return table;
}

/** DNS rebinding: a page on another name that resolves to 127.0.0.1 must not reach the worker. */
function hostOk(req: IncomingMessage, port: number): boolean {
  const host = (req.headers.host ?? '').toLowerCase();
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

/** `nonce`: the request was signed and verified, so the answer carries the worker's proof. */
function jsonSender(token: string, isClosing: () => boolean): Send {
  return (res, status, body, headers = {}, nonce) => {
    if (res.headersSent) return;
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
      ...(isClosing() ? { connection: 'close' } : {}),
      ...(nonce ? { [PROOF_HEADER]: responseProof(token, nonce, status, text) } : {}),
      ...headers,
    });
    res.end(text);
  };
}

/** Maps every failure to `{ error: { code, message } }` with the status a client can act on. */
function errorSender(send: Send, ctx: RouteContext): SendError {
  return (res, err, nonce) => {
    const storage = storageFailure(err);
    if (err instanceof HttpError) {
      const error: Record<string, unknown> = { code: err.code, message: err.message };
      if (err.issues) error.issues = err.issues;
      send(res, err.status, { error }, err.headers, nonce);
    } else if (isBusyError(err)) {
      send(res, 503, { error: { code: 'store_busy', message: `the database is busy (${(err as Error).message}); retry shortly` } }, { 'retry-after': '1' }, nonce);
    } else if (storage) {
      // Nothing was committed: the caller keeps what it sent (hooks spool it).
      ctx.storageFailed(err);
      send(res, storage.status, { error: { code: storage.code, message: storage.message } }, { 'retry-after': '5' }, nonce);
    } else if (isInvalidInputError(err)) {
      send(res, 400, { error: { code: 'invalid_body', message: (err as Error).message } }, undefined, nonce);
    } else {
      ctx.logger.error('request failed', { err });
      send(res, 500, { error: { code: 'internal', message: (err as Error)?.message ?? String(err) } }, undefined, nonce);
    }
  };
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'body_too_large', `request body exceeds the limit of ${limit} bytes`, undefined, { connection: 'close' });
}

/** Reads the body, never holding more than `limit` bytes. */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number.isFinite(declared) && declared > limit;
    let discarded = 0;
    const finish = () => {
      if (over) reject(tooLarge(limit));
      else resolve(Buffer.concat(chunks, size));
    };
    let timer: NodeJS.Timeout | undefined;
    // Discarding is bounded in time too: a slow sender is cut off.
    const startDiscard = () => {
      over = true;
      chunks.length = 0;
      timer = setTimeout(() => req.socket.destroy(), DISCARD_MS);
    };
    if (over) startDiscard();
    req.on('data', (c: Buffer) => {
      if (over) {
        discarded += c.length;
        if (discarded > DISCARD_CAP) {
          req.socket.destroy();
        }
        return;
      }
      size += c.length;
      if (size > limit) {
        startDiscard();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      clearTimeout(timer);
      finish();
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.on('close', () => {
      clearTimeout(timer);
      if (!req.complete) reject(over ? tooLarge(limit) : new Error('client closed the request'));
    });
  });
}

function parseJson(req: IncomingMessage, raw: Buffer): unknown {
  const type = req.headers['content-type'];
  if (type && !/\bjson\b/i.test(type)) throw new HttpError(400, 'bad_json', `expected a JSON body, got content-type ${type}`);
  if (!raw.length) throw new HttpError(400, 'bad_json', 'the request body is empty; expected JSON');
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (err) {
    throw new HttpError(400, 'bad_json', `the request body is not valid JSON: ${(err as Error).message}`);
  }
}

/** 404 for an unknown path, 405 (with `allow`) for a known path with another method. */
function findRoute(table: RouteTable, pathname: string, method: string | undefined): Route {
  const byMethod = table.get(pathname);
  if (!byMethod) throw new HttpError(404, 'not_found', `no route ${pathname}`);
  const route = byMethod.get(method ?? '');
  if (!route) {
    const allow = [...byMethod.keys()].join(', ');
    throw new HttpError(405, 'method_not_allowed', `${method} is not allowed on ${pathname} (allowed: ${allow})`, undefined, { allow });
  }
  return route;
}

function bodyLimit(limits: BodyLimits, kind: Route['bodyLimit']): number {
  return kind === 'events' ? limits.events : limits.default;
}

export function createWorkerServer(opts: ServerOptions): WorkerServer {
  const table = routeTable(opts.routes ?? ROUTES);
  const auth = credentials(opts.token, opts.instanceId);
  let boundPort = 0;
  let closing = false;
  const send = jsonSender(opts.token, () => closing);
  const sendError = errorSender(send, opts.ctx);

  /** The route's part of the pipeline: credentials, bounded body, signature, JSON, handler. */
  const serveRoute = async (req: IncomingMessage, res: ServerResponse, url: URL, route: Route, signed: { nonce?: string }) => {
    if (route.auth && !auth.signed(req) && !auth.bearerOk(req)) throw unauthorized('missing credentials: sign the request (x-claude-mem-auth) or send the bearer token (see worker.token)');
    const raw = await readBody(req, bodyLimit(opts.limits, route.bodyLimit));
    const nonce = (signed.nonce = auth.verifySignature(req, raw, boundPort));
    const body = route.method === 'POST' && !route.ignoreBody ? parseJson(req, raw) : undefined;
    const reply = await route.handle({ body, query: url.searchParams, authenticated: route.auth || nonce !== undefined }, opts.ctx);
    const after = route.after;
    if (after) res.once('finish', () => after(opts.ctx));
    send(res, reply.status ?? 200, reply.body, undefined, nonce);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const t0 = performance.now();
    // Filled once the signature is verified, so even an error answer carries the proof.
    const signed: { nonce?: string } = {};
    try {
      if (closing) throw new HttpError(503, 'shutting_down', 'the worker is shutting down');
      if (!hostOk(req, boundPort)) throw new HttpError(403, 'bad_host', `Host must be 127.0.0.1:${boundPort} or localhost:${boundPort}`);
      const url = new URL(req.url ?? '/', `http://127.0.0.1:${boundPort}`);
      if (opts.viewer?.owns(url.pathname)) return await opts.viewer.handle(req, res, url);
      await serveRoute(req, res, url, findRoute(table, url.pathname, req.method), signed);
    } catch (err) {
      sendError(res, err, signed.nonce);
    } finally {
      if (opts.ctx.logger.level === 'debug') {
        opts.ctx.logger.debug('http', { method: req.method, url: req.url?.split('?')[0], status: res.statusCode, ms: Math.round(performance.now() - t0) });
      }
    }
  };

  const server = createServer({ keepAlive: true }, (req, res) => void handle(req, res));
  server.keepAliveTimeout = 5000;
  server.requestTimeout = 60_000;
  server.headersTimeout = 10_000;
  // A client announcing a body over the limit gets the 413 before it sends it.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    const limit = path === API.events ? opts.limits.events : opts.limits.default;
    if (Number(req.headers['content-length'] ?? 0) > limit) return sendError(res, tooLarge(limit));
    res.writeContinue();
    void handle(req, res);
  });

  return {
    server,
    port: () => boundPort,
    listen: (port) => listenOn(server, port).then((p) => (boundPort = p)),
    close: (graceMs = 10_000) => {
      closing = true;
      opts.viewer?.close();
      return closeGracefully(server, graceMs);
    },
  };
}

/** Binds 127.0.0.1 only; resolves with the bound port (0 asks the OS for one). */
function listenOn(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', reject);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : port);
    });
  });
}

/** In-flight requests get `graceMs` to finish; idle keep-alive sockets are closed at once. */
function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolve();
    });
    server.closeIdleConnections();
  });
}
