/**
 * The files of a runnable copy of claude-mem: its own package (package.json, dist/, templates/)
 * and every package it needs at run time, found as node finds them (from each package's real
 * directory, upwards through node_modules), laid out as npm lays out an install.
 */
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { basename, dirname, join, posix, relative, sep } from 'node:path';

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

/** A package of the copy: where it is read from, and its folder in the copy (`/node_modules/…`). */
interface Placed {
  real: string;
  at: string;
}

/**
 * Every package the program needs, each placed in the copy where node will find it: the program at
 * /node_modules/claude-mem, each dependency as high up as it can go (/node_modules/<name>), or
 * next to the package that needs it when that name is taken by another version. This is npm's
 * own layout, so resolution in the copy gives each package exactly the dependency it had.
 */
function placePackages(root: string): Placed[] {
  const self = readManifest(root).name ?? 'claude-mem';
  const out: Placed[] = [{ real: root, at: posix.join('/node_modules', self) }];
  const slots = new Map<string, string>([[out[0].at, root]]);
  const slotFor = (name: string, from: string, real: string): { at: string; fresh: boolean } => {
    for (let d = from; ; d = posix.dirname(d)) {
      if (posix.basename(d) !== 'node_modules') {
        const slot = posix.join(d, 'node_modules', name);
        const there = slots.get(slot);
        if (there === real) return { at: slot, fresh: false };
        if (there !== undefined) return { at: posix.join(from, 'node_modules', name), fresh: true };
      }
      if (d === '/') return { at: posix.join('/node_modules', name), fresh: true };
    }
  };
  for (let i = 0; i < out.length; i++) {
    const { real: dir, at: from } = out[i];
    const m = readManifest(dir);
    const wanted: Array<[string, boolean]> = [
      ...Object.keys(m.dependencies ?? {}).map((n): [string, boolean] => [n, true]),
      ...Object.keys({ ...m.optionalDependencies, ...m.peerDependencies }).map((n): [string, boolean] => [n, false]),
    ];
    for (const [name, required] of wanted) {
      const found = findPackage(dir, name);
      if (!found) {
        if (required) throw new Error(`${name}, which ${m.name ?? dir} needs, is not installed (looked upwards from ${dir})`);
        continue;
      }
      const real = realpathSync(found);
      const slot = slotFor(name, from, real);
      if (!slot.fresh) continue;
      slots.set(slot.at, real);
      out.push({ real, at: slot.at });
    }
  }
  return out;
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
  const [self, ...deps] = placePackages(realpathSync(packageRoot));
  const hash = createHash('sha256');
  const files: RuntimeFile[] = [];
  const add = (from: string, rel: string, own: boolean) => {
    const st = lstatSync(from);
    files.push({ from, rel, own, symlink: st.isSymbolicLink() });
    // Our files by content (a rebuild rewrites them); a dependency's by size and time.
    hash.update(`${rel}\0`);
    if (own && st.isFile()) hash.update(readFileSync(from));
    else hash.update(`${st.size}:${st.mtimeMs}`);
    hash.update('\0');
  };
  const inCopy = (p: Placed, file: string) => posix.join(p.at, relative(p.real, file).split(sep).join('/')).slice(1);
  for (const part of OWN_PARTS) {
    const p = join(self.real, part);
    if (!existsSync(p)) continue;
    const list: string[] = [];
    if (lstatSync(p).isDirectory()) walk(p, false, list);
    else list.push(p);
    for (const f of list) if (!SKIP_OWN.test(f)) add(f, inCopy(self, f), true);
  }
  for (const dep of deps) {
    const list: string[] = [];
    walk(dep.real, true, list);
    for (const f of list) add(f, inCopy(dep, f), false);
  }
  return { selfRel: self.at.slice(1), files, key: hash.digest('hex') };
}
