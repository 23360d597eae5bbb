/**
 * The installed program: a copy under <data>/runtime that hosts run through a launcher whose path
 * never changes (src/shared/runtime-layout.ts, docs/install.md). `npx claude-mem install` runs
 * from npm's cache, which npm empties when it likes; hosts pointed there would fail at every hook.
 *
 * An install with other program files makes a new copy next to the old one, then switches
 * `current` to it in one rename: host configs never change on upgrade. The copy replaced is kept
 * (a hook may be running from it), older ones are removed.
 */
import {
  copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync,
} from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { runtimeLayout, type MissedHook, type RuntimeLayout } from '../../shared/runtime-layout.js';
import { VERSION } from '../../shared/version.js';
import { writeAtomic } from '../engine/fs.js';
import { shQuote } from '../hosts/common/quote.js';
import { runtimeFiles, type RuntimeFile, type RuntimeFiles } from './runtime-files.js';

export interface RuntimeInstall {
  layout: RuntimeLayout;
  /** The copy `current` now points to (its real path). */
  dir: string;
  /** `current` points somewhere else than before (a new copy, an upgrade). */
  switched: boolean;
  /** A new copy was written in this run. */
  copied: boolean;
  /** Hook calls that found no program to run before this install put it back. */
  missed?: MissedSummary;
}

const COMPLETE = '.complete';
const TMP_PREFIX = '.incoming-';

/** True when `dir` is (inside) a copy under this data directory's runtime folder. */
export function isRuntimeCopy(dir: string, layout: RuntimeLayout): boolean {
  const root = existsSync(layout.root) ? realpathSync(layout.root) : layout.root;
  return dir.startsWith(`${root}${sep}`);
}

function place(f: RuntimeFile, to: string, made: Set<string>): void {
  const dir = dirname(to);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  if (f.symlink) return symlinkSync(readlinkSync(f.from), to);
  if (!f.copy) {
    try {
      return linkSync(f.from, to);
    } catch {
      // Another file system, or links not allowed: a plain copy.
    }
  }
  copyFileSync(f.from, to);
}

/** Writes the copy into a private folder, checks it is whole, then moves it into place. */
function writeCopy(layout: RuntimeLayout, id: string, copy: RuntimeFiles): void {
  const tmp = join(layout.root, `${TMP_PREFIX}${id}-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  try {
    const made = new Set<string>();
    for (const f of copy.files) place(f, join(tmp, f.rel), made);
    const missing = [join(copy.selfRel, 'dist', 'bin.js'), ...copy.packages.map((p) => join(p, 'package.json'))].find((p) => !existsSync(join(tmp, p)));
    if (missing) throw new Error(`the copy is incomplete (${missing} is missing)`);
    writeFileSync(join(tmp, COMPLETE), `${VERSION}\n`);
    try {
      renameSync(tmp, join(layout.root, id));
    } catch (e) {
      // Another install put the same copy in place meanwhile: use theirs.
      if (!existsSync(join(layout.root, id, COMPLETE))) throw e;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** Points `current` at `target` (relative, so the data directory can move) in one rename. */
function switchCurrent(layout: RuntimeLayout, target: string): boolean {
  const rel = relative(layout.root, target);
  let before: string | undefined;
  try {
    before = readlinkSync(layout.current);
  } catch {
    // No copy yet.
  }
  if (before === rel) return false;
  const tmp = `${layout.current}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  symlinkSync(rel, tmp, 'junction');
  renameSync(tmp, layout.current);
  return true;
}

/** Keeps the copy in use and the one it replaced; removes older ones and abandoned incoming folders. */
function prune(layout: RuntimeLayout, keep: ReadonlySet<string>): void {
  for (const name of readdirSync(layout.root)) {
    const p = join(layout.root, name);
    if (!lstatSync(p).isDirectory()) continue; // the launcher, `current`, the missed-hooks record
    const ours = name.startsWith(TMP_PREFIX) ? !pidAlive(Number(name.split('-').pop())) : existsSync(join(p, COMPLETE));
    if (ours && !keep.has(name)) rmSync(p, { recursive: true, force: true });
  }
}

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The shell shim people run: the node install used, or any node on PATH when that one is gone. */
function shimText(nodePath: string, launcher: string): string {
  return [
    '#!/bin/sh',
    '# claude-mem, installed by `claude-mem install` (see docs/install.md). It starts the launcher below.',
    `node=${shQuote(nodePath)}`,
    '[ -x "$node" ] || node=node',
    `exec "$node" ${shQuote(launcher)} "$@"`,
    '',
  ].join('\n');
}

function writeIfDifferent(path: string, text: string, mode: number): void {
  let old: string | undefined;
  try {
    old = readFileSync(path, 'utf8');
  } catch {
    // Not there yet.
  }
  if (old !== text) writeAtomic(path, text, mode);
}

/** The copy's folder name: the version, then a digest of the files. */
function copyId(key: string): string {
  return `${VERSION.replace(/[^0-9A-Za-z.+-]/g, '_')}-${key.slice(0, 12)}`;
}

export function installRuntime(dataRoot: string, packageRoot: string, nodePath: string): RuntimeInstall {
  const layout = runtimeLayout(dataRoot);
  mkdirSync(layout.root, { recursive: true, mode: 0o700 });
  let dir: string;
  let copied = false;
  const previous = existsSync(layout.current) ? realpathSync(layout.current) : undefined;
  if (isRuntimeCopy(realpathSync(packageRoot), layout)) {
    dir = realpathSync(packageRoot); // run from the copy itself: nothing to copy
  } else {
    const copy = runtimeFiles(packageRoot);
    const id = copyId(copy.key);
    if (!existsSync(join(layout.root, id, COMPLETE))) {
      writeCopy(layout, id, copy);
      copied = true;
    }
    dir = join(layout.root, id, copy.selfRel);
  }
  const switched = switchCurrent(layout, dir);
  writeIfDifferent(layout.launcher, readFileSync(join(packageRoot, 'dist', 'launcher.cjs'), 'utf8'), 0o644);
  mkdirSync(layout.binDir, { recursive: true, mode: 0o700 });
  writeIfDifferent(layout.shim, shimText(nodePath, layout.launcher), 0o755);
  const topOf = (p: string) => relative(layout.root, p).split(sep)[0];
  prune(layout, new Set([topOf(dir), ...(previous && isRuntimeCopy(previous, layout) ? [topOf(previous)] : [])]));
  const missed = readMissed(layout);
  clearMissed(layout);
  return { layout, dir: realpathSync(layout.current), switched, copied, ...(missed && { missed }) };
}

/** The copy `current` points to, or undefined when there is none (or it is gone). */
export function currentRuntime(layout: RuntimeLayout): string | undefined {
  try {
    return realpathSync(layout.current);
  } catch {
    return undefined;
  }
}

export const runtimeWorkerEntry = (dir: string) => join(dir, 'dist', 'worker.mjs');

interface MissedSummary {
  count: number;
  first: string;
  last: string;
  /** `host event` of the last one, and why nothing ran. */
  lastCall: string;
  reason: string;
}

/** Hook calls the launcher could not run (missed-hooks.jsonl), or undefined when there were none. */
export function readMissed(layout: RuntimeLayout): MissedSummary | undefined {
  let text: string;
  try {
    text = readFileSync(layout.missed, 'utf8');
  } catch {
    return undefined;
  }
  const rows = text.split('\n').flatMap((l) => {
    try {
      return l ? [JSON.parse(l) as MissedHook] : [];
    } catch {
      return []; // a line cut short by a crash
    }
  });
  if (rows.length === 0) return undefined;
  const last = rows[rows.length - 1];
  return { count: rows.length, first: rows[0].at, last: last.at, lastCall: `${last.host} ${last.event}`, reason: last.reason };
}

/** Once an install has put the program back (and said so), the record of what was missed is done. */
function clearMissed(layout: RuntimeLayout): void {
  rmSync(layout.missed, { force: true });
}
