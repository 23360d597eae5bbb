/**
 * The files of a runnable copy of claude-mem: its own package (package.json, dist/, templates/)
 * and every package it needs at run time, found as node finds them (from each package's real
 * directory, upwards through node_modules). The copy mirrors their real layout below the folder
 * they share, so node resolves every import in the copy exactly as it did in the original.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';

export interface RuntimeFile {
  /** Absolute path in the original. */
  from: string;
  /** Path inside the copy. */
  rel: string;
  /** Our own files are copied; dependencies' files may be hard links (they never change in place). */
  own: boolean;
  symlink: boolean;
}

export interface RuntimeFiles {
  /** Where the program's package sits inside the copy (`current` points there). */
  selfRel: string;
  files: RuntimeFile[];
  /** Identifies the content: the same program and dependencies give the same key. */
  key: string;
}

interface Manifest {
  name?: string;
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const OWN_PARTS = ['package.json', 'dist', 'templates'];
/** Per-directory caches and half-written files of the build are not part of the program. */
const SKIP_OWN = /\.(cache|tmp)$/;

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** node's lookup: `<dir>/node_modules/<name>` for the directory and each parent (node_modules folders themselves skipped). */
function findPackage(fromDir: string, name: string): string | undefined {
  for (let d = fromDir; ; d = dirname(d)) {
    if (basename(d) !== 'node_modules' && existsSync(join(d, 'node_modules', name, 'package.json'))) return join(d, 'node_modules', name);
    if (dirname(d) === d) return undefined;
  }
}

/** Real directories of every package the program needs (itself first); a missing required one is an error. */
function packageDirs(root: string): string[] {
  const dirs = [root];
  for (let i = 0; i < dirs.length; i++) {
    const m = readManifest(dirs[i]);
    const wanted: Array<[string, boolean]> = [
      ...Object.keys(m.dependencies ?? {}).map((n): [string, boolean] => [n, true]),
      ...Object.keys({ ...m.optionalDependencies, ...m.peerDependencies }).map((n): [string, boolean] => [n, false]),
    ];
    for (const [name, required] of wanted) {
      const at = findPackage(dirs[i], name);
      if (!at) {
        if (required) throw new Error(`${name}, which ${m.name ?? dirs[i]} needs, is not installed (looked upwards from ${dirs[i]})`);
        continue;
      }
      const real = realpathSync(at);
      if (!dirs.includes(real)) dirs.push(real);
    }
  }
  return dirs;
}

/** The deepest folder holding them all that is not itself a node_modules (or scope) folder. */
function sharedBase(dirs: readonly string[]): string {
  let base = dirs[0];
  while (!dirs.every((d) => d === base || d.startsWith(`${base}${sep}`))) base = dirname(base);
  for (;;) {
    const name = basename(base);
    if (name === 'node_modules') base = dirname(base);
    else if (name.startsWith('@') && basename(dirname(base)) === 'node_modules') base = dirname(dirname(base));
    else return base;
  }
}

function walk(dir: string, skipNodeModules: boolean, out: string[]): void {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isDirectory()) {
      if (!(skipNodeModules && name === 'node_modules')) walk(p, skipNodeModules, out);
    } else out.push(p);
  }
}

export function runtimeFiles(packageRoot: string): RuntimeFiles {
  const root = realpathSync(packageRoot);
  const dirs = packageDirs(root);
  const base = sharedBase(dirs);
  const hash = createHash('sha256');
  const files: RuntimeFile[] = [];
  const add = (from: string, own: boolean) => {
    const st = lstatSync(from);
    const rel = relative(base, from);
    files.push({ from, rel, own, symlink: st.isSymbolicLink() });
    // Our files by content (a rebuild rewrites them); a dependency's by size and time.
    hash.update(`${rel}\0`);
    if (own && st.isFile()) hash.update(readFileSync(from));
    else hash.update(`${st.size}:${st.mtimeMs}`);
    hash.update('\0');
  };
  for (const part of OWN_PARTS) {
    const p = join(root, part);
    if (!existsSync(p)) continue;
    const list: string[] = [];
    if (lstatSync(p).isDirectory()) walk(p, false, list);
    else list.push(p);
    for (const f of list) if (!SKIP_OWN.test(f)) add(f, true);
  }
  for (const dir of dirs.slice(1)) {
    const list: string[] = [];
    walk(dir, true, list);
    for (const f of list) add(f, false);
  }
  return { selfRel: relative(base, root), files, key: hash.digest('hex') };
}
