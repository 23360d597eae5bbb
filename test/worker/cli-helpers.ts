/** Running the built CLI against a temporary HOME, and cleaning up every worker it started. */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pidAlive } from '../../src/shared/worker-start.js';
import { DIST_BIN, tempHome } from '../helpers/temp.js';

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export type Home = ReturnType<typeof tempHome>;

const homes: Home[] = [];

/** A fresh HOME + data directory, remembered for cleanup. */
export function newHome(): Home {
  const h = tempHome();
  homes.push(h);
  return h;
}

export function cli(home: Home, args: string[], env: NodeJS.ProcessEnv = {}): Run {
  const r = spawnSync(process.execPath, [DIST_BIN, ...args], { env: { ...home.env, ...env }, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function cliAsync(home: Home, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [DIST_BIN, ...args], { env: { ...home.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

export function workerJson(home: Home): { pid: number; port: number; instanceId: string; dataDir: string; version: string; startedAt: string } {
  return JSON.parse(readFileSync(join(home.dataDir, 'worker.json'), 'utf8'));
}

export function token(home: Home): string {
  return readFileSync(join(home.dataDir, 'worker.token'), 'utf8').trim();
}

/** What claude-mem's clients sign requests with (the recorded instance and the token). */
export function auth(home: Home): { token: string; instanceId: string } {
  return { token: token(home), instanceId: workerJson(home).instanceId };
}

/** Zombies (exited, not yet reaped by init) count as dead. */
export const alive = pidAlive;

export async function waitFor(cond: () => boolean | Promise<boolean>, ms = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Live worker processes of a data directory, found through /proc (not through worker.json). */
export function workerPids(dataDir: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const cmd = readFileSync(`/proc/${name}/cmdline`, 'utf8');
      if (!/worker\.m?js/.test(cmd)) continue;
      const env = readFileSync(`/proc/${name}/environ`, 'utf8').split('\0');
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (/\) Z /.test(stat)) continue; // zombie
      if (env.includes(`CLAUDE_MEM_DATA_DIR=${dataDir}`)) pids.push(Number(name));
    } catch {
      // Gone, or not ours to read.
    }
  }
  return pids;
}

/** Stops every worker the tests started (by pid, found through /proc). */
export async function cleanupWorkers(): Promise<void> {
  for (const h of homes.splice(0)) {
    if (existsSync(join(h.dataDir, 'worker.json'))) cli(h, ['stop']);
    for (const pid of workerPids(h.dataDir)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}

/** An HTTP server in another process (the test process blocks in spawnSync, so it could not answer). */
export async function foreignServer(port = 0): Promise<{ port: number; pid: number; close(): void }> {
  const code = `require('http').createServer((q, s) => s.end('not claude-mem')).listen(${port}, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n'); });`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  const bound = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (c) => resolve(Number(String(c).trim())));
    child.once('exit', () => reject(new Error('foreign server exited')));
  });
  return { port: bound, pid: child.pid!, close: () => child.kill('SIGKILL') };
}
