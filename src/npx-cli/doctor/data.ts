/** Data directory: permissions of the private files, free disk. */
import { existsSync, statSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DataPaths } from '../../shared/paths.js';
import type { Check } from './types.js';

interface ModeProblem {
  path: string;
  mode: number;
  want: number;
  why: string;
  severity: 'warn' | 'fail';
}

const octal = (m: number) => `0${(m & 0o777).toString(8)}`;

/** The directory is 0700; the token is readable by us alone; the other files are writable by us alone. */
export function modeProblems(paths: DataPaths): ModeProblem[] {
  const out: ModeProblem[] = [];
  const uid = process.getuid?.();
  const look = (path: string, dir: boolean, forbidRead: boolean): void => {
    let st;
    try {
      st = statSync(path);
    } catch {
      return; // missing files are reported by the checks that need them
    }
    const m = st.mode & 0o777;
    if (uid !== undefined && st.uid !== uid) out.push({ path, mode: m, want: m, why: `owned by uid ${st.uid}, not ${uid}`, severity: 'fail' });
    if (dir) {
      if (m & 0o077) out.push({ path, mode: m, want: 0o700, why: 'other users can enter it', severity: 'fail' });
    } else if (m & 0o022) {
      out.push({ path, mode: m, want: 0o600, why: 'other users can write it', severity: 'fail' });
    } else if (forbidRead && m & 0o044) {
      out.push({ path, mode: m, want: 0o600, why: 'other users can read it', severity: 'fail' });
    } else if (m & 0o044) {
      out.push({ path, mode: m, want: 0o600, why: 'other users can read it', severity: 'warn' });
    }
  };
  look(paths.root, true, false);
  look(paths.token, false, true);
  for (const p of [paths.settings, paths.manifest, paths.db, `${paths.db}-wal`, `${paths.db}-shm`]) look(p, false, false);
  return out;
}

export function permissionsCheck(paths: DataPaths): Check {
  const problems = modeProblems(paths);
  const id = 'data.permissions';
  if (problems.length === 0) return { id, area: 'data', status: 'ok', evidence: `${paths.root} is 0700; token, settings, manifest and database are private` };
  const fail = problems.some((p) => p.severity === 'fail');
  const chmods = problems.filter((p) => p.want !== p.mode).map((p) => `chmod ${octal(p.want)} '${p.path}'`);
  return {
    id, area: 'data', status: fail ? 'fail' : 'warn',
    evidence: problems.map((p) => `${p.path} is ${octal(p.mode)}: ${p.why}`).join('; '),
    fix: chmods.length ? `claude-mem doctor --fix (or: ${chmods.join(' && ')})` : `Give these files back to your user: chown $(id -u) '${problems[0].path}'`,
  };
}

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/** Free bytes on the disk that holds (or will hold) the data directory; undefined when unknown. */
export function freeBytes(paths: DataPaths): number | undefined {
  let dir = paths.root;
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir); // not created yet: the disk it will be on
  try {
    const s = statfsSync(dir);
    return s.bavail * s.bsize;
  } catch {
    return undefined;
  }
}

export const sizeText = (bytes: number) => (bytes >= GIB ? `${(bytes / GIB).toFixed(1)} GiB` : `${Math.round(bytes / MIB)} MiB`);

/** Below this, captures will soon fail: SQLite and the spool need room for whole pages and files. */
const FULL_DISK_BYTES = 100 * MIB;

export function diskCheck(paths: DataPaths): Check {
  const id = 'data.disk';
  const free = freeBytes(paths);
  if (free === undefined) return { id, area: 'data', status: 'warn', evidence: `free space of ${paths.root} unknown` };
  const text = sizeText(free);
  if (free < FULL_DISK_BYTES) return { id, area: 'data', status: 'fail', evidence: `${text} free on the disk of ${paths.root}: captures will fail to store`, fix: 'Free disk space (at least 1 GiB).' };
  if (free < GIB) return { id, area: 'data', status: 'warn', evidence: `only ${text} free on the disk of ${paths.root}`, fix: 'Free disk space (at least 1 GiB).' };
  return { id, area: 'data', status: 'ok', evidence: `${text} free on the disk of ${paths.root}` };
}
