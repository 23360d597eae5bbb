/**
 * The scratch world a replay runs in: a temporary HOME and data directory (never the real ones),
 * Claude Code's hooks registered there by the product's own installer, one git repository per
 * project under ~/projects, and a running worker.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Project } from '../types.js';

/** dist/bin.js, next to dist/bench-recall.mjs (or one up, should this code land in dist/chunks/). */
const here = dirname(fileURLToPath(import.meta.url));
export const BIN = existsSync(join(here, 'bin.js')) ? join(here, 'bin.js') : join(here, '..', 'bin.js');

export interface HookCommand {
  command: string;
  timeoutMs: number;
}

export interface ScratchHome {
  root: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** Claude Code's registered hook commands by event, as the installer wrote them. */
  hooks: Map<string, HookCommand[]>;
  /** The file node preloads in hook processes to run them at the simulated time. */
  clockShim: string;
  port: number;
  token: string;
  cwdOf(project: Project): string;
  stop(): void;
  cleanup(): void;
}

// Loaded with `node --require` into each hook process: `new Date()` runs from BENCH_CLOCK_AT on,
// so the hook stamps its events with the session's own time. Date.now() stays real: it signs the
// requests to the worker (which refuses a skewed signature) and times the hook's own deadlines.
const CLOCK_SHIM = `'use strict';
const at = Date.parse(process.env.BENCH_CLOCK_AT || '');
if (Number.isFinite(at)) {
  const Real = Date;
  const offset = at - Real.now();
  class Shifted extends Real {
    constructor(...args) { if (args.length === 0) super(Real.now() + offset); else super(...args); }
  }
  globalThis.Date = Shifted;
}
`;

function run(env: NodeJS.ProcessEnv, args: string[]): string {
  const r = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`claude-mem ${args.join(' ')} exited ${r.status}: ${r.stderr || r.stdout}`);
  return r.stdout;
}

function registeredHooks(settingsPath: string): Map<string, HookCommand[]> {
  const settings = JSON.parse(readFileSync(settingsPath, 'utf8')) as {
    hooks?: Record<string, { matcher?: string; hooks?: { type: string; command: string; timeout?: number }[] }[]>;
  };
  const out = new Map<string, HookCommand[]>();
  for (const [event, groups] of Object.entries(settings.hooks ?? {})) {
    const cmds = groups.flatMap((g) => g.hooks ?? []).filter((h) => h.type === 'command')
      .map((h) => ({ command: h.command, timeoutMs: (h.timeout ?? 60) * 1000 }));
    if (cmds.length) out.set(event, cmds);
  }
  return out;
}

function writeRepo(dir: string, remote: string | undefined): void {
  mkdirSync(join(dir, '.git'), { recursive: true });
  writeFileSync(join(dir, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  const config = '[core]\n\trepositoryformatversion = 0\n\tbare = false\n';
  writeFileSync(join(dir, '.git', 'config'), remote ? `${config}[remote "origin"]\n\turl = ${remote}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n` : config);
}

export function createScratchHome(projects: Record<string, Project>): ScratchHome {
  const root = mkdtempSync(join(tmpdir(), 'cm-recall-'));
  const dataDir = join(root, '.claude-mem');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH, LANG: 'C.UTF-8', HOME: root, USERPROFILE: root, USER: 'dev', CLAUDE_MEM_DATA_DIR: dataDir,
  };
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    spawnSync(process.execPath, [BIN, 'stop'], { env, stdio: 'ignore', timeout: 15_000 });
  };
  try {
    run(env, ['install', '--ide', 'claude-code', '--yes', '--no-start']);
    const hooks = registeredHooks(join(root, '.claude', 'settings.json'));
    for (const p of Object.values(projects)) writeRepo(join(root, 'projects', p.dir), p.remote);
    const clockShim = join(root, 'bench-clock.cjs');
    writeFileSync(clockShim, CLOCK_SHIM);
    run(env, ['start']);
    const info = JSON.parse(readFileSync(join(dataDir, 'worker.json'), 'utf8')) as { port: number };
    const token = readFileSync(join(dataDir, 'worker.token'), 'utf8').trim();
    return {
      root, dataDir, env, hooks, clockShim, port: info.port, token,
      cwdOf: (p) => join(root, 'projects', p.dir),
      stop,
      cleanup() {
        stop();
        rmSync(root, { recursive: true, force: true });
      },
    };
  } catch (err) {
    stop();
    rmSync(root, { recursive: true, force: true });
    throw err;
  }
}
