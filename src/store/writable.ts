/**
 * Can this process write the database? SQLite needs the file, its write-ahead log (-wal), its
 * shared-memory index (-shm) and the directory (to create those two). When one of them is
 * read-only SQLite falls back to reading, and every write then fails with "attempt to write a
 * readonly database" without saying which file is to blame; this names it. SQLite creates -wal and
 * -shm with the database's own mode, so a database that was read-only once leaves read-only
 * companions behind after its own mode is fixed.
 */
import { accessSync, constants, lstatSync } from 'node:fs';
import { dirname } from 'node:path';

export interface WriteProblem {
  path: string;
  /** What the file is to SQLite. */
  role: 'database' | 'write-ahead log' | 'shared-memory index' | 'directory' | 'loss record';
  /** errno of the write-access check: EACCES, EPERM, EROFS. */
  code: string;
  mode: number;
  uid: number;
}

export const companionFiles = (dbPath: string) => [`${dbPath}-wal`, `${dbPath}-shm`];

/** The files of the database this process cannot write (missing ones are created by SQLite). */
export function databaseWriteProblems(dbPath: string): WriteProblem[] {
  const out: WriteProblem[] = [];
  const look = (path: string, role: WriteProblem['role']) => {
    let st;
    try {
      st = lstatSync(path);
    } catch {
      return;
    }
    try {
      accessSync(path, constants.W_OK);
    } catch (err) {
      out.push({ path, role, code: (err as NodeJS.ErrnoException).code ?? 'EACCES', mode: st.mode & 0o7777, uid: st.uid });
    }
  };
  look(dirname(dbPath), 'directory');
  look(dbPath, 'database');
  const [wal, shm] = companionFiles(dbPath);
  look(wal, 'write-ahead log');
  look(shm, 'shared-memory index');
  return out;
}

/** "…/claude-mem.db-shm (shared-memory index, mode 0400, owner uid 1000: EACCES)" */
export function describeWriteProblem(p: WriteProblem): string {
  const why = p.code === 'EROFS' ? 'on a read-only file system' : `mode 0${(p.mode & 0o777).toString(8)}, owner uid ${p.uid}`;
  return `${p.path} (${p.role}, ${why}: ${p.code})`;
}
