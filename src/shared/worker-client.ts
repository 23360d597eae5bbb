/**
 * A small HTTP client for the worker, used by the hook, the MCP server, the CLI and doctor.
 * node:http only (the hook bundle imports it). Every call has a deadline and never throws
 * past `tryRequest`.
 */
import { readFileSync } from 'node:fs';
import { dataPaths, type DataPaths } from './paths.js';

export interface WorkerInfo {
  pid: number;
  port: number;
  version: string;
  startedAt: string;
  dataDir: string;
  /** Random per start; /api/health returns it, proving the process at the port is this worker. */
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

export interface WorkerResponse<T = unknown> {
  status: number;
  body: T;
}

export interface RequestOptions {
  port: number;
  token?: string;
  method?: 'GET' | 'POST';
  path: string;
  body?: unknown;
  timeoutMs: number;
}

/** One request to the worker on 127.0.0.1. Rejects on network error, timeout or non-JSON. */
export async function workerRequest<T = unknown>(opts: RequestOptions): Promise<WorkerResponse<T>> {
  // Loaded on first use: the hook imports this module but talks to the worker over a plain socket.
  const { request: httpRequest } = await import('node:http');
  return new Promise((resolve, reject) => {
    const payload = opts.body === undefined ? undefined : Buffer.from(JSON.stringify(opts.body));
    const headers: Record<string, string | number> = { host: `127.0.0.1:${opts.port}`, accept: 'application/json' };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    if (payload) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = payload.length;
    }
    const req = httpRequest(
      { host: '127.0.0.1', port: opts.port, method: opts.method ?? (payload ? 'POST' : 'GET'), path: opts.path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, body: (text ? JSON.parse(text) : null) as T });
          } catch {
            reject(new Error(`worker answered ${res.statusCode} with non-JSON`));
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

/** Connection details from the data directory, or undefined when no worker is recorded. */
export function workerEndpoint(paths: DataPaths = dataPaths()): { port: number; token: string; info: WorkerInfo } | undefined {
  const info = readWorkerInfo(paths);
  const token = readToken(paths);
  if (!info || !token) return undefined;
  return { port: info.port, token, info };
}

/** The body of every worker error: `{ error: { code, message } }` (`issues` on validation errors). */
export interface WorkerError {
  code: string;
  message: string;
  issues?: { path: string; message: string }[];
}

/** The error of a worker answer, when it is one. */
export function workerError(body: unknown): WorkerError | undefined {
  const e = (body as { error?: unknown } | null)?.error as Partial<WorkerError> | undefined;
  return e && typeof e === 'object' && typeof e.code === 'string' && typeof e.message === 'string' ? (e as WorkerError) : undefined;
}
