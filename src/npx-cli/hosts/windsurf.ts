/**
 * Windsurf (Cascade): user hooks in `~/.codeium/windsurf/hooks.json` (snake_case events, flat
 * handler lists, no timeout field) and `mcp_config.json` next to it. Windsurf hooks cannot inject
 * context, so every hook is capture-only.
 */
import { join } from 'node:path';
import type { Change } from '../engine/index.js';
import { homeDir, type Env } from '../../shared/paths.js';
import { mcpServersChange } from './common/changes.js';
import { hookCommand, hookMatcher } from './common/command.js';
import { probe } from './common/detect.js';
import type { HostModule, InstallContext } from './types.js';

/** One cascade-response variant only (post_cascade_response carries the text itself). */
export const WINDSURF_EVENTS = ['pre_user_prompt', 'post_run_command', 'post_read_code', 'post_write_code',
  'post_mcp_tool_use', 'post_cascade_response'] as const;

export const windsurfDir = (env: Env, home = homeDir(env)) => join(home, '.codeium', 'windsurf');

export const windsurf: HostModule = {
  id: 'windsurf',
  label: 'Windsurf',
  aliases: [],
  detect: (env) => probe({ dirs: [{ path: windsurfDir(env) }], binaries: ['windsurf'] }, env),
  async plan(ctx: InstallContext) {
    const dir = windsurfDir(ctx.env, ctx.home);
    const hooks = join(dir, 'hooks.json');
    const changes: Change[] = [
      ...WINDSURF_EVENTS.map((event): Change => ({
        kind: 'json-array-upsert',
        file: hooks,
        host: 'windsurf',
        path: ['hooks', event],
        match: hookMatcher(ctx, 'windsurf', event, ['command']),
        entry: { command: hookCommand(ctx, 'windsurf', event), show_output: false },
      })),
      mcpServersChange(join(dir, 'mcp_config.json'), 'windsurf', ctx),
    ];
    return {
      capture: 'hooks',
      recall: 'mcp',
      changes,
      nextSteps: ['Reload Windsurf so Cascade picks up hooks.json and the MCP server (Settings → Cascade → MCP servers → Refresh).'],
      notes: ['Windsurf hooks cannot add context to the conversation; memory reaches Cascade through the MCP tools.'],
    };
  },
};
