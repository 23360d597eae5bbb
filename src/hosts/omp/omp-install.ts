/**
 * OMP (oh-my-pi, a fork of Pi): the same extension base as Pi in
 * `<agent dir>/extensions/claude-mem/`, and recall through MCP (`mcpServers.claude-mem` in
 * `<agent dir>/mcp.json`; OMP has MCP, so no native recall tools that would duplicate it).
 *
 * Agent dir: `OMP_CODING_AGENT_DIR` when set, else `~/.omp/profiles/<OMP_PROFILE>/agent` for a
 * named profile, else `~/.omp/agent`. (OMP 18 also honours `PI_CODING_AGENT_DIR`; that variable
 * belongs to Pi here, so it is not followed for OMP.)
 */
import { join, resolve } from 'node:path';
import { expandHome, homeDir, type Env } from '../../shared/paths.js';
import { OMP_API } from '../../plugins/omp/api.js';
import { apiKnown } from '../../plugins/pi-base/api-spec.js';
import { mcpServersChange } from '../../npx-cli/hosts/common/changes.js';
import { apiCheck, apiNote, detectPackaged, pluginDirChanges, pluginRuntimeCheck } from '../pi/pi-install.js';
import type { HostCheck, HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { ompFacts } from './omp-facts.js';

const PROFILE_RE = /^[A-Za-z0-9._-]{1,64}$/;

export function ompAgentDir(env: Env, home = homeDir(env)): string {
  if (env.OMP_CODING_AGENT_DIR) return resolve(expandHome(env.OMP_CODING_AGENT_DIR, { ...env, HOME: home }));
  const profile = env.OMP_PROFILE;
  if (profile && PROFILE_RE.test(profile) && profile !== '.' && profile !== '..') return join(home, '.omp', 'profiles', profile, 'agent');
  return join(home, '.omp', 'agent');
}

const overrideVar = (env: Env) => (env.OMP_CODING_AGENT_DIR ? 'OMP_CODING_AGENT_DIR' : env.OMP_PROFILE ? 'OMP_PROFILE' : undefined);

export const omp: HostModule = {
  ...hostIdentity(ompFacts),
  detect: (env) => detectPackaged(env, OMP_API, [{ path: ompAgentDir(env), env: overrideVar(env) }], 'omp'),
  async plan(ctx: InstallContext) {
    const dir = ompAgentDir(ctx.env, ctx.home);
    const version = ctx.detection.version;
    const notes = apiKnown(OMP_API, version) ? [] : [apiNote(OMP_API, version, 'MCP recall')];
    return {
      capture: 'plugin',
      recall: 'mcp',
      changes: [
        ...pluginDirChanges(ctx, 'omp', join(dir, 'extensions', 'claude-mem')),
        mcpServersChange(join(dir, 'mcp.json'), 'omp', ctx),
      ],
      nextSteps: ['Start a new OMP session: extensions and MCP servers are loaded at start.'],
      notes,
    };
  },
  async checks(ctx: InstallContext): Promise<HostCheck[]> {
    return [apiCheck('omp', OMP_API, ctx.detection.version), pluginRuntimeCheck('omp', join(ompAgentDir(ctx.env, ctx.home), 'extensions', 'claude-mem'), ctx)];
  },
};
