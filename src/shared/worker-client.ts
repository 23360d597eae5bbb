/**
 * A small HTTP client for the worker, used by the hook, the MCP server, the CLI and doctor.
 * node:http only (the hook bundle imports it). Every call has a deadline and never throws
 * past `tryRequest`.
 */
import { readFileSync } from 'node:fs';
import { dataPaths, type DataPaths } from './paths.js';
import { AUTH_HEADER, checkAnswer, PROOF_HEADER, signRequest, type WorkerAuth } from './worker-auth.js';

export interface WorkerInfo {
  pid: number;
  port: number;
  version: string;
  startedAt: string;
  dataDir: string;
  /** Random per start; every request is signed for it (worker-auth.ts), so only this worker accepts it. */
  instanceId: string;
}

export function readWorkerInfo(paths: DataPaths = dataPaths()): WorkerInfo | undefined {
  try {
    const info = JSON.parse(readFileSync(paths.workerJson, 'utf8')) as WorkerInfo;
    if (typeof info.port === 'number' && typeof info.pid === 'number') return info;
  } catch {
    // Missing or torn: no worker known.
  }
  return undefined;
}

export function readToken(paths: DataPaths = dataPaths()): string | undefined {
  try {
    const t = readFileSync(paths.token, 'utf8').trim();
    return t || undefined;
  } catch {
    return undefined;
  }
}

interface WorkerResponse<T = unknown> {
  status: number;
  body: T;
  /** The answer carries the worker's proof (always true for a 2xx of a signed request). */
  verified: boolean;
}

interface RequestOptions {
  port: number;
  /** Signs the request and checks the answer's proof; the token itself is never sent. */
  auth?: WorkerAuth;
  method?: 'GET' | 'POST';
  path: string;
  body?: unknown;
  timeoutMs: number;
}

/**
 * One request to the worker on 127.0.0.1. Rejects on network error, timeout, non-JSON, and (with
 * `auth`) a success without the worker's proof: an unproven 200 is never taken as stored.
 */
export async function workerRequest<T = unknown>(opts: RequestOptions): Promise<WorkerResponse<T>> {
  // Loaded on first use: the hook imports this module but talks to the worker over a plain socket.
  const { request: httpRequest } = await import('node:http');
  return new Promise((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
    const method = opts.method ?? (payload ? 'POST' : 'GET');
    const headers: Record<string, string | number> = { host: `127.0.0.1:${opts.port}`, accept: 'application/json' };
    const signed = opts.auth ? signRequest(opts.auth, opts.port, method, opts.path, payload) : undefined;
    if (signed) headers[AUTH_HEADER] = signed.header;
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = payload.length;
    }
    const req = httpRequest(
      { host: '127.0.0.1', port: opts.port, method, path: opts.path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          const raw = Buffer.concat(chunks);
          const status = res.statusCode ?? 0;
          try {
            const proof = res.headers[PROOF_HEADER];
            const verified = !!signed && checkAnswer(opts.auth!, signed.nonce, opts.port, status, raw, typeof proof === 'string' ? proof : undefined);
            const text = raw.toString('utf8');
            let body: T;
            try {
              body = (text ? JSON.parse(text) : null) as T;
            } catch {
              throw new Error(`worker answered ${status} with non-JSON`);
            }
            resolve({ status, body, verified });
          } catch (err) {
            reject(err);
          }
        });
        res.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      },
    );
    const timer = setTimeout(() => req.destroy(new Error(`worker did not answer within ${opts.timeoutMs} ms`)), opts.timeoutMs);
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    if (payload) req.write(payload);
    req.end();
  });
}

interface WorkerEndpoint {
  port: number;
  auth: WorkerAuth;
  info: WorkerInfo;
}

/** Connection details from the data directory, or undefined when no worker is recorded. */
export function workerEndpoint(paths: DataPaths = dataPaths()): WorkerEndpoint | undefined {
  const info = readWorkerInfo(paths);
  const token = readToken(paths);
  if (!info || !token || typeof info.instanceId !== 'string') return undefined;
  return { port: info.port, auth: { token, instanceId: info.instanceId }, info };
}

/** The body of every worker error: `{ error: { code, message } }` (`issues` on validation errors). */
interface WorkerError {
  code: string;
  message: string;
  issues?: { path: string; message: string }[];
}

/** The error of a worker answer, when it is one. */
export function workerError(body: unknown): WorkerError | undefined {
  const e = (body as { error?: unknown } | null)?.error as Partial<WorkerError> | undefined;
  return e && typeof e === 'object' && typeof e.code === 'string' && typeof e.message === 'string' ? (e as WorkerError) : undefined;
}
