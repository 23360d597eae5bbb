/**
 * The PostgreSQL server binaries the tests run (Debian's packages, major version 15 or later),
 * and how their commands are run.
 *
 * PostgreSQL refuses to run as root (initdb, pg_ctl and postgres all check). When the tests run as
 * root, as they do in CI containers, the server's commands run as the unprivileged `nobody` user:
 * it exists on every Debian system, so nothing has to be created on the machine, and spawn's
 * uid/gid options switch to it (dropping root's supplementary groups too) without sudo, runuser
 * or a PAM session. The cluster's directory is owned by that user.
 */
import { execFileSync, spawn } from 'node:child_process';
import { accessSync, constants, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const MIN_POSTGRES_MAJOR = 15;

export interface PostgresBin {
  dir: string;
  /** e.g. "15.18" */
  version: string;
  major: number;
}

const NOT_FOUND_HELP = 'The sync tests run a real PostgreSQL server: run .ci/run (it installs one), or '
  + '`apt-get install postgresql`, or set PG_BIN to the directory holding initdb, pg_ctl and postgres. '
  + 'To skip these tests locally only, set CLAUDE_MEM_SKIP_POSTGRES=1.';

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The server in `dir`, or why it does not qualify. */
function inspect(dir: string): PostgresBin | string {
  for (const tool of ['initdb', 'pg_ctl', 'postgres']) {
    if (!isExecutable(join(dir, tool))) return `${dir}: no ${tool}`;
  }
  const out = execFileSync(join(dir, 'postgres'), ['--version'], { encoding: 'utf8' });
  const m = /\(PostgreSQL\) (\d+)(?:\.(\d+))?/.exec(out);
  if (!m) return `${dir}: unrecognised version "${out.trim()}"`;
  const major = Number(m[1]);
  if (major < MIN_POSTGRES_MAJOR) return `${dir}: PostgreSQL ${major} (${MIN_POSTGRES_MAJOR} or later needed)`;
  return { dir, version: m[2] === undefined ? m[1]! : `${m[1]}.${m[2]}`, major };
}

function pgConfigBindir(): string | undefined {
  try {
    return execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Debian's versioned server directories, newest first. */
function debianBindirs(): string[] {
  let versions: string[];
  try {
    versions = readdirSync('/usr/lib/postgresql');
  } catch {
    return [];
  }
  return versions.filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a))
    .map((v) => `/usr/lib/postgresql/${v}/bin`);
}

/** PG_BIN when set (and then only it), else `pg_config --bindir`, else the newest of Debian's. */
export function findPostgresBin(): PostgresBin {
  const candidates = process.env.PG_BIN ? [process.env.PG_BIN] : [pgConfigBindir(), ...debianBindirs()];
  const rejected: string[] = [];
  for (const dir of candidates) {
    if (!dir) continue;
    const found = inspect(dir);
    if (typeof found !== 'string') return found;
    rejected.push(found);
  }
  const looked = rejected.length ? ` (${rejected.join('; ')})` : ' (no pg_config, nothing in /usr/lib/postgresql)';
  throw new Error(`PostgreSQL server ${MIN_POSTGRES_MAJOR}+ not found${looked}. ${NOT_FOUND_HELP}`);
}

export interface ServerUser {
  uid: number;
  gid: number;
}

/** Who runs the server: this process's user, or `nobody` when that is root. */
export function serverUser(): ServerUser | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export interface RunResult {
  code: number | null;
  output: string;
}

/**
 * Runs one of the server's commands as the server user with a minimal environment (nothing of the
 * tests' HOME, no PG* variables from the machine), stdout and stderr together.
 */
export function runServerCommand(bin: PostgresBin, tool: string, args: string[], user: ServerUser | undefined,
  timeoutMs = 90_000): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(join(bin.dir, tool), args, {
      cwd: '/', // the server user may not be able to enter the tests' working directory
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C', TZ: 'UTC' },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(user ?? {}),
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
