/**
 * Pi (badlogic/pi-mono): a native extension in `$PI_CODING_AGENT_DIR/extensions/claude-mem/`
 * (default `~/.pi/agent`). Pi has no MCP by design, so the extension both captures (prompt, tool
 * calls, session start/end, compaction) and registers the five recall tools natively.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FileChange } from '../../npx-cli/engine/index.js';
import type { HostId } from '../../shared/hosts.js';
import { homeDir, type Env } from '../../shared/paths.js';
import { PI_API } from '../../plugins/pi/api.js';
import { apiKnown, provenText, versionLine, type HostApiSpec } from '../../plugins/pi-base/api-spec.js';
import { binaryPackageVersion, findBinary, probe } from '../../npx-cli/hosts/common/detect.js';
import { envDir } from '../../npx-cli/hosts/common/paths.js';
import type { HostCheck, HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { piFacts } from './pi-facts.js';

/** The file a native plugin reads to find claude-mem (written beside its bundle). */
const PLUGIN_CONFIG_FILE = 'claude-mem.json';

/**
 * The built plugin (`dist/plugins/<host>/*`: the bundle and its static files) copied into `dir`,
 * plus the runtime file naming this install: data directory, node and the claude-mem entry (the
 * plugin starts the worker with them; the host's own runtime may be Bun or another Node).
 * Shared by the Pi, OMP, OpenClaw and DeepSeek Harness modules.
 */
export function pluginDirChanges(ctx: InstallContext, host: HostId, dir: string, skip: readonly string[] = []): FileChange[] {
  const dist = join(ctx.packageRoot, 'dist', 'plugins', host);
  let names: string[];
  try {
    names = readdirSync(dist).filter((n) => statSync(join(dist, n)).isFile()).sort();
  } catch {
    throw new Error(`the ${host} plugin is not built (${dist} is missing): run \`npm run build\` in ${ctx.packageRoot}`);
  }
  if (!names.includes('index.js')) throw new Error(`${join(dist, 'index.js')} is missing: run \`npm run build\` in ${ctx.packageRoot}`);
  const files: FileChange[] = names
    .filter((n) => !skip.includes(n) && n !== PLUGIN_CONFIG_FILE)
    .map((n) => ({ kind: 'file', file: join(dir, n), host, content: readFileSync(join(dist, n), 'utf8') }));
  const config = { host, dataDir: ctx.dataDir, nodePath: ctx.nodePath, entryPath: ctx.entryPath };
  files.push({ kind: 'file', file: join(dir, PLUGIN_CONFIG_FILE), host, content: `${JSON.stringify(config, null, 2)}\n` });
  return files;
}

/** Dirs and binary as evidence, the version from the binary's own package. */
export async function detectPackaged(env: Env, spec: HostApiSpec, dirs: Parameters<typeof probe>[0]['dirs'], binary: string) {
  const d = await probe({ dirs, binaries: [binary] }, env);
  const version = binaryPackageVersion(findBinary(binary, env), spec.packages);
  return { ...d, ...(version !== undefined && { version }), facts: { ...d.facts, apiKnown: apiKnown(spec, version) } };
}

/**
 * Doctor: the plugin's `claude-mem.json` names this install (data directory) and a node and
 * claude-mem entry that still exist (the plugin starts the worker with them).
 */
export function pluginRuntimeCheck(host: HostId, dir: string, ctx: InstallContext): HostCheck {
  const id = `${host}.plugin-runtime`;
  const file = join(dir, PLUGIN_CONFIG_FILE);
  let cfg: Record<string, unknown>;
  try {
    cfg = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return { id, status: 'fail', evidence: `${file} is missing or not JSON: the plugin is not installed`, fix: `Run claude-mem install --ide ${host}.` };
  }
  const problems: string[] = [];
  for (const key of ['nodePath', 'entryPath'] as const) {
    const v = cfg[key];
    if (typeof v !== 'string' || !existsSync(v)) problems.push(`${key} ${String(v)} does not exist`);
  }
  if (cfg.dataDir !== ctx.dataDir) problems.push(`dataDir ${String(cfg.dataDir)} is not this install's ${ctx.dataDir}`);
  return problems.length
    ? { id, status: 'fail', evidence: `${file}: ${problems.join('; ')}`, fix: `Run claude-mem install --ide ${host} again (claude-mem or node moved).` }
    : { id, status: 'ok', evidence: `${file} names ${String(cfg.nodePath)} and ${String(cfg.entryPath)}` };
}

/** Why capture may be off, for the install summary. */
export function apiNote(spec: HostApiSpec, version: string | undefined, recall: string): string {
  const lines = spec.lines.map((l) => `${l}.x`).join(', ');
  return version === undefined
    ? `${spec.label}'s version could not be read here; the extension checks it when ${spec.label} loads it and captures only on ${lines} (otherwise ${recall} only).`
    : `${spec.label} ${version} is not a release the extension was proven on (${provenText(spec)}): it loads with ${recall} only and captures nothing until claude-mem supports that release.`;
}

/** Doctor: is the host's extension API one the plugin knows (capture on), or recall only? */
export function apiCheck(host: HostId, spec: HostApiSpec, version: string | undefined): HostCheck {
  const id = `${host}.api-version`;
  if (version === undefined) {
    return { id, status: 'warn', evidence: `${spec.label} version unknown (no \`${host}\` from an npm package on PATH); capture runs only on ${spec.lines.map((l) => `${l}.x`).join(', ')}`, fix: `Install ${spec.label} from npm (${spec.packages[0]}) or check that \`${host}\` is on PATH.` };
  }
  if (apiKnown(spec, version)) return { id, status: 'ok', evidence: `${spec.label} ${version}: extension API ${versionLine(version)} known (proven on ${provenText(spec)})` };
  return {
    id, status: 'warn',
    evidence: `${spec.label} ${version}: extension API not known to this claude-mem (proven on ${provenText(spec)}); the extension offers recall only and captures nothing`,
    fix: `Update claude-mem (npx claude-mem@latest install --ide ${host}), or use ${spec.label} ${spec.lines.map((l) => `${l}.x`).join(' / ')}.`,
  };
}

export const piAgentDir = (env: Env, home = homeDir(env)) => envDir(env, home, 'PI_CODING_AGENT_DIR', join('.pi', 'agent'));
const piExtensionDir = (env: Env, home = homeDir(env)) => join(piAgentDir(env, home), 'extensions', 'claude-mem');

export const pi: HostModule = {
  ...hostIdentity(piFacts),
  detect: (env) =>
    detectPackaged(env, PI_API, [{ path: piAgentDir(env), env: env.PI_CODING_AGENT_DIR ? 'PI_CODING_AGENT_DIR' : undefined }], 'pi'),
  async plan(ctx: InstallContext) {
    const version = ctx.detection.version;
    const known = apiKnown(PI_API, version);
    const notes = ['Pi has no MCP: the extension registers mem_search, mem_timeline, mem_get_observations, mem_save and mem_context itself.'];
    if (!known) notes.push(apiNote(PI_API, version, 'the recall tools'));
    return {
      capture: 'plugin',
      recall: 'native-tools',
      changes: pluginDirChanges(ctx, 'pi', piExtensionDir(ctx.env, ctx.home)),
      nextSteps: ['Start a new Pi session (or type /reload): extensions are loaded at start.'],
      notes,
    };
  },
  async checks(ctx: InstallContext): Promise<HostCheck[]> {
    return [apiCheck('pi', PI_API, ctx.detection.version), pluginRuntimeCheck('pi', piExtensionDir(ctx.env, ctx.home), ctx)];
  },
};
