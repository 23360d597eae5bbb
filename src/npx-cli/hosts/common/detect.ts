/**
 * Cheap host detection: directories and files, binaries found by scanning PATH ourselves (no
 * shell is spawned), and `--version` only where it is a fast CLI call, with a short timeout.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import type { Env } from '../../../shared/paths.js';
import type { DetectEvidence, Detection } from '../types.js';

const VERSION_TIMEOUT_MS = 1500;

export function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The first executable `name` on `env.PATH`, or undefined. */
export function findBinary(name: string, env: Env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue; // a relative PATH entry depends on the cwd: never trusted
    const candidate = join(dir, name);
    try {
      if (!statSync(candidate).isFile()) continue;
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** First version-looking token of a `--version` answer. */
export function parseVersion(text: string): string | undefined {
  return /\b(\d+\.\d+(?:\.\d+)?(?:[-+][0-9A-Za-z.-]+)?)\b/.exec(text)?.[1];
}

/**
 * `<binary> --version` without a shell; undefined when it fails or is not done within the timeout.
 * Our own timer decides, so a grandchild holding the pipe open cannot keep us waiting.
 */
export function cheapVersion(binary: string, env: Env, timeoutMs = VERSION_TIMEOUT_MS): Promise<string | undefined> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (v: string | undefined) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(v);
    };
    const timer = setTimeout(() => {
      child?.kill('SIGKILL');
      child?.stdout?.destroy();
      child?.stderr?.destroy();
      finish(undefined);
    }, timeoutMs);
    let child: ReturnType<typeof execFile> | undefined;
    try {
      child = execFile(binary, ['--version'], {
        env: { ...env, NO_COLOR: '1', CI: '1' } as NodeJS.ProcessEnv,
        killSignal: 'SIGKILL',
        maxBuffer: 64 * 1024,
        windowsHide: true,
      }, (err, stdout, stderr) => finish(err ? undefined : parseVersion(`${stdout}\n${stderr}`)));
      child.stdin?.end();
      child.unref();
    } catch {
      finish(undefined);
    }
  });
}

interface DirProbe {
  path: string;
  /** The override variable that chose this directory, when one did. */
  env?: string;
}

interface ProbeSpec {
  dirs?: readonly DirProbe[];
  files?: readonly string[];
  /** Binary names; the first found is asked for its version when `version` is set. */
  binaries?: readonly string[];
  version?: boolean;
  /**
   * npm packages the binary may belong to: their package.json gives the version instantly and
   * exactly, without running the host (a first run may unpack or update itself); `--version` is
   * the fallback for other installs.
   */
  npmPackages?: readonly string[];
  facts?: Detection['facts'];
}

/** Runs the probes; the host counts as installed when any evidence is found. */
export async function probe(spec: ProbeSpec, env: Env): Promise<Detection> {
  const evidence: DetectEvidence[] = [];
  for (const d of spec.dirs ?? []) {
    if (!isDir(d.path)) continue;
    evidence.push(d.env ? { kind: 'env', detail: `${d.env}=${d.path}` } : { kind: 'dir', detail: d.path });
  }
  for (const f of spec.files ?? []) if (isFile(f)) evidence.push({ kind: 'file', detail: f });
  let version: string | undefined;
  for (const name of spec.binaries ?? []) {
    const bin = findBinary(name, env);
    if (!bin) continue;
    evidence.push({ kind: 'binary', detail: bin });
    if (spec.version && version === undefined) version = binaryPackageVersion(bin, spec.npmPackages ?? []) ?? await cheapVersion(bin, env);
  }
  return { installed: evidence.length > 0, evidence, ...(version !== undefined && { version }), facts: { ...spec.facts } };
}

/**
 * The version of the npm package a binary on PATH belongs to, read from its package.json (Pi
 * takes seconds to answer `--version`; reading the file is instant and exact). Undefined for a
 * binary outside an npm package (a compiled build).
 */
export function binaryPackageVersion(bin: string | undefined, packages: readonly string[]): string | undefined {
  if (!bin) return undefined;
  try {
    let dir = dirname(realpathSync(bin));
    for (let i = 0; i < 6; i++) {
      try {
        const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
        if (pkg.name && packages.includes(pkg.name)) return typeof pkg.version === 'string' ? pkg.version : undefined;
      } catch {
        // No package.json here: keep walking up.
      }
      const up = dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  } catch {
    // Broken link.
  }
  return undefined;
}
