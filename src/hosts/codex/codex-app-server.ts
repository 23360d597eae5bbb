/**
 * A minimal client for `codex app-server`: JSON-RPC messages, one JSON object per line, over the
 * child's stdin/stdout (requests carry `id` and `method`; answers carry `id` and `result` or
 * `error`; notifications have no `id`). Only what trusting hooks needs.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Env } from '../../shared/paths.js';

class AppServerError extends Error {}

/** `codex` on the PATH of `env` (the same lookup a shell does), or undefined. */
export function findOnPath(name: string, env: Env): string | undefined {
  const exts = process.platform === 'win32' ? ['.cmd', '.exe', ''] : [''];
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const p = join(dir, name + ext);
      try {
        accessSync(p, constants.X_OK);
        return p;
      } catch {
        // Not here.
      }
    }
  }
  return undefined;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
}

export class AppServerClient {
  private child: ChildProcessWithoutNullStreams;
  private buf = '';
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private stderr = '';
  private exited: Error | undefined;

  constructor(bin: string, env: Env, cwd: string) {
    this.child = spawn(bin, ['app-server'], { env: env as NodeJS.ProcessEnv, cwd, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (d: string) => this.onData(d));
    this.child.stderr.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-4000)));
    this.child.stdin.on('error', () => {}); // a dead server surfaces through 'exit'
    const fail = (e: Error) => {
      this.exited = e;
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    };
    this.child.on('error', (e) => fail(new AppServerError(`could not run ${bin} app-server: ${e.message}`)));
    this.child.on('exit', (code, signal) => fail(new AppServerError(`codex app-server exited (${signal ?? code})${this.lastStderr()}`)));
  }

  private lastStderr(): string {
    // eslint-disable-next-line no-control-regex
    const line = this.stderr.replace(/\x1b\[[0-9;]*m/g, '').trim().split('\n').filter((l) => /error/i.test(l)).pop();
    return line ? `: ${line.slice(0, 300)}` : '';
  }

  private onData(d: string): void {
    this.buf += d;
    for (let i = this.buf.indexOf('\n'); i >= 0; i = this.buf.indexOf('\n')) {
      const line = this.buf.slice(0, i).trim();
      this.buf = this.buf.slice(i + 1);
      if (!line) continue;
      let msg: { id?: number | string; method?: string; result?: unknown; error?: { message?: string; code?: number } };
      try {
        msg = JSON.parse(line);
      } catch {
        continue; // not protocol output
      }
      if (msg.method !== undefined && msg.id !== undefined) {
        // A request from the server (e.g. an approval): we never have anything to approve.
        this.send({ id: msg.id, error: { code: -32601, message: 'not supported by this client' } });
        continue;
      }
      if (msg.id === undefined) continue; // notification
      const p = this.pending.get(Number(msg.id));
      if (!p) continue;
      this.pending.delete(Number(msg.id));
      if (msg.error) p.reject(new AppServerError(`${msg.error.message ?? 'error'} (code ${msg.error.code ?? '?'})`));
      else p.resolve(msg.result);
    }
  }

  private send(msg: unknown): void {
    this.child.stdin.write(`${JSON.stringify(msg)}\n`);
  }

  request<T>(method: string, params: unknown, timeoutMs: number): Promise<T> {
    if (this.exited) return Promise.reject(this.exited);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new AppServerError(`codex app-server did not answer ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (v) => { clearTimeout(timer); resolve(v as T); },
        reject: (e) => { clearTimeout(timer); reject(e); },
      });
      this.send({ id, method, params });
    });
  }

  notify(method: string): void {
    this.send({ method });
  }

  /** Closes stdin (the server exits on EOF) and kills it if it lingers. */
  async close(graceMs = 1500): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((r) => this.child.once('exit', () => r()));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    timer.unref();
    await gone;
    clearTimeout(timer);
  }
}
