/** Driving the built CLI against a temporary HOME that holds realistic host configs. */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { DIST_BIN, REPO_ROOT, tempHome } from '../helpers/temp.js';
import { spawnCollect } from '../helpers/spawn.js';

export { tempHome };

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** A half-written dist/ (a colleague's build in progress) fails with one of these; such runs are retried. */
const TORN_BUILD = /SyntaxError|ERR_MODULE_NOT_FOUND|Cannot find module .*dist|Unexpected end of input/;

/** Environment for a spawned CLI: no host markers, no CI, PATH without any real host CLI of ours. */
export function cliEnv(base: NodeJS.ProcessEnv, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(base)) {
    if (/^(CLAUDECODE|CLAUDE_CODE_|CLAUDE_PROJECT_DIR|GROK_|COPILOT_|CURSOR_|GEMINI_|CODEX_|KIMI_|CI$|NO_COLOR$)/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, NO_COLOR: '1', ...extra };
}

export function cli(env: NodeJS.ProcessEnv, args: string[], opts: { input?: string; timeoutMs?: number } = {}): CliRun {
  for (let attempt = 0; ; attempt++) {
    const t0 = performance.now();
    const r = spawnSync(process.execPath, [DIST_BIN, ...args], {
      env, cwd: env.HOME, encoding: 'utf8', input: opts.input ?? '', timeout: opts.timeoutMs ?? 60_000,
    });
    const run = { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', ms: performance.now() - t0 };
    if (attempt < 5 && run.code !== 0 && TORN_BUILD.test(run.stderr)) {
      spawnSync('sleep', ['1']);
      continue;
    }
    return run;
  }
}

/** The same, asynchronous (for tests whose process serves HTTP meanwhile). */
export function cliAsync(env: NodeJS.ProcessEnv, args: string[], timeoutMs = 120_000): Promise<CliRun> {
  return spawnCollect(process.execPath, [DIST_BIN, ...args], { cwd: env.HOME, env, timeoutMs });
}

export function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

/**
 * Every entry under `root` (path, type, mode, bytes), sorted: equal hashes mean a byte-identical
 * tree, empty directories included. `skip` names top-level entries to leave out.
 */
export function treeHash(root: string, skip: readonly string[] = []): string {
  const h = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const rel = relative(root, p);
      if (skip.includes(rel)) continue;
      const s = lstatSync(p);
      h.update(`${rel}\0${s.mode}\0`);
      if (s.isDirectory()) walk(p);
      else if (s.isFile()) h.update(readFileSync(p));
      h.update('\0');
    }
  };
  if (existsSync(root)) walk(root);
  return h.digest('hex');
}

/** Paths of every file under root (for "what changed" messages). */
export function listTree(root: string, skip: readonly string[] = []): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (skip.includes(relative(root, p))) continue;
      if (lstatSync(p).isDirectory()) {
        out.push(`${relative(root, p)}/`);
        walk(p);
      } else out.push(relative(root, p));
    }
  };
  if (existsSync(root)) walk(root);
  return out;
}

/**
 * A lived-in HOME: host configs with comments, other tools' entries and odd formatting that an
 * installer must keep byte for byte.
 */
export function seedHome(home: string): void {
  write(join(home, '.claude', 'settings.json'), `{
  // my settings
  "model": "opus",
  "hooks": {
    "PostToolUse": [
      { "matcher": "Bash", "hooks": [ { "type": "command", "command": "~/bin/audit.sh" } ] }
    ]
  },
  "permissions": { "allow": ["Bash(ls:*)"] },
}
`);
  write(join(home, '.claude.json'), '{"hasCompletedOnboarding":true,"theme":"dark","mcpServers":{"other":{"command":"other-mcp"}}}');
  write(join(home, '.codex', 'config.toml'), `# Codex config — hand written
model = "o4"   # keep this

[mcp_servers.other]
command = "other"
args = ["--x", 'y']

[projects."/home/me/it's mine"]
trust_level = "trusted"
`);
  write(join(home, '.cursor', 'mcp.json'), '{\n\t"mcpServers": {\n\t\t"linear": { "url": "https://mcp.linear.app/sse" }\n\t}\n}\n');
  write(join(home, '.cursor', 'hooks.json'), '{\n  "version": 1,\n  "hooks": {\n    "stop": [ { "command": "./notify.sh" } ]\n  }\n}\n');
  write(join(home, '.gemini', 'settings.json'), '{\n  "theme": "GitHub", // comment\n  "mcpServers": {}\n}\n');
  write(join(home, '.config', 'goose', 'config.yaml'), '# goose\nGOOSE_PROVIDER: openai\nextensions:\n  developer:\n    enabled: true # builtin\n    type: builtin\n');
  write(join(home, '.copilot', 'mcp-config.json'), '{ "mcpServers": { "gh": { "type": "local", "command": "gh-mcp", "tools": ["*"] } } }\n');
  write(join(home, '.kimi', 'config.toml'), 'default_model = "kimi-k2"\n\n[[hooks]]\nevent = "Stop"\ncommand = "echo mine"\n');
  // Roo Code has run once in VS Code: its global storage exists, with another MCP server in it.
  write(join(home, '.config', 'Code', 'User', 'globalStorage', 'rooveterinaryinc.roo-cline', 'settings', 'mcp_settings.json'), '{\n  "mcpServers": {\n    "fs": { "command": "npx", "args": ["-y", "fs-mcp"], "disabled": false }\n  }\n}\n');
  write(join(home, 'notes.txt'), 'not a config\n');
  const bin = join(home, 'bin', 'audit.sh');
  write(bin, '#!/bin/sh\nexit 0\n');
  chmodSync(bin, 0o755);
}

/** A HOME with nothing any host would recognise. */
export function bareEnv(): { home: string; dataDir: string; env: NodeJS.ProcessEnv } {
  const t = tempHome();
  return { ...t, env: cliEnv(t.env, { PATH: '/usr/bin:/bin' }) };
}

export function ensureBuiltNow(): void {
  if (existsSync(DIST_BIN) && existsSync(join(REPO_ROOT, 'dist', 'cli.mjs'))) return;
  const r = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 180_000 });
  if (r.status !== 0) throw new Error(`npm run build failed: ${(r.stdout + r.stderr).slice(-2000)}`);
}

export const readJson = <T = Record<string, unknown>>(p: string): T => JSON.parse(readFileSync(p, 'utf8')) as T;
