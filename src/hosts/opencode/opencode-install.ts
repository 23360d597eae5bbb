/**
 * OpenCode (anomalyco/opencode, npm `opencode-ai`). Captured by a native plugin, recalled through
 * both MCP and the plugin's own tools. Two plugin APIs exist, chosen by the installed version:
 *
 * - V1 (OpenCode 1.x; 1.18.33 was run end to end): a file `plugins/claude-mem.js` in the global
 *   config dir (`$XDG_CONFIG_HOME/opencode`, default ~/.config/opencode), loaded from there without
 *   a config entry; MCP at `mcp.claude-mem = {type:'local', command:[…], enabled:true}`.
 * - V2 (OpenCode 2.x, from its docs): a directory plugin `plugins/claude-mem/` (`index.js` default-
 *   exporting `{id, setup}`), MCP at `mcp.servers.claude-mem = {type:'local', command:[…]}`.
 *
 * Either way `claude-mem.json` beside the plugin names the data directory, node and the entry
 * (the plugin runs inside OpenCode's Bun runtime and starts the worker with our node).
 */
import coerce from 'semver/functions/coerce.js';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Change, FileChange, JsonSetChange } from '../../npx-cli/engine/index.js';
import { homeDir, type Env } from '../../shared/paths.js';
import { MCP_KEY } from '../../npx-cli/hosts/common/command.js';
import { binaryPackageVersion, cheapVersion, findBinary, isDir, probe } from '../../npx-cli/hosts/common/detect.js';
import { xdgDir } from '../../npx-cli/hosts/common/paths.js';
import { asRecord, readJsonc } from '../../npx-cli/hosts/common/read.js';
import type { Detection, HostCheck, HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { opencodeFacts } from './opencode-facts.js';

type OpencodePluginApi = 'v1' | 'v2';

/** The first major version with the V2 plugin API (`Plugin.define`, `plugins`, `mcp.servers`). */
const V2_MAJOR = 2;
/** `opencode --version` starts a 180 MB binary: allow more than the usual cheap-version budget. */
const VERSION_TIMEOUT_MS = 4_000;
const PLUGIN_CONFIG_FILE = 'claude-mem.json';

export function pluginApiFor(version: string | undefined): OpencodePluginApi {
  return (coerce(version ?? '')?.major ?? 0) >= V2_MAJOR ? 'v2' : 'v1';
}

const opencodeConfigDir = (env: Env, home = homeDir(env)) => join(xdgDir(env, home, 'XDG_CONFIG_HOME'), 'opencode');

export function opencodePaths(env: Env, home = homeDir(env)) {
  const dir = opencodeConfigDir(env, home);
  const jsonc = join(dir, 'opencode.jsonc');
  const json = join(dir, 'opencode.json');
  return {
    dir,
    /** The config file we edit: opencode.jsonc when only that one exists, else opencode.json. */
    config: existsSync(jsonc) && !existsSync(json) ? jsonc : json,
    v1File: join(dir, 'plugins', 'claude-mem.js'),
    v1Config: join(dir, 'plugins', PLUGIN_CONFIG_FILE),
    v2Dir: join(dir, 'plugins', 'claude-mem'),
  };
}

/** `opencode` on PATH, or where OpenCode's install script puts it. */
function opencodeBinary(env: Env, home: string): string | undefined {
  const onPath = findBinary('opencode', env);
  if (onPath) return onPath;
  const script = join(home, '.opencode', 'bin', 'opencode');
  return existsSync(script) ? script : undefined;
}

async function detect(env: Env): Promise<Detection> {
  const home = homeDir(env);
  const dir = opencodeConfigDir(env, home);
  const d = await probe({ dirs: [{ path: dir }] }, env);
  const bin = opencodeBinary(env, home);
  let version: string | undefined;
  let versionSource: string | undefined;
  if (bin) {
    d.evidence.push({ kind: 'binary', detail: bin });
    // The npm package's own package.json is instant and exact; `--version` covers other installs.
    version = binaryPackageVersion(bin, ['opencode-ai']);
    versionSource = version ? 'package.json' : undefined;
    if (!version) {
      version = await cheapVersion(bin, env, VERSION_TIMEOUT_MS);
      versionSource = version ? '--version' : undefined;
    }
  }
  return {
    installed: d.evidence.length > 0,
    evidence: d.evidence,
    ...(version !== undefined && { version }),
    facts: { pluginApi: pluginApiFor(version), versionSource, configDir: dir },
  };
}

/** The built plugin's files (`dist/plugins/opencode-v1|v2/`), by name. */
function builtPlugin(ctx: InstallContext, api: OpencodePluginApi): Map<string, string> {
  const dist = join(ctx.packageRoot, 'dist', 'plugins', `opencode-${api}`);
  const files = new Map<string, string>();
  try {
    for (const name of readdirSync(dist).sort()) {
      if (statSync(join(dist, name)).isFile()) files.set(name, readFileSync(join(dist, name), 'utf8'));
    }
  } catch {
    // Reported below.
  }
  if (!files.has('index.js')) throw new Error(`the OpenCode plugin is not built (${join(dist, 'index.js')} is missing): run \`npm run build\` in ${ctx.packageRoot}`);
  return files;
}

function pluginConfig(ctx: InstallContext, file: string): FileChange {
  const value = { host: 'opencode', dataDir: ctx.dataDir, nodePath: ctx.nodePath, entryPath: ctx.entryPath };
  return { kind: 'file', file, host: 'opencode', content: `${JSON.stringify(value, null, 2)}\n` };
}

function pluginChanges(ctx: InstallContext, api: OpencodePluginApi): FileChange[] {
  const p = opencodePaths(ctx.env, ctx.home);
  const built = builtPlugin(ctx, api);
  if (api === 'v1') {
    return [{ kind: 'file', file: p.v1File, host: 'opencode', content: built.get('index.js')! }, pluginConfig(ctx, p.v1Config)];
  }
  const files: FileChange[] = [...built].filter(([name]) => name !== PLUGIN_CONFIG_FILE)
    .map(([name, content]) => ({ kind: 'file', file: join(p.v2Dir, name), host: 'opencode', content }));
  return [...files, pluginConfig(ctx, join(p.v2Dir, PLUGIN_CONFIG_FILE))];
}

function mcpChange(ctx: InstallContext, api: OpencodePluginApi): JsonSetChange {
  const command = [ctx.nodePath, ctx.entryPath, 'mcp'];
  const file = opencodePaths(ctx.env, ctx.home).config;
  return api === 'v1'
    ? { kind: 'json-set', file, host: 'opencode', path: ['mcp', MCP_KEY], value: { type: 'local', command, enabled: true } }
    : { kind: 'json-set', file, host: 'opencode', path: ['mcp', 'servers', MCP_KEY], value: { type: 'local', command } };
}

/** Doctor: the installed plugin is the one the installed OpenCode loads. */
function pluginApiCheck(ctx: InstallContext): HostCheck {
  const id = 'opencode.plugin-api';
  const p = opencodePaths(ctx.env, ctx.home);
  const version = ctx.detection.version;
  const want = pluginApiFor(version);
  const has = { v1: existsSync(p.v1File), v2: isDir(p.v2Dir) && existsSync(join(p.v2Dir, 'index.js')) };
  const fix = 'Run `claude-mem install --ide opencode` again: it installs the plugin for the OpenCode found.';
  if (!has.v1 && !has.v2) return { id, status: 'fail', evidence: `no claude-mem plugin in ${join(p.dir, 'plugins')}`, fix };
  if (has.v1 && has.v2) {
    return { id, status: 'warn', evidence: `both ${p.v1File} (V1) and ${p.v2Dir} (V2) exist; only the ${want.toUpperCase()} one belongs to OpenCode ${version ?? '(version unknown)'}`, fix: `Remove the one OpenCode ${version ?? ''} does not use, or run \`claude-mem uninstall --ide opencode\` then install again.` };
  }
  const installed: OpencodePluginApi = has.v2 ? 'v2' : 'v1';
  if (version === undefined) return { id, status: 'warn', evidence: `plugin API ${installed.toUpperCase()} installed; the OpenCode version could not be read (no \`opencode\` on PATH)`, fix: 'Check that `opencode` is on PATH, then run `claude-mem doctor` again.' };
  if (installed !== want) return { id, status: 'fail', evidence: `OpenCode ${version} loads ${want.toUpperCase()} plugins, but the installed claude-mem plugin is ${installed.toUpperCase()}: nothing is captured`, fix };
  return { id, status: 'ok', evidence: `OpenCode ${version}: plugin API ${want.toUpperCase()} installed (${installed === 'v1' ? p.v1File : p.v2Dir})` };
}

/** Doctor: the node and the entry the plugin starts the worker with still exist. */
function pluginRuntimeCheck(ctx: InstallContext): HostCheck {
  const id = 'opencode.plugin-runtime';
  const p = opencodePaths(ctx.env, ctx.home);
  const file = isDir(p.v2Dir) ? join(p.v2Dir, PLUGIN_CONFIG_FILE) : p.v1Config;
  const cfg = asRecord(readJsonc(file));
  const fix = 'Run `claude-mem install --ide opencode` again.';
  if (!cfg) return { id, status: 'fail', evidence: `${file} is missing or unreadable`, fix };
  const missing = ['nodePath', 'entryPath'].filter((k) => typeof cfg[k] !== 'string' || !existsSync(cfg[k] as string));
  if (missing.length) return { id, status: 'fail', evidence: `${file}: ${missing.map((k) => `${k} ${String(cfg[k] ?? '(unset)')}`).join(', ')} not found`, fix };
  return { id, status: 'ok', evidence: `${file}: data dir ${String(cfg.dataDir)}, node and entry present` };
}

export const opencode: HostModule = {
  ...hostIdentity(opencodeFacts),
  detect,
  async plan(ctx: InstallContext) {
    const version = ctx.detection.version;
    const api = pluginApiFor(version);
    const changes: Change[] = [...pluginChanges(ctx, api), mcpChange(ctx, api)];
    const notes: string[] = [];
    if (version === undefined) notes.push('The OpenCode version could not be read: the plugin for OpenCode 1.x (plugin API V1) is installed. Run the install again once `opencode` is on PATH if you use OpenCode 2.');
    if (api === 'v2') notes.push(`OpenCode ${version} uses plugin API V2: the V2 plugin follows OpenCode's V2 documentation and was not run end to end by claude-mem's tests (V1 was, on 1.18.33).`);
    return {
      capture: 'plugin',
      recall: 'mcp+native-tools',
      changes,
      nextSteps: ['Start a new OpenCode session: plugins and MCP servers are loaded at startup.'],
      notes,
    };
  },
  async checks(ctx: InstallContext): Promise<HostCheck[]> {
    return [pluginApiCheck(ctx), pluginRuntimeCheck(ctx)];
  },
};
