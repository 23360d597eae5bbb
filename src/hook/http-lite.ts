/**
 * One HTTP/1.1 request to the worker over a plain socket. The hook makes one or two requests per
 * run; node:http's client machinery costs more to set up than the round trip itself (measured:
 * a first POST from a fresh process took ~19 ms with http.request against ~11 ms this way).
 * Enough of HTTP for our own worker: Content-Length or chunked bodies, Connection: close.
 */
import { connect } from 'node:net';
import { AUTH_HEADER, checkAnswer, PROOF_HEADER, signRequest, type WorkerAuth } from '../shared/worker-auth.js';

interface LiteResponse {
  status: number;
  /** Parsed JSON, or undefined when the body is empty or not JSON. */
  body: unknown;
  /** The answer carries the worker's proof (always true for a 2xx of a signed request). */
  verified: boolean;
}

interface LiteRequest {
  port: number;
  /** Signs the request; a success without the worker's proof is then an error (see worker-auth.ts). */
  auth?: WorkerAuth;
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  timeoutMs: number;
}

/** Our answers are small (an ack, a context text); anything bigger is not our worker. */
const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/** Decodes a chunked body; undefined while incomplete. */
function unchunk(buf: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let pos = 0;
  for (;;) {
    const eol = buf.indexOf('\r\n', pos);
    if (eol < 0) return undefined;
    const size = parseInt(buf.toString('latin1', pos, eol), 16);
    if (!Number.isFinite(size)) throw new Error('bad chunk size');
    if (size === 0) return Buffer.concat(parts);
    const start = eol + 2;
    if (buf.length < start + size + 2) return undefined;
    parts.push(buf.subarray(start, start + size));
    pos = start + size + 2;
  }
}

interface RawResponse {
  status: number;
  raw: Buffer;
  header(name: string): string | undefined;
}

/** Status and body once complete; undefined while more bytes are needed (or until close when `ended`). */
function parse(buf: Buffer, ended: boolean): RawResponse | undefined {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) {
    if (ended) throw new Error('connection closed before a complete response');
    return undefined;
  }
  const head = buf.toString('latin1', 0, headEnd).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head[0])?.[1]);
  if (!status) throw new Error(`not an HTTP response: ${head[0].slice(0, 60)}`);
  const header = (name: string) => head.find((l) => l.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim();
  const rest = buf.subarray(headEnd + 4);
  let raw: Buffer | undefined;
  const length = header('content-length');
  if (length !== undefined) raw = rest.length >= Number(length) ? rest.subarray(0, Number(length)) : undefined;
  else if (/chunked/i.test(header('transfer-encoding') ?? '')) raw = unchunk(rest);
  else raw = ended ? rest : undefined;
  if (!raw) {
    if (ended) throw new Error('connection closed before the end of the body');
    return undefined;
  }
  return { status, raw, header };
}

function toResponse(req: LiteRequest, nonce: string | undefined, r: RawResponse): LiteResponse {
  const verified = !!req.auth && !!nonce && checkAnswer(req.auth, nonce, req.port, r.status, r.raw, r.header(PROOF_HEADER));
  let body: unknown;
  try {
    body = r.raw.length ? JSON.parse(r.raw.toString('utf8')) : undefined;
  } catch {
    body = undefined;
  }
  return { status: r.status, body, verified };
}

/** Rejects on connection errors (err.code kept, e.g. ECONNREFUSED), malformed answers and the deadline. */
export function liteRequest(req: LiteRequest): Promise<LiteResponse> {
  return new Promise((resolve, reject) => {
    const payload = req.body === undefined ? undefined : Buffer.from(JSON.stringify(req.body));
    const lines = [
      `${req.method} ${req.path} HTTP/1.1`,
      `Host: 127.0.0.1:${req.port}`,
      'Accept: application/json',
      'Connection: close',
    ];
    // Signed, never the token itself: whatever listens on a stale port learns nothing from it.
    const signed = req.auth ? signRequest(req.auth, req.port, req.method, req.path, payload) : undefined;
    if (signed) lines.push(`${AUTH_HEADER}: ${signed.header}`);
    if (payload) lines.push('Content-Type: application/json', `Content-Length: ${payload.length}`);
    // Half open: the worker closing the connection does not close ours. Closing a net.Socket sets
    // up process.stderr (node checks `this !== process.stderr`), which costs about as much as the
    // request itself; after a complete answer the socket is unref'd and left to the process exit.
    const socket = connect({ host: '127.0.0.1', port: req.port, allowHalfOpen: true });
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (err: Error | undefined, res?: LiteResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        socket.destroy();
        return reject(err);
      }
      // A complete answer: the socket is left to the end of the process (see connect() above).
      socket.unref();
      resolve(res!);
    };
    const timer = setTimeout(() => settle(new Error(`worker did not answer within ${req.timeoutMs} ms`)), req.timeoutMs);
    const check = (ended: boolean) => {
      try {
        const res = parse(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks), ended);
        if (res) settle(undefined, toResponse(req, signed?.nonce, res));
      } catch (err) {
        settle(err as Error);
      }
    };
    socket.setNoDelay(true);
    // One write, so the request leaves in one segment and the worker reads it in one go.
    const head = Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
    socket.on('connect', () => socket.write(payload ? Buffer.concat([head, payload]) : head));
    socket.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_RESPONSE_BYTES) return settle(new Error('worker response too large'));
      chunks.push(c);
      check(false);
    });
    socket.on('end', () => check(true));
    // A worker that answers early (413) may reset the connection: keep the answer if it came.
    socket.on('error', (err) => {
      if (chunks.length) check(true);
      settle(err);
    });
    socket.on('close', () => check(true));
  });
}
