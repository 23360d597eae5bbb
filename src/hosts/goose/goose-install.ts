/**
 * Goose: a user plugin `~/.agents/plugins/claude-mem/` (plugin.json + hooks/hooks.json, Open
 * Plugins layout, commands run with `sh -c`) and the `extensions.claude-mem` entry in
 * `~/.config/goose/config.yaml` (Goose reads `extensions:`, not `mcpServers:`). Tool calls are
 * captured from PostToolUse only; the After* events would store them a second time.
 */
import { join } from 'node:path';
import { homeDir, type Env } from '../../shared/paths.js';
import { VERSION } from '../../shared/version.js';
import { claudeHooksDocument, fileChange, type HookSpec } from '../../npx-cli/hosts/common/changes.js';
import { MCP_KEY, mcpServer } from '../../npx-cli/hosts/common/command.js';
import { probe } from '../../npx-cli/hosts/common/detect.js';
import { xdgDir } from '../../npx-cli/hosts/common/paths.js';
import { asRecord, readJsonc } from '../../npx-cli/hosts/common/read.js';
import { CAPTURE_TIMEOUT_S } from '../../npx-cli/hosts/common/timeouts.js';
import type { HostCheck, HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { gooseFacts } from './goose-facts.js';

const GOOSE_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SessionEnd'] as const;
/** Goose's default for an extension's tool calls, in seconds. */
const EXTENSION_TIMEOUT_S = 300;

const gooseConfigDir = (env: Env, home = homeDir(env)) => join(xdgDir(env, home, 'XDG_CONFIG_HOME'), 'goose');
const goosePluginDir = (home: string) => join(home, '.agents', 'plugins', 'claude-mem');

/** Goose does not read hook output: every hook is capture-only. */
const specs = (): HookSpec[] => GOOSE_EVENTS.map((event) => ({ event, timeout: CAPTURE_TIMEOUT_S }));

export const goose: HostModule = {
  ...hostIdentity(gooseFacts),
  detect: (env) => probe({ dirs: [{ path: gooseConfigDir(env) }], binaries: ['goose'], version: true }, env),
  async plan(ctx: InstallContext) {
    const plugin = goosePluginDir(ctx.home);
    const manifest = { name: 'claude-mem', version: VERSION, description: 'Stores goose sessions in claude-mem, the shared local memory of your coding agents.' };
    return {
      capture: 'hooks',
      recall: 'mcp',
      changes: [
        fileChange(join(plugin, 'plugin.json'), 'goose', manifest),
        fileChange(join(plugin, 'hooks', 'hooks.json'), 'goose', claudeHooksDocument(ctx, 'goose', specs())),
        {
          kind: 'yaml-set',
          file: join(gooseConfigDir(ctx.env, ctx.home), 'config.yaml'),
          host: 'goose',
          path: ['extensions', MCP_KEY],
          value: {
            enabled: true,
            type: 'stdio',
            name: MCP_KEY,
            description: 'Search and save memories shared by your coding agents',
            cmd: mcpServer(ctx).command,
            args: mcpServer(ctx).args,
            envs: {},
            timeout: EXTENSION_TIMEOUT_S,
          },
        },
      ],
      nextSteps: ['Start a new goose session: plugins and extensions are loaded at start.'],
      notes: ['Goose hooks cannot add context; memory reaches goose through the claude-mem extension (MCP).'],
    };
  },
  async checks(ctx: InstallContext): Promise<HostCheck[]> {
    const file = join(gooseConfigDir(ctx.env, ctx.home), 'settings.json');
    const disabled = asRecord(readJsonc(file))?.disabledPlugins;
    const off = Array.isArray(disabled) && disabled.includes(MCP_KEY);
    return [{
      id: 'goose.plugin-enabled',
      status: off ? 'fail' : 'ok',
      evidence: off ? `${file} lists claude-mem in disabledPlugins` : 'the claude-mem plugin is not disabled',
      ...(off && { fix: `Remove "claude-mem" from disabledPlugins in ${file}.` }),
    }];
  },
};
