/**
 * Real host CLIs for end-to-end tests, installed once from the npm registry into a cache outside
 * the repository and outside any home directory, reused by every run (see hostCacheRoot).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface HostPackage {
  /** Folder name prefix, e.g. `claude-code`. */
  id: string;
  /** npm package, e.g. `@anthropic-ai/claude-code`. */
  pkg: string;
  /** Exact version: hosts change their hook payloads between releases. */
  version: string;
  /** The executable name under node_modules/.bin. */
  bin: string;
  /** Install with --ignore-scripts: the package's own install script would write to the real HOME. */
  ignoreScripts?: boolean;
  /** Runs once after a successful install, inside the cache folder (what an ignored script did there). */
  postInstall?(dir: string): void;
}

export type HostInstall = { ok: true; dir: string; binPath: string } | { ok: false; reason: string };

const INSTALL_TIMEOUT_MS = 10 * 60_000;
const LOCK_STALE_MS = INSTALL_TIMEOUT_MS + 60_000;

/**
 * Outside the repository and outside every home directory (tests never touch the real HOME):
 * CLAUDE_MEM_HOST_CACHE, else a per-user folder in /var/tmp (kept across reboots), else tmpdir.
 */
export function hostCacheRoot(): string {
  if (process.env.CLAUDE_MEM_HOST_CACHE) return process.env.CLAUDE_MEM_HOST_CACHE;
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  for (const candidate of [join('/var/tmp', `claude-mem-host-cache-${uid}`), join(tmpdir(), `claude-mem-host-cache-${uid}`)]) {
    try {
      mkdirSync(candidate, { recursive: true, mode: 0o700 });
      return candidate;
    } catch {
      // Not writable here: try the next place.
    }
  }
  return join(tmpdir(), 'claude-mem-host-cache');
}

/**
 * The environment npm and the packages' install scripts run with: a home of their own inside the
 * cache (OpenCode's postinstall, for one, writes ~/.cache/opencode and ~/.local/state/opencode),
 * never the real home nor a test's HOME, and kept with the cache so its npm cache is reused too.
 * Registry settings come from the environment (npm_config_registry and friends pass through).
 */
export function npmInstallEnv(root: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const home = join(root, 'npm-home');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const env: NodeJS.ProcessEnv = {};
  // Nothing that names a test's HOME, a data directory or another npm cache (`npm test` exports
  // npm_config_cache=<real home>/.npm) reaches npm or the install scripts.
  for (const [k, v] of Object.entries(base)) if (!/^(HOME|USERPROFILE|XDG_[A-Z_]+|CLAUDE_MEM_[A-Z_]+|npm_config_cache)$/i.test(k)) env[k] = v;
  return {
    ...env,
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    npm_config_cache: join(home, '.npm'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** mkdir is atomic: the process that creates the lock folder installs; the others wait for it. */
async function withLock<T>(lockDir: string, fn: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(join(lockDir, 'owner'), `${process.pid}\n`);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      let stale = false;
      try {
        stale = Date.now() - statSync(lockDir).mtimeMs > LOCK_STALE_MS;
        const owner = Number(readFileSync(join(lockDir, 'owner'), 'utf8'));
        if (owner > 0) {
          try {
            process.kill(owner, 0);
          } catch (e) {
            if ((e as NodeJS.ErrnoException).code === 'ESRCH') stale = true;
          }
        }
      } catch {
        // Lock vanished or owner not written yet.
      }
      if (stale) rmSync(lockDir, { recursive: true, force: true });
      else await sleep(500);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const add = (b: Buffer) => {
      output = (output + b.toString()).slice(-8000);
    };
    child.stdout.on('data', add);
    child.stderr.on('data', add);
    const timer = setTimeout(() => child.kill('SIGKILL'), INSTALL_TIMEOUT_MS);
    child.on('error', (err) => {
      clearTimeout(timer);
      resolve({ code: -1, output: `${output}\n${err.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Installs `pkg@version` once (`npm install --prefix <cache>/<id>-<version>`); reuses it afterwards. */
export async function ensureHostPackage(p: HostPackage): Promise<HostInstall> {
  const root = hostCacheRoot();
  const dir = join(root, `${p.id}-${p.version}`);
  const binPath = join(dir, 'node_modules', '.bin', p.bin);
  const marker = join(dir, '.claude-mem-installed');
  if (existsSync(marker) && existsSync(binPath)) return { ok: true, dir, binPath };
  mkdirSync(root, { recursive: true });
  return withLock(`${dir}.lock`, async () => {
    if (existsSync(marker) && existsSync(binPath)) return { ok: true, dir, binPath };
    mkdirSync(dir, { recursive: true });
    const env = npmInstallEnv(root);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const flags = p.ignoreScripts ? ['--ignore-scripts'] : [];
    const r = await run(npm, ['install', '--prefix', dir, '--no-save', '--no-package-lock', ...flags, `${p.pkg}@${p.version}`], env);
    if (r.code === 0) {
      try {
        p.postInstall?.(dir);
      } catch (err) {
        return { ok: false, reason: `${p.pkg}@${p.version}: post-install step failed: ${(err as Error).message}` };
      }
    }
    if (r.code !== 0 || !existsSync(binPath)) {
      return { ok: false, reason: `npm install ${p.pkg}@${p.version} failed (exit ${r.code}): ${r.output.trim().split('\n').slice(-6).join(' | ')}` };
    }
    writeFileSync(marker, `${p.pkg}@${p.version} ${new Date().toISOString()}\n`);
    return { ok: true, dir, binPath };
  });
}

let skipped = 0;

/** A skipped end-to-end test must be seen: a counted warning on the console, never silence. */
export function warnSkip(what: string, reason: string): void {
  skipped += 1;
  console.warn(`\n⚠ E2E SKIPPED (${skipped}): ${what} — ${reason}\n`);
}
