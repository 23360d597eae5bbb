/**
 * Warp: MCP only, in `~/.warp/.mcp.json` (global servers start automatically). Warp can also add
 * servers in its UI, so the summary carries the JSON to paste there.
 */
import { join } from 'node:path';
import { homeDir, type Env } from '../../shared/paths.js';
import { jsonText, mcpServersChange } from '../../npx-cli/hosts/common/changes.js';
import { MCP_KEY, mcpServer } from '../../npx-cli/hosts/common/command.js';
import { isDir, probe } from '../../npx-cli/hosts/common/detect.js';
import { xdgDir } from '../../npx-cli/hosts/common/paths.js';
import type { HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { warpFacts } from './warp-facts.js';

const warpDir = (env: Env, home = homeDir(env)) => join(home, '.warp');

export const warp: HostModule = {
  ...hostIdentity(warpFacts),
  async detect(env) {
    const home = homeDir(env);
    const found = await probe({
      dirs: [
        { path: warpDir(env, home) },
        { path: join(xdgDir(env, home, 'XDG_CONFIG_HOME'), 'warp-terminal') },
        { path: join(xdgDir(env, home, 'XDG_DATA_HOME'), 'warp-terminal') },
      ],
      binaries: ['warp-terminal', 'warp'],
    }, env);
    // The macOS app lives outside HOME.
    if (process.platform === 'darwin' && isDir('/Applications/Warp.app')) {
      found.evidence.push({ kind: 'dir', detail: '/Applications/Warp.app' });
      found.installed = true;
    }
    return found;
  },
  async plan(ctx: InstallContext) {
    const snippet = jsonText({ [MCP_KEY]: mcpServer(ctx) }).trimEnd();
    return {
      capture: 'none',
      recall: 'mcp',
      changes: [mcpServersChange(join(warpDir(ctx.env, ctx.home), '.mcp.json'), 'warp', ctx)],
      nextSteps: [
        'Restart Warp so it starts the claude-mem MCP server from ~/.warp/.mcp.json.',
        `If Warp does not list it, add it in Settings → AI → MCP servers → Add, pasting:\n${snippet}`,
      ],
      notes: ['Warp has no agent hooks: it can search and save memories through MCP, but its sessions are not captured.'],
    };
  },
};
