/** File I/O for the engine: exact reads, atomic writes that keep the file's mode, one-time backups. */
import { createHash, randomBytes } from 'node:crypto';
import {
  chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, realpathSync, renameSync, rmdirSync,
  statSync, unlinkSync, writeSync,
} from 'node:fs';
import { open, chmod, mkdir, realpath, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ConfigParseError } from './errors.js';

export function sha256(data: string | Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

export interface FileState {
  exists: boolean;
  text: string | null;
  mode?: number;
}

/** Reads a file as UTF-8, refusing bytes that would not survive a decode/encode round trip. */
export function readState(path: string): FileState {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { exists: false, text: null };
    throw e;
  }
  const text = buf.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(buf)) {
    throw new ConfigParseError(path, 1, 1, 'not valid UTF-8 text', `Convert ${path} to UTF-8 (or remove it), then run the command again.`);
  }
  return { exists: true, text, mode: statSync(path).mode & 0o7777 };
}

/** Directories `mkdir -p` would create for `dir`, outermost first. */
export function missingDirs(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; !existsSync(d); d = dirname(d)) {
    out.unshift(d);
    if (dirname(d) === d) break;
  }
  return out;
}

/**
 * Temp file in the same directory, fsync, rename: a crash leaves the old file or the new one.
 * Writes through symlinks (dotfile managers link config files) and keeps the existing mode.
 * `durable: false` skips the fsync where a lost write is harmless (each costs ~5 ms on slow disks).
 */
export function writeAtomic(path: string, text: string, mode?: number, durable = true): void {
  const target = existsSync(path) ? realpathSync(path) : path;
  mkdirSync(dirname(target), { recursive: true });
  const keep = existsSync(target) ? statSync(target).mode & 0o7777 : undefined;
  const finalMode = mode ?? keep ?? 0o644;
  const tmp = join(dirname(target), `.${basename(target)}.claude-mem-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    writeSync(fd, text, 0, 'utf8');
    if (durable) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    chmodSync(tmp, finalMode);
    renameSync(tmp, target);
  } catch (e) {
    try { unlinkSync(tmp); } catch { /* already gone */ }
    throw e;
  }
}

/** `writeAtomic` for the install path: several files can be in flight, so their fsyncs overlap. */
export async function writeAtomicAsync(path: string, text: string, mode?: number): Promise<void> {
  const target = await realpath(path).catch(() => path);
  await mkdir(dirname(target), { recursive: true });
  const keep = await stat(target).then((s) => s.mode & 0o7777, () => undefined);
  const tmp = join(dirname(target), `.${basename(target)}.claude-mem-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  const fh = await open(tmp, 'wx', 0o600);
  try {
    await fh.writeFile(text, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await chmod(tmp, mode ?? keep ?? 0o644);
    await rename(tmp, target);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}

export function removeFile(path: string): void {
  try {
    unlinkSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
}

/** Removes directories we created, deepest first, stopping at the first one that is not empty. */
export function removeEmptyDirs(dirs: readonly string[]): void {
  for (const d of [...dirs].reverse()) {
    try {
      rmdirSync(d);
    } catch {
      return;
    }
  }
}

/** Backup name: readable tail of the path, a hash of the full path, and a hash of the content. */
function backupName(path: string, text: string): string {
  const tail = path.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^_+/, '').slice(-80);
  return `${tail}.${sha256(path).slice(0, 8)}.${sha256(text).slice(0, 12)}.bak`;
}

/**
 * Writes a 0600 backup of `text` unless one with the same content already exists; returns its path.
 * Not fsynced: it is a safety copy, and uninstall finds our entries again instead of restoring it.
 */
export function backup(backupsDir: string, path: string, text: string): string {
  const file = join(backupsDir, backupName(path, text));
  if (!existsSync(file)) {
    mkdirSync(backupsDir, { recursive: true, mode: 0o700 });
    writeAtomic(file, text, 0o600, false);
  }
  return file;
}
