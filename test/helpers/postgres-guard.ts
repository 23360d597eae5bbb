/**
 * No test leaves a postmaster behind. Clusters are stopped by their test file's hooks; this is
 * what catches the rest:
 *   - the process exiting, or being told to by a signal, with clusters still up: each postmaster
 *     gets an immediate shutdown (SIGQUIT) and its directory is removed, synchronously;
 *   - a test process killed outright (SIGKILL, no handler runs): the next cluster started on the
 *     machine finds directories whose owner process is gone and shuts their postmaster down.
 * Last resort, by PostgreSQL itself: a postmaster whose data directory was removed shuts down
 * within a minute (it rechecks its postmaster.pid).
 */
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const CLUSTER_DIR_PREFIX = 'cm-pg-';
const OWNER_FILE = 'owner.pid';

export interface GuardedCluster {
  /** The cluster's own directory (data, socket, log). */
  baseDir: string;
  dataDir: string;
}

const live = new Set<GuardedCluster>();
let installed = false;

/** The running postmaster's pid, from its lock file. */
export function postmasterPid(dataDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Running, and not merely a zombie whose exit is not collected yet (Linux /proc). */
export function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/** Only a postgres process serving this data directory (a pid can be reused). */
function isPostmasterOf(pid: number, dataDir: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(dataDir);
  } catch {
    return false;
  }
}

function shutDownNow(cluster: GuardedCluster): void {
  const pid = postmasterPid(cluster.dataDir);
  if (pid !== undefined && isPostmasterOf(pid, cluster.dataDir)) {
    try {
      process.kill(pid, 'SIGQUIT');
    } catch { /* already gone */ }
  }
  rmSync(cluster.baseDir, { recursive: true, force: true });
}

function shutDownAll(): void {
  for (const cluster of live) shutDownNow(cluster);
  live.clear();
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', shutDownAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      shutDownAll();
      process.kill(process.pid, signal);
    });
  }
}

/** Marks a new cluster directory as this process's and watches over it until released. */
export function guard(cluster: GuardedCluster): void {
  install();
  writeFileSync(join(cluster.baseDir, OWNER_FILE), `${process.pid}\n`);
  live.add(cluster);
}

export function release(cluster: GuardedCluster): void {
  live.delete(cluster);
}

/** Shuts down clusters left by test processes that no longer exist. */
export function sweepAbandoned(): void {
  let names: string[];
  try {
    names = readdirSync(tmpdir()).filter((n) => n.startsWith(CLUSTER_DIR_PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const baseDir = join(tmpdir(), name);
    let owner: number;
    try {
      owner = Number(readFileSync(join(baseDir, OWNER_FILE), 'utf8').trim());
    } catch {
      continue; // not fully made yet, or not ours
    }
    if (Number.isInteger(owner) && owner > 0 && !isRunning(owner)) shutDownNow({ baseDir, dataDir: join(baseDir, 'data') });
  }
}
