// A test process that ends without tearing its cluster down (exits, is signalled, is killed
// outright) leaves no postmaster behind.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { beforeAll, expect, it } from 'vitest';
import { describePostgres, PgCluster } from '../helpers/postgres.js';
import { isRunning } from '../helpers/postgres-guard.js';
import { tempDir, REPO_ROOT } from '../helpers/temp.js';

let childScript: string;

interface Started {
  child: ChildProcess;
  baseDir: string;
  pid: number;
}

/** Runs the child until its cluster is up. */
async function startChild(mode: 'exit' | 'wait'): Promise<Started> {
  const child = spawn(process.execPath, [childScript, mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const { baseDir, pid } = JSON.parse(line) as { baseDir: string; pid: number };
  expect(isRunning(pid)).toBe(true);
  return { child, baseDir, pid };
}

const exited = (child: ChildProcess) => new Promise<{ code: number | null; signal: string | null }>((resolve) => {
  if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
  else child.once('exit', (code, signal) => resolve({ code, signal }));
});

async function gone(pid: number): Promise<boolean> {
  for (let waited = 0; waited < 10_000 && isRunning(pid); waited += 100) await new Promise((r) => setTimeout(r, 100));
  return !isRunning(pid);
}

describePostgres('PostgreSQL test server teardown when the test process ends early', () => {
  beforeAll(async () => {
    childScript = join(tempDir('pg-child'), 'child.cjs');
    await build({
      entryPoints: [join(REPO_ROOT, 'test/infra/support/postgres-child.ts')],
      bundle: true, platform: 'node', format: 'cjs', outfile: childScript, external: ['pg-native'], logLevel: 'error',
    });
  });

  it('process.exit with a cluster up: the exit guard shuts it down and removes it', async () => {
    const { child, baseDir, pid } = await startChild('exit');
    expect(await exited(child)).toEqual({ code: 3, signal: null });
    expect(await gone(pid)).toBe(true);
    expect(existsSync(baseDir)).toBe(false);
  });

  it('SIGTERM with a cluster up: shut down, and the process still dies of the signal', async () => {
    const { child, baseDir, pid } = await startChild('wait');
    child.kill('SIGTERM');
    expect(await exited(child)).toEqual({ code: null, signal: 'SIGTERM' });
    expect(await gone(pid)).toBe(true);
    expect(existsSync(baseDir)).toBe(false);
  });

  it('SIGKILL (no handler runs): the next cluster started shuts the orphan down', async () => {
    const { child, baseDir, pid } = await startChild('wait');
    child.kill('SIGKILL');
    await exited(child);
    expect(isRunning(pid)).toBe(true);
    const next = await PgCluster.start();
    expect(await gone(pid)).toBe(true);
    expect(existsSync(baseDir)).toBe(false);
    await next.destroy();
  });
});
