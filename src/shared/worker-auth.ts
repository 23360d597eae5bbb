/**
 * Proof on both sides of a worker request, without the token ever crossing the wire.
 *
 * worker.json can be stale (the worker died, its pid was reused, another program took its port):
 * whatever answers there must not receive the token, and its "200 OK" must not count as stored.
 * So a client signs each request with the token — HMAC-SHA256 over the worker instance it means
 * (worker.json's instanceId), the port, method, path, its time, a fresh nonce and the body — and
 * the worker signs its answer over that nonce, the status and the body. A process without the
 * token can neither learn it nor forge an answer a client accepts; a captured request is bound
 * to one instance and port, so it cannot be replayed to the real worker elsewhere.
 *
 * Node built-ins only: the hook bundle imports this file.
 */
import { createRequire } from 'node:module';

type NodeCrypto = typeof import('node:crypto');
let loaded: NodeCrypto | undefined;

/**
 * node:crypto on first use: loading it costs a hook about 2 ms, which the spool path (no worker)
 * does not need. __filename in the CommonJS hook bundle, import.meta.url in the ES modules.
 */
function nodeCrypto(): NodeCrypto {
  loaded ??= createRequire(typeof __filename === 'string' ? __filename : import.meta.url)('node:crypto') as NodeCrypto;
  return loaded;
}

/** Request header: `v1 <instanceId> <unix ms> <nonce> <mac>`. */
export const AUTH_HEADER = 'x-claude-mem-auth';
/** Response header: the worker's MAC over the request's nonce, the status and the body. */
export const PROOF_HEADER = 'x-claude-mem-proof';

/** A signed request older or newer than this (same machine, same clock) is refused. */
const MAX_SKEW_MS = 120_000;

export interface WorkerAuth {
  token: string;
  /** The worker instance the client means (worker.json). */
  instanceId: string;
}

/**
 * HMAC-SHA256 over newline-separated fields, then the body. The fields hold no newline (ids, a
 * number, an HTTP path) and the body comes last, so no two messages share an input.
 */
function mac(token: string, fields: (string | number)[], body: Buffer | string | undefined): string {
  const h = nodeCrypto().createHmac('sha256', token).update(`${fields.join('\n')}\n`);
  if (body?.length) h.update(body);
  return h.digest('hex');
}

function requestMac(token: string, instanceId: string, port: number, method: string, path: string, ts: number, nonce: string, body?: Buffer): string {
  return mac(token, ['claude-mem/1 request', instanceId, port, method.toUpperCase(), path, ts, nonce], body);
}

/** The header value for one request, and the nonce its answer must be signed over. */
export function signRequest(auth: WorkerAuth, port: number, method: string, path: string, body?: Buffer, now = Date.now()): { header: string; nonce: string } {
  const nonce = nodeCrypto().randomBytes(16).toString('hex');
  return { header: `v1 ${auth.instanceId} ${now} ${nonce} ${requestMac(auth.token, auth.instanceId, port, method, path, now, nonce, body)}`, nonce };
}

interface ParsedAuth {
  instanceId: string;
  ts: number;
  nonce: string;
  mac: string;
}

export function parseAuthHeader(value: string | undefined): ParsedAuth | undefined {
  const m = /^v1 ([A-Za-z0-9-]{1,64}) (\d{1,16}) ([0-9a-f]{32}) ([0-9a-f]{64})$/.exec(value?.trim() ?? '');
  return m ? { instanceId: m[1], ts: Number(m[2]), nonce: m[3], mac: m[4] } : undefined;
}

const equalHex = (a: string, b: string) => a.length === b.length && nodeCrypto().timingSafeEqual(Buffer.from(a, 'latin1'), Buffer.from(b, 'latin1'));

/** The worker's side: why a signed request is refused, or undefined when it is genuine. */
export function requestProblem(
  expect: WorkerAuth & { port: number },
  req: { method: string; path: string; body?: Buffer },
  auth: ParsedAuth,
  now = Date.now(),
): string | undefined {
  if (auth.instanceId !== expect.instanceId) return `signed for worker instance ${auth.instanceId}, this is ${expect.instanceId} (worker.json is stale)`;
  if (Math.abs(now - auth.ts) > MAX_SKEW_MS) return 'the signature is too old';
  const want = requestMac(expect.token, expect.instanceId, expect.port, req.method, req.path, auth.ts, auth.nonce, req.body);
  return equalHex(want, auth.mac) ? undefined : 'wrong signature (another worker.token?)';
}

export function responseProof(token: string, nonce: string, status: number, body: Buffer | string): string {
  return mac(token, ['claude-mem/1 response', nonce, status], body);
}

/** The client's side: the answer came from a process holding the token, for this very request. */
function verifyResponse(token: string, nonce: string, status: number, body: Buffer, proof: string | undefined): boolean {
  return typeof proof === 'string' && equalHex(responseProof(token, nonce, status, body), proof.trim());
}

/** Raised when something answers a signed request with a success it cannot prove. */
export class UnprovenAnswerError extends Error {
  readonly code = 'unproven_answer';
  constructor(port: number, readonly status: number) {
    super(`127.0.0.1:${port} answered HTTP ${status} without a valid claude-mem proof: not our worker (stale worker.json?)`);
  }
}

/**
 * What a client does with an answer: a proof that does not verify is never accepted, and a
 * success (2xx) must carry one. An unproven error status is returned as is: it only ever makes
 * the caller keep its data, never lose it.
 */
export function checkAnswer(auth: WorkerAuth, nonce: string, port: number, status: number, body: Buffer, proof: string | undefined): boolean {
  const verified = verifyResponse(auth.token, nonce, status, body, proof);
  if (!verified && (proof !== undefined || (status >= 200 && status < 300))) throw new UnprovenAnswerError(port, status);
  return verified;
}
