/**
 * The headline path, for real: `npm pack`, then `npx --package=<tarball> claude-mem install` in a
 * fresh HOME with its own npm cache (dependencies from the npm registry). Then ordinary life:
 *  - npm empties its npx cache: every hook still runs (hosts run the copy in the data directory);
 *  - the copy itself is gone: a hook exits 0 without a word, the call is recorded, doctor says so;
 *  - a newer tarball installs over it: the same launcher, one registration per event, the copy
 *    switched in place, the worker restarted on it.
 *
 * better-sqlite3's prebuilt binary normally comes from GitHub, which this machine cannot reach:
 * a local mirror serves the binary of the same version built here (prebuild-install's documented
 * `npm_config_better_sqlite3_binary_host`). Everything else is what a user gets.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir, tempHome } from '../helpers/temp.js';
import { spawnCollect } from '../helpers/spawn.js';
import { cleanupWorker, ensureBuilt, runBin } from '../hook-runtime/helpers.js';

async function waitFor<T>(fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
import { warnSkip } from './support/host-cache.js';

const PROMPT = 'npx launcher survives cache eviction';

let mirror: Server;
let mirrorUrl = '';
let packs = '';

function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): string {
  const r = spawnSync(cmd, args, { cwd, env, encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}): ${r.stderr}${r.stdout}`);
  return r.stdout;
}

/** A tarball of the package at `dir` (npm pack), in `packs`. */
function pack(dir: string): string {
  const name = sh('npm', ['pack', '--silent', '--pack-destination', packs], dir).trim().split('\n').pop()!;
  return join(packs, name);
}

/** The same program at another version, built from this checkout's sources: what an upgrade installs. */
function newerPackage(version: string): string {
  const dir = join(tempDir('newer'), 'claude-mem');
  mkdirSync(dir, { recursive: true });
  for (const p of ['src', 'scripts', 'templates', 'README.md', 'tsconfig.json']) cpSync(join(REPO_ROOT, p), join(dir, p), { recursive: true });
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ ...pkg, version }, null, 2));
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  sh(process.execPath, ['scripts/build.mjs'], dir);
  rmSync(join(dir, 'node_modules'));
  return pack(dir);
}

function startMirror(): Promise<void> {
  const version = (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', 'better-sqlite3', 'package.json'), 'utf8')) as { version: string }).version;
  const dir = join(tempDir('mirror'), `v${version}`);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`);
  sh('tar', ['-czf', file, '-C', join(REPO_ROOT, 'node_modules', 'better-sqlite3'), 'build/Release/better_sqlite3.node'], REPO_ROOT);
  mirror = createServer((req, res) => {
    const path = join(dirname(dir), decodeURIComponent((req.url ?? '').split('?')[0]));
    if (!path.startsWith(dirname(dir)) || !existsSync(path)) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/gzip' }).end(readFileSync(path));
  });
  return new Promise((resolve) => mirror.listen(0, '127.0.0.1', () => {
    mirrorUrl = `http://127.0.0.1:${(mirror.address() as AddressInfo).port}`;
    resolve();
  }));
}

const t = tempHome();
const env: NodeJS.ProcessEnv = {
  ...t.env,
  PATH: [dirname(process.execPath), '/usr/bin', '/bin'].join(':'),
  npm_config_cache: join(t.home, '.npm'),
  npm_config_update_notifier: 'false',
  npm_config_fund: 'false',
  npm_config_audit: 'false',
  NO_COLOR: '1',
};
const settings = join(t.home, '.claude', 'settings.json');
const launcher = join(t.dataDir, 'runtime', 'claude-mem.cjs');
const shim = join(t.dataDir, 'bin', 'claude-mem');
let registry = true;

function npxInstall(tarball: string) {
  return spawnCollect('npx', ['--yes', `--package=${tarball}`, 'claude-mem', 'install', '--yes', '--ide', 'claude-code'], {
    cwd: t.home, env: { ...env, npm_config_better_sqlite3_binary_host: mirrorUrl }, timeoutMs: 300_000,
  });
}

/** Runs a hook exactly as Claude Code does: its command line through sh, the payload on stdin. */
async function runHookCommand(event: string, payload: object) {
  const doc = JSON.parse(readFileSync(settings, 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
  const groups = doc.hooks[event];
  expect(groups).toHaveLength(1);
  return runBin({ env, command: ['/bin/sh', '-c', groups[0].hooks[0].command], args: [], stdin: JSON.stringify({ hook_event_name: event, ...payload }), cwd: t.home });
}

beforeAll(async () => {
  ensureBuilt();
  packs = tempDir('packs');
  await startMirror();
  mkdirSync(join(t.home, '.claude'), { recursive: true });
  registry = spawnSync('npm', ['view', 'semver', 'version'], { env, encoding: 'utf8', timeout: 60_000 }).status === 0;
}, 120_000);

afterAll(async () => {
  await cleanupWorker({ ...env, PATH: `${join(t.dataDir, 'bin')}:${env.PATH}` }, t.dataDir);
  spawnSync(process.execPath, [join(REPO_ROOT, 'dist', 'bin.js'), 'stop'], { env, timeout: 30_000 });
  mirror?.close();
});

describe('npx install', () => {
  it('survives the npx cache, fails open without its program, and upgrades in place', async (ctx) => {
    if (!registry) {
      warnSkip('npx install', 'the npm registry is not reachable');
      return ctx.skip();
    }
    const first = await npxInstall(pack(REPO_ROOT));
    expect(first.code, first.stderr + first.stdout).toBe(0);
    const text = readFileSync(settings, 'utf8');
    expect(text).not.toContain('_npx');
    expect(text).toContain(`'${launcher}' hook claude-code SessionStart`);
    const mcp = (JSON.parse(readFileSync(join(t.home, '.claude.json'), 'utf8')) as { mcpServers: Record<string, { args: string[] }> }).mcpServers['claude-mem'];
    expect(mcp.args).toEqual([launcher, 'mcp']);
    // Not on PATH: the output names the shim, and that command works as printed.
    expect(first.stdout).toContain('~/.claude-mem/bin/claude-mem');
    expect(first.stdout).not.toMatch(/(^|[\s`])claude-mem (start|doctor|install|uninstall)/m);
    const worker = JSON.parse(readFileSync(join(t.dataDir, 'worker.json'), 'utf8')) as { pid: number };
    const cmdline = readFileSync(`/proc/${worker.pid}/cmdline`, 'utf8');
    expect(cmdline).toContain(join(t.dataDir, 'runtime'));
    expect(cmdline).not.toContain('_npx');

    // npm empties its npx cache; the hooks do not notice.
    rmSync(join(t.home, '.npm', '_npx'), { recursive: true, force: true });
    const session = { session_id: 'npx-1', cwd: t.home, transcript_path: join(t.home, 't.jsonl') };
    const start = await runHookCommand('SessionStart', { ...session, source: 'startup' });
    expect([start.code, start.stderr]).toEqual([0, '']);
    const prompt = await runHookCommand('UserPromptSubmit', { ...session, prompt: PROMPT });
    expect([prompt.code, prompt.stderr]).toEqual([0, '']);
    const found = await waitFor(async () => {
      const r = await spawnCollect(shim, ['search', 'cache eviction', '--json'], { cwd: t.home, env, timeoutMs: 60_000 });
      return r.code === 0 && r.stdout.includes(PROMPT) ? r : undefined;
    }, 20_000);
    expect(found.stdout).toContain(PROMPT);

    // The program itself is gone (deleted by hand): hooks fail open, the loss is counted.
    await cleanupWorker(env, t.dataDir);
    const copy = join(t.dataDir, 'runtime', readlinkSync(join(t.dataDir, 'runtime', 'current')).split('/')[0]);
    rmSync(copy, { recursive: true, force: true });
    const lost = await runHookCommand('UserPromptSubmit', { ...session, prompt: 'lost one' });
    expect([lost.code, lost.stdout, lost.stderr]).toEqual([0, '', '']);
    const missed = readFileSync(join(t.dataDir, 'runtime', 'missed-hooks.jsonl'), 'utf8').trim().split('\n');
    expect(missed).toHaveLength(1);
    expect(JSON.parse(missed[0])).toMatchObject({ host: 'claude-code', event: 'UserPromptSubmit' });
    const doctor = spawnSync(process.execPath, [join(REPO_ROOT, 'dist', 'bin.js'), 'doctor', '--json'], { env, encoding: 'utf8', timeout: 120_000 });
    const check = (JSON.parse(doctor.stdout) as { checks: Array<{ id: string; status: string; evidence: string }> }).checks.find((c) => c.id === 'runtime.program');
    expect(check).toMatchObject({ status: 'fail', evidence: expect.stringContaining('1 hook call(s) found no program to run') });

    // A newer version installs over it: same launcher, one registration per event, copy switched.
    const second = await npxInstall(newerPackage('0.1.1-upgrade'));
    expect(second.code, second.stderr + second.stdout).toBe(0);
    expect(second.stdout).toMatch(/1 hook call\(s\) between .* found no program to run/);
    const after = JSON.parse(readFileSync(settings, 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    for (const [event, groups] of Object.entries(after.hooks)) {
      expect(groups, event).toHaveLength(1);
      expect(groups[0].hooks[0].command).toBe(`'${realNode()}' '${launcher}' hook claude-code ${event}`);
    }
    const version = await spawnCollect(shim, ['--version'], { cwd: t.home, env, timeoutMs: 30_000 });
    expect(version.stdout.trim()).toBe('0.1.1-upgrade');
    expect(readdirSync(join(t.dataDir, 'runtime')).filter((n) => n.startsWith('0.1.1-upgrade-'))).toHaveLength(1);
    const again = await runHookCommand('UserPromptSubmit', { ...session, prompt: 'after the upgrade' });
    expect([again.code, again.stderr]).toEqual([0, '']);
  }, 900_000);
});

function realNode(): string {
  return spawnSync(process.execPath, ['-p', 'require("fs").realpathSync(process.execPath)'], { encoding: 'utf8' }).stdout.trim();
}
