/**
 * GitHub Copilot CLI: a hooks file of ours in `~/.copilot/hooks/` (COPILOT_HOME) in Copilot's own
 * camelCase dialect (`version`, `bash`, `timeoutSec`), and `mcpServers.claude-mem` in
 * `~/.copilot/mcp-config.json`. Only one dialect is registered: Copilot fires camelCase and
 * PascalCase hooks at every point, so both would store each event twice.
 */
import { join } from 'node:path';
import { readdirSync } from 'node:fs';
import { homeDir, type Env } from '../../shared/paths.js';
import { fileChange, mcpServersChange } from '../../npx-cli/hosts/common/changes.js';
import { hookCommand } from '../../npx-cli/hosts/common/command.js';
import { probe } from '../../npx-cli/hosts/common/detect.js';
import { envDir } from '../../npx-cli/hosts/common/paths.js';
import { asRecord, readJsonc } from '../../npx-cli/hosts/common/read.js';
import { timeoutSeconds } from '../../npx-cli/hosts/common/timeouts.js';
import type { HostCheck, HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { copilotFacts } from './copilot-facts.js';

/** Copilot's own event names (camelCase payloads); context reaches the model from the first two. */
const COPILOT_EVENTS = ['sessionStart', 'userPromptSubmitted', 'postToolUse', 'postToolUseFailure', 'agentStop',
  'preCompact', 'sessionEnd'] as const;
const CONTEXT_EVENTS = ['sessionStart', 'userPromptSubmitted'];

const copilotHome = (env: Env, home = homeDir(env)) => envDir(env, home, 'COPILOT_HOME', '.copilot');

function hooksDocument(ctx: InstallContext) {
  return {
    version: 1,
    hooks: Object.fromEntries(COPILOT_EVENTS.map((event) => [event, [{
      type: 'command', bash: hookCommand(ctx, 'copilot', event), timeoutSec: timeoutSeconds(event, CONTEXT_EVENTS),
    }]])),
  };
}

export const copilot: HostModule = {
  ...hostIdentity(copilotFacts),
  detect: (env) => probe({
    dirs: [{ path: copilotHome(env), env: env.COPILOT_HOME ? 'COPILOT_HOME' : undefined }],
    binaries: ['copilot'],
    version: true,
    npmPackages: ['@github/copilot'],
  }, env),
  async plan(ctx: InstallContext) {
    const dir = copilotHome(ctx.env, ctx.home);
    return {
      capture: 'hooks',
      recall: 'mcp',
      changes: [
        fileChange(join(dir, 'hooks', 'claude-mem.json'), 'copilot', hooksDocument(ctx)),
        mcpServersChange(join(dir, 'mcp-config.json'), 'copilot', ctx, { tools: ['*'] }, { type: 'local' }),
      ],
      nextSteps: ['Restart Copilot CLI so it loads ~/.copilot/hooks/claude-mem.json and the MCP server.'],
      notes: ['Copilot also reads hooks from a repository\'s .claude/settings.json; claude-mem\'s Claude Code hook recognises Copilot\'s payloads and drops them.'],
    };
  },
  async checks(ctx: InstallContext): Promise<HostCheck[]> {
    const dir = copilotHome(ctx.env, ctx.home);
    const dialects = new Map<string, string[]>(); // 'camel' | 'pascal' → files
    const sources = hookFiles(join(dir, 'hooks')).concat(join(dir, 'settings.json'));
    for (const file of sources) {
      const hooks = asRecord(asRecord(readJsonc(file))?.hooks) ?? {};
      for (const [event, list] of Object.entries(hooks)) {
        if (!JSON.stringify(list).includes(' hook copilot ')) continue;
        const kind = /^[A-Z]/.test(event) ? 'pascal' : 'camel';
        dialects.set(kind, [...new Set([...(dialects.get(kind) ?? []), file])]);
      }
    }
    const off = asRecord(readJsonc(join(dir, 'settings.json')))?.disableAllHooks === true;
    const both = dialects.size > 1;
    return [
      {
        id: 'copilot.one-dialect',
        status: both ? 'fail' : dialects.size === 1 ? 'ok' : 'warn',
        evidence: both
          ? `claude-mem hooks are registered in both dialects (${[...dialects].map(([k, f]) => `${k}: ${f.join(', ')}`).join('; ')}): every event is stored twice`
          : dialects.size === 1 ? `claude-mem hooks use one dialect (${[...dialects.keys()][0]}case)` : `no claude-mem hooks under ${dir}`,
        ...(both ? { fix: 'Keep ~/.copilot/hooks/claude-mem.json (camelCase) and remove the PascalCase claude-mem hooks.' }
          : dialects.size === 0 ? { fix: 'Run claude-mem install --ide copilot.' } : {}),
      },
      {
        id: 'copilot.hooks-enabled',
        status: off ? 'fail' : 'ok',
        evidence: off ? `${join(dir, 'settings.json')} sets "disableAllHooks": true` : 'hooks are not disabled',
        ...(off && { fix: `Remove "disableAllHooks" from ${join(dir, 'settings.json')}.` }),
      },
    ];
  },
};

function hookFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.endsWith('.json')).sort().map((n) => join(dir, n));
  } catch {
    return [];
  }
}
