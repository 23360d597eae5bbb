/**
 * Grok Build (`grok`, xAI): a hooks file of ours in `~/.grok/hooks/` (GROK_HOME) in Claude's
 * layout, and `[mcp_servers.claude-mem]` in `~/.grok/config.toml`. Grok also runs Claude Code's and
 * Cursor's user hooks with its own payloads; those copies recognise Grok's payload and drop the
 * event, so each event is stored once, under grok.
 */
import { join } from 'node:path';
import { homeDir, type Env } from '../../shared/paths.js';
import { fileChange, claudeHooksDocument, type HookSpec } from '../../npx-cli/hosts/common/changes.js';
import { MCP_KEY, mcpServer } from '../../npx-cli/hosts/common/command.js';
import { isFile, probe } from '../../npx-cli/hosts/common/detect.js';
import { envDir } from '../../npx-cli/hosts/common/paths.js';
import { timeoutSeconds } from '../../npx-cli/hosts/common/timeouts.js';
import type { HostCheck, HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { grokFacts } from './grok-facts.js';

const GROK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop',
  'SubagentStop', 'PreCompact', 'SessionEnd'] as const;
/** UserPromptSubmit is observe-only in Grok: only SessionStart can bring context. */
const CONTEXT_EVENTS = ['SessionStart'];

const grokHome = (env: Env, home = homeDir(env)) => envDir(env, home, 'GROK_HOME', '.grok');

const specs = (): HookSpec[] => GROK_EVENTS.map((event) => ({ event, timeout: timeoutSeconds(event, CONTEXT_EVENTS) }));

/** `user-settings.json` without `config.toml` is the community `@vibe-kit/grok-cli`, which has no hooks. */
function isVibeKitGrok(dir: string): boolean {
  return isFile(join(dir, 'user-settings.json')) && !isFile(join(dir, 'config.toml'));
}

export const grok: HostModule = {
  ...hostIdentity(grokFacts),
  detect(env) {
    const dir = grokHome(env);
    return probe({
      dirs: [{ path: dir, env: env.GROK_HOME ? 'GROK_HOME' : undefined }],
      binaries: ['grok'],
      version: true,
      facts: { flavor: isVibeKitGrok(dir) ? 'vibe-kit-grok-cli' : 'grok-build' },
    }, env);
  },
  async plan(ctx: InstallContext) {
    const dir = grokHome(ctx.env, ctx.home);
    return {
      capture: 'hooks',
      recall: 'mcp',
      changes: [
        fileChange(join(dir, 'hooks', 'claude-mem.json'), 'grok', claudeHooksDocument(ctx, 'grok', specs())),
        { kind: 'toml-table', file: join(dir, 'config.toml'), host: 'grok', table: ['mcp_servers', MCP_KEY], value: mcpServer(ctx) },
      ],
      nextSteps: ['Restart Grok so it loads ~/.grok/hooks/claude-mem.json and the MCP server.'],
      notes: [
        'Grok also runs Claude Code and Cursor user hooks; claude-mem\'s copies there recognise Grok\'s payloads and drop them, so nothing is stored twice.',
        ...(isVibeKitGrok(dir) ? ['The grok found looks like the community Grok CLI (@vibe-kit/grok-cli), which runs no hooks: capture needs xAI\'s Grok Build.'] : []),
      ],
    };
  },
  async checks(ctx: InstallContext): Promise<HostCheck[]> {
    const dir = grokHome(ctx.env, ctx.home);
    const vibe = isVibeKitGrok(dir);
    return [{
      id: 'grok.hooks-supported',
      status: vibe ? 'warn' : 'ok',
      evidence: vibe ? `${dir} holds user-settings.json and no config.toml: the community Grok CLI, which has no hooks` : `${dir} is a Grok Build home`,
      ...(vibe && { fix: 'Install xAI\'s Grok Build CLI for capture; the community Grok CLI cannot run hooks.' }),
    }];
  },
};
