/** Running the built hook and worker as real processes, the way hosts and users do. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DIST_BIN, REPO_ROOT } from '../helpers/temp.js';

/** Environment markers of other hosts: a test run from inside an agent must not look like that agent calling. */
const HOST_MARKER_RE = /^(CLAUDECODE|CLAUDE_CODE_|CLAUDE_PROJECT_DIR|CLAUDE_ENV_FILE|GROK_|COPILOT_|CURSOR_|GEMINI_|CODEX_|KIMI_)/;

/** A test environment for spawned hooks: tempHome()'s env without host markers or debugging. */
export function hookEnv(base: NodeJS.ProcessEnv, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) if (!HOST_MARKER_RE.test(k) && k !== 'CLAUDE_MEM_DEBUG') env[k] = v;
  return { ...env, ...extra };
}

/** Makes hooks unable to start a worker, so what they spool stays in the spool until a test starts one. */
export const NO_AUTOSTART = { CLAUDE_MEM_WORKER_ENTRY: '/nonexistent/claude-mem-worker.js' };

export interface HookRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface HookOptions {
  env: NodeJS.ProcessEnv;
  args: string[];
  /** Text to pipe; `null` = stdin is /dev/null; `'keep-open'` = a pipe that is never written or closed. */
  stdin: string | null | 'keep-open';
  cwd?: string;
  timeoutMs?: number;
  /** Run this instead of `node dist/bin.js <args>`. */
  command?: string[];
}

/** Spawns `node dist/bin.js <args>` asynchronously (the test process may be serving HTTP meanwhile). */
export function runBin(opts: HookOptions): Promise<HookRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const [cmd, ...argv] = opts.command ?? [process.execPath, DIST_BIN, ...opts.args];
    const child = spawn(cmd, argv, {
      env: opts.env,
      cwd: opts.cwd ?? REPO_ROOT,
      stdio: [opts.stdin === null ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - started });
    });
    if (child.stdin) {
      child.stdin.on('error', () => {});
      if (typeof opts.stdin === 'string' && opts.stdin !== 'keep-open') child.stdin.end(opts.stdin);
    }
    // 'keep-open': the pipe stays open until the child exits.
  });
}

export const runHook = (env: NodeJS.ProcessEnv, host: string, event: string, stdin: HookOptions['stdin'], cwd?: string) =>
  runBin({ env, args: ['hook', host, event], stdin, cwd });

/** `claude-mem start` (waits until healthy). */
export function startWorker(env: NodeJS.ProcessEnv): void {
  const r = spawnSync(process.execPath, [DIST_BIN, 'start'], { env, encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) throw new Error(`claude-mem start failed (${r.status}): ${r.stdout}${r.stderr}`);
}

export function stopWorker(env: NodeJS.ProcessEnv): void {
  spawnSync(process.execPath, [DIST_BIN, 'stop'], { env, stdio: 'ignore', timeout: 30_000 });
}

export function workerInfo(dataDir: string): { pid: number; port: number } | undefined {
  try {
    return JSON.parse(readFileSync(join(dataDir, 'worker.json'), 'utf8')) as { pid: number; port: number };
  } catch {
    return undefined;
  }
}

/**
 * Stops every worker a test may have caused (hooks start one when none runs): waits for a start in
 * progress to finish, then stops it. Tests must not leave processes behind.
 */
export async function cleanupWorker(env: NodeJS.ProcessEnv, dataDir: string): Promise<void> {
  await waitFor(() => !existsSync(join(dataDir, 'worker.start.lock')), 10_000).catch(() => undefined);
  stopWorker(env);
  const info = workerInfo(dataDir);
  if (info) {
    try {
      process.kill(info.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

export async function waitFor<T>(fn: () => T | undefined | false | null, timeoutMs: number, intervalMs = 50): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** Reads the database the way an outside observer would (WAL reader, read-only). */
export function queryDb<T>(dataDir: string, fn: (db: Database.Database) => T): T {
  const db = new Database(join(dataDir, 'claude-mem.db'), { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    return fn(db);
  } finally {
    db.close();
  }
}

export function countRows(dataDir: string, sql: string, ...params: unknown[]): number {
  try {
    return queryDb(dataDir, (db) => (db.prepare(sql).get(...params) as { n: number }).n);
  } catch {
    return -1;
  }
}

/** Builds dist/ unless it is there. A colleague's half-written file may break a build briefly: retry. */
export function ensureBuilt(): void {
  if (existsSync(join(REPO_ROOT, 'dist', 'hook.js')) && existsSync(join(REPO_ROOT, 'dist', 'worker.js')) && existsSync(DIST_BIN)) return;
  let last = '';
  for (let i = 0; i < 5; i++) {
    const r = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 120_000 });
    if (r.status === 0) return;
    last = `${r.stdout}${r.stderr}`;
    spawnSync('sleep', ['2']);
  }
  throw new Error(`npm run build failed: ${last.slice(-2000)}`);
}

export const FIXTURE_DIR = join(REPO_ROOT, 'test', 'fixtures', 'hosts', 'claude-code', 'hooks');

/** A Claude Code fixture payload with its session, cwd and ids replaced. */
export function claudePayload(file: string, patch: Record<string, unknown>): Record<string, unknown> {
  const p = JSON.parse(readFileSync(join(FIXTURE_DIR, file), 'utf8')) as Record<string, unknown>;
  delete p.transcript_path;
  return { ...p, ...patch };
}
