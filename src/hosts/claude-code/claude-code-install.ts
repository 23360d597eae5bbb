/**
 * Claude Code: command hooks in settings.json (user scope) and the MCP server at user scope in
 * `.claude.json`, the file `claude mcp add --scope user` writes. Both live under
 * CLAUDE_CONFIG_DIR when it is set.
 */
import { join } from 'node:path';
import { homeDir, type Env } from '../../shared/paths.js';
import { claudeHookUpserts, mcpServersChange, type HookSpec } from '../../npx-cli/hosts/common/changes.js';
import { probe } from '../../npx-cli/hosts/common/detect.js';
import { envDir } from '../../npx-cli/hosts/common/paths.js';
import { asRecord, readJsonc } from '../../npx-cli/hosts/common/read.js';
import { timeoutSeconds } from '../../npx-cli/hosts/common/timeouts.js';
import type { HostCheck, HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { claudeCodeFacts } from './claude-code-facts.js';

/** The events the claude-code adapter stores. PostToolBatch is left out: it repeats PostToolUse. */
const CLAUDE_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop',
  'SubagentStop', 'PreCompact', 'SessionEnd'] as const;
const CONTEXT_EVENTS = ['SessionStart', 'UserPromptSubmit'];

export function claudeConfigDir(env: Env, home = homeDir(env)): string {
  return envDir(env, home, 'CLAUDE_CONFIG_DIR', '.claude');
}

/** `.claude.json` sits in CLAUDE_CONFIG_DIR when set, else directly in HOME. */
function claudeJsonPath(env: Env, home = homeDir(env)): string {
  return env.CLAUDE_CONFIG_DIR ? join(claudeConfigDir(env, home), '.claude.json') : join(home, '.claude.json');
}

const claudeSpecs = (): HookSpec[] => CLAUDE_EVENTS.map((event) => ({ event, timeout: timeoutSeconds(event, CONTEXT_EVENTS) }));

export function detectClaudeCode(env: Env) {
  const home = homeDir(env);
  return probe({
    dirs: [{ path: claudeConfigDir(env, home), env: env.CLAUDE_CONFIG_DIR ? 'CLAUDE_CONFIG_DIR' : undefined }],
    files: [claudeJsonPath(env, home)],
    binaries: ['claude'],
    version: true,
    npmPackages: ['@anthropic-ai/claude-code'],
  }, env);
}

export const claudeCode: HostModule = {
  ...hostIdentity(claudeCodeFacts),
  detect: detectClaudeCode,
  async plan(ctx: InstallContext) {
    const settings = join(claudeConfigDir(ctx.env, ctx.home), 'settings.json');
    // "disableAllHooks": true switches off every hook, ours included: left as the user set it.
    const off = asRecord(readJsonc(settings))?.disableAllHooks === true;
    return {
      capture: 'hooks',
      recall: 'mcp',
      changes: [
        ...claudeHookUpserts(settings, 'claude-code', ctx, claudeSpecs()),
        mcpServersChange(claudeJsonPath(ctx.env, ctx.home), 'claude-code', ctx, { env: {} }, { type: 'stdio' }),
      ],
      ...(off && {
        killSwitch: {
          setting: '"disableAllHooks": true', file: settings, howToEnable: `remove "disableAllHooks": true from ${settings}`,
          enable: [{ kind: 'json-set', file: settings, host: 'claude-code', path: ['disableAllHooks'], value: false }],
        },
      }),
      nextSteps: ['Restart open Claude Code sessions: hooks and MCP servers are read at start.'],
      notes: [
        'Cursor and Grok also run Claude Code\'s user hooks; the hook recognises their payloads and leaves those events to their own writers.',
      ],
    };
  },
  async checks(ctx: InstallContext): Promise<HostCheck[]> {
    const file = join(claudeConfigDir(ctx.env, ctx.home), 'settings.json');
    const off = asRecord(readJsonc(file))?.disableAllHooks === true;
    return [{
      id: 'claude-code.hooks-enabled',
      status: off ? 'fail' : 'ok',
      evidence: off ? `${file} sets "disableAllHooks": true` : `hooks are not disabled in ${file}`,
      ...(off && { fix: `Remove "disableAllHooks" from ${file} (it switches off every hook, claude-mem's included), or run \`claude-mem install --ide claude-code --enable-hooks\`.` }),
    }];
  },
};
