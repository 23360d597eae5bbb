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
  /**
   * Copied, not hard-linked: a file its owner may rewrite in place (templates/ in a checkout).
   * The build replaces dist/ files by renames and npm never rewrites an installed package's files,
   * so those are linked (copying is most of an install's time on a slow disk).
   */
  copy: boolean;
  symlink: boolean;
}

export interface RuntimeFiles {
  /** Where the program's package sits inside the copy (`current` points there). */
  selfRel: string;
  files: RuntimeFile[];
  /** Every package's folder inside the copy (the program's first). */
  packages: string[];
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


/**
 * Files of dependencies node never loads: type declarations, source maps, TypeScript sources,
 * documentation, tool settings, and what a native build leaves behind besides its `.node` file
 * (C sources, objects, makefiles). About half the files; copying is most of an install's time.
 */
const SKIP_DEPENDENCY = /(\.d\.[cm]?ts|\.[cm]?ts|\.map|\.md|\.markdown|\.(c|cc|cpp|h|hpp|o|a|gyp|gypi|mk)|(^|\/)Makefile)$|(^|\/)\.[^/]+$/i;
/** Per-directory caches and half-written files of the build are not part of the program. */
const SKIP_OWN = /\.(cache|tmp)$/;

/** The program's own files: what the build wrote (dist/build-files.json, stale chunks left out), the schemas, package.json. */
function ownFiles(root: string): Array<{ path: string; copy: boolean }> {
  const dist = join(root, 'dist');
  let built: string[] | undefined;
  try {
    built = (JSON.parse(readFileSync(join(dist, 'build-files.json'), 'utf8')) as string[]).map((f) => join(dist, ...f.split('/')));
  } catch {
    // An older build: all of dist/, copied.
  }
  const list: Array<{ path: string; copy: boolean }> = [{ path: join(root, 'package.json'), copy: true }];
  if (built) list.push(...built.map((path) => ({ path, copy: false })));
  else if (existsSync(dist)) list.push(...walked(dist, false).filter((f) => !SKIP_OWN.test(f)).map((path) => ({ path, copy: true })));
  // Of templates/, the program reads the transcript schemas at run time (plugins are built into dist/).
  const schemas = join(root, 'templates', 'transcripts');
  if (existsSync(schemas)) list.push(...walked(schemas, false).map((path) => ({ path, copy: true })));
  return list;
}

function readManifest(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** The program's own: the packages dist/ loads at run time (the build lists them; bundled ones are left out). */
function ownDependencies(root: string, m: Manifest): string[] {
  try {
    return JSON.parse(readFileSync(join(root, 'dist', 'runtime-dependencies.json'), 'utf8')) as string[];
  } catch {
    return Object.keys(m.dependencies ?? {}); // an older build: every dependency
  }
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
      ...(i === 0 ? ownDependencies(dir, m) : Object.keys(m.dependencies ?? {})).map((n): [string, boolean] => [n, true]),
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

function walked(dir: string, skipNodeModules: boolean, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    const st = lstatSync(p);
    if (st.isDirectory()) {
      if (!(skipNodeModules && name === 'node_modules')) walked(p, skipNodeModules, out);
    } else out.push(p);
  }
  return out;
}

export function runtimeFiles(packageRoot: string): RuntimeFiles {
  const [self, ...deps] = placePackages(realpathSync(packageRoot));
  const hash = createHash('sha256');
  const files: RuntimeFile[] = [];
  const add = (from: string, rel: string, copy: boolean, own: boolean) => {
    const st = lstatSync(from);
    files.push({ from, rel, copy, symlink: st.isSymbolicLink() });
    // Our files by content (a rebuild rewrites them); a dependency's by size and time.
    hash.update(`${rel}\0`);
    if (own && st.isFile()) hash.update(readFileSync(from));
    else hash.update(`${st.size}:${st.mtimeMs}`);
    hash.update('\0');
  };
  const inCopy = (p: Placed, file: string) => posix.join(p.at, relative(p.real, file).split(sep).join('/')).slice(1);
  for (const f of ownFiles(self.real)) add(f.path, inCopy(self, f.path), f.copy, true);
  for (const dep of deps) {
    for (const f of walked(dep.real, true)) if (!SKIP_DEPENDENCY.test(relative(dep.real, f))) add(f, inCopy(dep, f), false, false);
  }
  return { selfRel: self.at.slice(1), files, packages: [self, ...deps].map((p) => p.at.slice(1)), key: hash.digest('hex') };
}
