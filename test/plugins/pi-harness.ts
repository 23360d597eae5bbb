/**
 * Test support for the Pi-family, OpenClaw and DeepSeek Harness plugins: the built bundle copied
 * with its `claude-mem.json`, the host identity a real host would show (Pi's package dir, OMP's
 * CLI script), and a harness of the Pi / OMP ExtensionAPI that calls handlers the way Pi 0.73's
 * runner does (in order, awaited, errors caught and recorded, before_agent_start chained).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { FIXTURES, REPO_ROOT, tempDir } from '../helpers/temp.js';

export const PI_FIXTURE = join(FIXTURES, 'pi');
export const OPENCLAW_FIXTURE = join(FIXTURES, 'openclaw');

type Bundle = 'pi' | 'omp' | 'openclaw' | 'dsh';

/** Builds dist/ when a bundle is missing or older than the plugin and shared sources. */
export function ensureBundles(names: readonly Bundle[]): void {
  const newest = (dir: string): number => readdirSync(dir).reduce((m, n) => {
    const p = join(dir, n);
    const s = statSync(p);
    return Math.max(m, s.isDirectory() ? newest(p) : s.mtimeMs);
  }, 0);
  const src = Math.max(newest(join(REPO_ROOT, 'src', 'plugins')), newest(join(REPO_ROOT, 'src', 'shared')));
  const out = names.map((n) => join(REPO_ROOT, 'dist', 'plugins', n, 'index.js'));
  if (out.every((f) => existsSync(f) && statSync(f).mtimeMs >= src)) return;
  let last = '';
  for (let i = 0; i < 3; i++) {
    const r = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 180_000 });
    if (r.status === 0) return;
    last = (r.stdout + r.stderr).slice(-2000);
  }
  throw new Error(`npm run build failed: ${last}`);
}

export interface Installed {
  dir: string;
  dataDir: string;
  file: string;
}

/** A fresh copy of dist/plugins/<name>/* (a new module URL each time) and the installer's claude-mem.json. */
export function installCopy(name: Bundle, runtime: { nodePath?: string; entryPath?: string } = {}): Installed {
  const root = tempDir(`${name}-plugin`);
  const dir = join(root, 'extensions', 'claude-mem');
  mkdirSync(dir, { recursive: true });
  const dist = join(REPO_ROOT, 'dist', 'plugins', name);
  for (const f of readdirSync(dist)) copyFileSync(join(dist, f), join(dir, f));
  const dataDir = join(root, 'data');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dir, 'claude-mem.json'), JSON.stringify({
    host: name, dataDir, nodePath: runtime.nodePath ?? '/nonexistent/node', entryPath: runtime.entryPath ?? '/nonexistent/bin.js',
  }));
  return { dir, dataDir, file: join(dir, 'index.js') };
}

export async function importModule<T = Record<string, unknown>>(file: string): Promise<T> {
  return (await import(pathToFileURL(file).href)) as T;
}

/**
 * Makes the running process look like a host CLI to the extension: a package folder with the
 * host's package.json and `dist/cli.js`, named by `process.argv[1]` (how both hosts start).
 * Returns a function that restores argv.
 */
export function runAsHost(name: string, version: string): () => void {
  const dir = join(tempDir('host-pkg'), 'node_modules', ...name.split('/'));
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, version, type: 'module' }));
  writeFileSync(join(dir, 'dist', 'cli.js'), '');
  const saved = process.argv[1];
  process.argv[1] = join(dir, 'dist', 'cli.js');
  const env = process.env.PI_PACKAGE_DIR;
  delete process.env.PI_PACKAGE_DIR;
  return () => {
    process.argv[1] = saved;
    if (env !== undefined) process.env.PI_PACKAGE_DIR = env;
  };
}

// ---- Pi / OMP ExtensionAPI harness ------------------------------------------------------------

export interface FixtureCtx {
  cwd: string;
  hasUI: boolean;
  sessionId: string;
  sessionFile?: string;
}

export interface PiRecord {
  ts: string;
  event: string;
  payload?: Record<string, unknown>;
  ctx?: FixtureCtx;
  apiKeys?: string[];
}

/** The 39 extension callbacks Pi 0.73.1 made in the fixture run, in order. */
export function piRecords(): PiRecord[] {
  return readFileSync(join(PI_FIXTURE, 'events', 'extension-events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as PiRecord);
}

export interface HostCtx {
  cwd: string;
  hasUI: boolean;
  sessionManager: { getSessionId(): string; getSessionFile(): string | undefined; getCwd(): string };
  ui: { notify(message: string, level?: string): void };
  agent?: { kind: 'main' | 'sub'; id: string };
}

export interface RegisteredTool {
  name: string;
  label: string;
  description: string;
  parameters: Record<string, unknown>;
  execute(id: string, params: unknown, signal?: AbortSignal, onUpdate?: unknown, ctx?: HostCtx): Promise<{ content: { type: string; text: string }[] }>;
}

export interface PiHost {
  api: Record<string, unknown>;
  handlers: Map<string, Array<(e: unknown, ctx: HostCtx) => unknown>>;
  tools: RegisteredTool[];
  notices: string[];
  /** Errors a handler threw (Pi logs them and goes on). */
  errors: { event: string; error: unknown }[];
  ctx(fixture: FixtureCtx, agent?: HostCtx['agent']): HostCtx;
  /** Pi's ExtensionRunner.emit: every handler in order, awaited, errors caught. Returns the last result. */
  emit(event: string, payload: Record<string, unknown>, ctx: HostCtx): Promise<unknown>;
  /** Replays fixture records (before_agent_start with its result chained into the system prompt). */
  replay(records: PiRecord[], mapCtx?: (c: FixtureCtx) => HostCtx): Promise<{ systemPrompts: unknown[] }>;
}

/** The ExtensionAPI keys of Pi 0.73.1 (fixture `extension.loaded`); OMP's differ but include `on`/`registerTool`. */
export function createPiHost(apiKeys: readonly string[], opts: { registerTool?: boolean } = {}): PiHost {
  const host: PiHost = {
    api: {},
    handlers: new Map(),
    tools: [],
    notices: [],
    errors: [],
    ctx(f, agent) {
      return {
        cwd: f.cwd,
        hasUI: f.hasUI,
        sessionManager: { getSessionId: () => f.sessionId, getSessionFile: () => f.sessionFile, getCwd: () => f.cwd },
        ui: { notify: (m) => host.notices.push(m) },
        ...(agent && { agent }),
      };
    },
    async emit(event, payload, ctx) {
      let result: unknown;
      for (const h of host.handlers.get(event) ?? []) {
        try {
          result = await h(structuredClone(payload), ctx);
        } catch (error) {
          host.errors.push({ event, error });
        }
      }
      return result;
    },
    async replay(records, mapCtx = (c) => host.ctx(c)) {
      const systemPrompts: unknown[] = [];
      for (const r of records) {
        if (!r.payload || !r.ctx) continue;
        const result = await host.emit(r.event, r.payload, mapCtx(r.ctx));
        if (r.event === 'before_agent_start') systemPrompts.push((result as { systemPrompt?: unknown } | undefined)?.systemPrompt);
      }
      return { systemPrompts };
    },
  };
  for (const k of apiKeys) host.api[k] = () => undefined;
  host.api.on = (event: string, handler: (e: unknown, ctx: HostCtx) => unknown) => {
    const list = host.handlers.get(event) ?? [];
    list.push(handler);
    host.handlers.set(event, list);
  };
  if (opts.registerTool !== false) host.api.registerTool = (tool: RegisteredTool) => host.tools.push(tool);
  else delete host.api.registerTool;
  return host;
}
