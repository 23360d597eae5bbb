/**
 * Windsurf (Cascade), in its two flavours (docs.windsurf.com, Cascade hooks and MCP):
 * - the Windsurf editor reads user hooks from `~/.codeium/windsurf/hooks.json` and MCP servers
 *   from `~/.codeium/windsurf/mcp_config.json`;
 * - the Windsurf plugin for JetBrains IDEs reads `~/.codeium/hooks.json` and
 *   `~/.codeium/mcp_config.json`.
 * Each flavour reads only its own user file, so writing both (when both are installed) runs
 * claude-mem's hook once per flavour: one capture writer per program. Hooks are snake_case
 * events with flat handler lists and no timeout field; they cannot inject context, so every hook
 * is capture-only.
 */
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import type { Change } from '../../npx-cli/engine/index.js';
import { homeDir, type Env } from '../../shared/paths.js';
import { mcpServersChange } from '../../npx-cli/hosts/common/changes.js';
import { hookCommand, hookMatcher } from '../../npx-cli/hosts/common/command.js';
import { isDir, probe } from '../../npx-cli/hosts/common/detect.js';
import { xdgDir } from '../../npx-cli/hosts/common/paths.js';
import type { DetectEvidence, HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { windsurfFacts } from './windsurf-facts.js';

/** One cascade-response variant only (post_cascade_response carries the text itself). */
const WINDSURF_EVENTS = ['pre_user_prompt', 'post_run_command', 'post_read_code', 'post_write_code',
  'post_mcp_tool_use', 'post_cascade_response'] as const;

const codeiumDir = (env: Env, home = homeDir(env)) => join(home, '.codeium');
/** The Windsurf editor's user directory. */
const windsurfDir = (env: Env, home = homeDir(env)) => join(codeiumDir(env, home), 'windsurf');

/** Where JetBrains IDEs keep installed plugins: `<root>/<IDE>/` on Linux, `<root>/<IDE>/plugins/` on macOS. */
function jetbrainsPluginRoots(env: Env, home: string): string[] {
  const roots = [join(xdgDir(env, home, 'XDG_DATA_HOME'), 'JetBrains'), join(home, 'Library', 'Application Support', 'JetBrains')];
  const list = (d: string): string[] => {
    try {
      return readdirSync(d).map((n) => join(d, n));
    } catch {
      return [];
    }
  };
  return roots.flatMap(list).flatMap((ide) => [ide, join(ide, 'plugins')]);
}

/** Installed Windsurf (formerly Codeium) JetBrains plugin folders. */
function windsurfJetbrainsPlugins(env: Env, home = homeDir(env)): string[] {
  return jetbrainsPluginRoots(env, home)
    .flatMap((dir) => {
      try {
        return readdirSync(dir).map((n) => join(dir, n));
      } catch {
        return [];
      }
    })
    .filter((p) => /^(codeium|windsurf)/i.test(basename(p)) && isDir(p))
    .sort();
}

/** The user directories claude-mem writes: each flavour's own, the editor's when neither is found. */
function windsurfTargets(env: Env, home = homeDir(env)): string[] {
  const jetbrains = windsurfJetbrainsPlugins(env, home).length > 0;
  const editor = isDir(windsurfDir(env, home));
  return [...(editor || !jetbrains ? [windsurfDir(env, home)] : []), ...(jetbrains ? [codeiumDir(env, home)] : [])];
}

/** Which program reads a hooks file (doctor: our hook once per program, not once per host). */
function windsurfHookReader(file: string): string {
  return basename(dirname(file)) === 'windsurf' ? 'the Windsurf editor' : 'the Windsurf JetBrains plugin';
}

function hookChanges(ctx: InstallContext, dir: string): Change[] {
  const hooks = join(dir, 'hooks.json');
  return WINDSURF_EVENTS.map((event): Change => ({
    kind: 'json-array-upsert',
    file: hooks,
    host: 'windsurf',
    path: ['hooks', event],
    match: hookMatcher(ctx, 'windsurf', event, ['command']),
    entry: { command: hookCommand(ctx, 'windsurf', event), show_output: false },
  }));
}

export const windsurf: HostModule = {
  ...hostIdentity(windsurfFacts),
  async detect(env) {
    const d = await probe({ dirs: [{ path: windsurfDir(env) }], binaries: ['windsurf'] }, env);
    const plugins = windsurfJetbrainsPlugins(env).map((p): DetectEvidence => ({ kind: 'dir', detail: p }));
    const evidence = [...d.evidence, ...plugins];
    return { ...d, installed: evidence.length > 0, evidence, facts: { ...d.facts, jetbrains: plugins.length > 0 } };
  },
  hookReader: windsurfHookReader,
  async plan(ctx: InstallContext) {
    const dirs = windsurfTargets(ctx.env, ctx.home);
    const changes = dirs.flatMap((dir) => [...hookChanges(ctx, dir), mcpServersChange(join(dir, 'mcp_config.json'), 'windsurf', ctx)]);
    return {
      capture: 'hooks',
      recall: 'mcp',
      changes,
      nextSteps: ['Reload Windsurf (and restart JetBrains IDEs with the Windsurf plugin) so Cascade reads hooks.json and the MCP server (Cascade → MCP servers → Refresh).'],
      notes: [
        'Windsurf hooks cannot add context to the conversation; memory reaches Cascade through the MCP tools.',
        'Windsurf\'s hooks carry no command output: a terminal command is stored with its command line and folder, a file read with its path.',
        ...(dirs.length > 1 ? ['The Windsurf editor and the JetBrains plugin each read only their own hooks.json, so each runs claude-mem\'s hook once.'] : []),
      ],
    };
  },
};
