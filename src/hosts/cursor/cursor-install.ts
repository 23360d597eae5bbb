/**
 * Cursor: `~/.cursor/hooks.json` (`version: 1`, camelCase events, flat handler lists) and
 * `~/.cursor/mcp.json`. Only after-events and the prompt: a before* permission hook answered with
 * "allow" would bypass the user's own approval, so none is registered.
 */
import { join } from 'node:path';
import type { Change } from '../../npx-cli/engine/index.js';
import { homeDir, type Env } from '../../shared/paths.js';
import { mcpServersChange } from '../../npx-cli/hosts/common/changes.js';
import { hookCommand, hookMatcher, isOurHookCommand } from '../../npx-cli/hosts/common/command.js';
import { probe } from '../../npx-cli/hosts/common/detect.js';
import { asRecord, readJsonc } from '../../npx-cli/hosts/common/read.js';
import { timeoutSeconds } from '../../npx-cli/hosts/common/timeouts.js';
import { claudeConfigDir } from '../claude-code/claude-code-install.js';
import type { HostCheck, HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { cursorFacts } from './cursor-facts.js';

/**
 * Stored by the cursor adapter. `stop` carries no message (afterAgentResponse has it); postToolUse
 * would repeat the shell and MCP after-events.
 */
const CURSOR_EVENTS = ['sessionStart', 'beforeSubmitPrompt', 'afterShellExecution', 'afterMCPExecution',
  'afterFileEdit', 'afterAgentResponse', 'preCompact', 'sessionEnd'] as const;
const CONTEXT_EVENTS = ['sessionStart'];

/** Claude Code events Cursor also runs from `~/.claude/settings.json` ("third-party hooks"). */
const CLAUDE_OVERLAP = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop', 'SessionEnd', 'PreCompact'];

const cursorDir = (env: Env, home = homeDir(env)) => join(home, '.cursor');

export const cursor: HostModule = {
  ...hostIdentity(cursorFacts),
  detect: (env) => probe({ dirs: [{ path: cursorDir(env) }], binaries: ['cursor-agent', 'cursor'] }, env),
  async plan(ctx: InstallContext) {
    const dir = cursorDir(ctx.env, ctx.home);
    const hooks = join(dir, 'hooks.json');
    const existing = asRecord(readJsonc(hooks));
    const changes: Change[] = [
      // Only when absent: a file that already declares a version keeps it.
      ...(existing && 'version' in existing ? [] : [{ kind: 'json-set', file: hooks, host: 'cursor', path: ['version'], value: 1 } as const]),
      ...CURSOR_EVENTS.map((event): Change => ({
        kind: 'json-array-upsert',
        file: hooks,
        host: 'cursor',
        path: ['hooks', event],
        match: hookMatcher(ctx, 'cursor', event, ['command']),
        entry: { command: hookCommand(ctx, 'cursor', event), timeout: timeoutSeconds(event, CONTEXT_EVENTS) },
      })),
      mcpServersChange(join(dir, 'mcp.json'), 'cursor', ctx),
    ];
    return {
      capture: 'hooks',
      recall: 'mcp',
      changes,
      nextSteps: ['Restart Cursor (or reload the window) so it reads hooks.json and mcp.json again.'],
      notes: [
        'Cursor also runs Claude Code hooks; claude-mem\'s Claude Code hook recognises Cursor\'s payloads and drops them, so nothing is stored twice.',
        // Reported upstream (forum.cursor.com, sessionStart additional_context never injected): the CLI honours it.
        'Session-start memory reaches the Cursor CLI (cursor-agent); the Cursor editor is reported to drop it, so there memory comes through the claude-mem MCP tools.',
      ],
    };
  },
  async checks(ctx: InstallContext): Promise<HostCheck[]> {
    const file = join(claudeConfigDir(ctx.env, ctx.home), 'settings.json');
    const hooks = asRecord(asRecord(readJsonc(file))?.hooks) ?? {};
    // Other memory tools' Claude-format hooks run under Cursor too, without a caller check of ours.
    const foreign = CLAUDE_OVERLAP.filter((event) => flatCommands(hooks[event])
      .some((c) => /claude-mem|memory|mem0/i.test(c) && !isOurHookCommand(c, 'claude-code')));
    return [{
      id: 'cursor.third-party-hooks',
      status: foreign.length ? 'warn' : 'ok',
      evidence: foreign.length
        ? `${file} has memory-tool hooks for ${foreign.join(', ')} that Cursor runs too, with no caller check`
        : 'no Claude-format memory hooks that Cursor would run unguarded',
      ...(foreign.length && { fix: 'Remove the other memory tool\'s Claude Code hooks, or turn off third-party hooks in Cursor\'s settings.' }),
    }];
  },
};

function flatCommands(groups: unknown): string[] {
  const out: string[] = [];
  for (const g of Array.isArray(groups) ? groups : []) {
    for (const h of Array.isArray(asRecord(g)?.hooks) ? (asRecord(g)!.hooks as unknown[]) : []) {
      const c = asRecord(h)?.command;
      if (typeof c === 'string') out.push(c);
    }
  }
  return out;
}
