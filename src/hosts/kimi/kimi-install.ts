/**
 * Kimi: `[[hooks]]` entries in `config.toml` and `mcp.json` in the same directory. Kimi Code
 * (`~/.kimi-code`, KIMI_CODE_HOME) wins over the older kimi-cli (`~/.kimi`, KIMI_SHARE_DIR), which
 * is used only when it alone exists. Kimi Code refuses a config whose hook has any field besides
 * event, matcher, command and timeout, so our entries have exactly those (matcher left out).
 */
import { join } from 'node:path';
import type { Change } from '../../npx-cli/engine/index.js';
import { homeDir, type Env } from '../../shared/paths.js';
import { mcpServersChange } from '../../npx-cli/hosts/common/changes.js';
import { hookCommand, hookMatcher, isOurHookCommand } from '../../npx-cli/hosts/common/command.js';
import { isDir, probe } from '../../npx-cli/hosts/common/detect.js';
import { envDir } from '../../npx-cli/hosts/common/paths.js';
import { asRecord, readToml } from '../../npx-cli/hosts/common/read.js';
import { timeoutSeconds } from '../../npx-cli/hosts/common/timeouts.js';
import type { HostCheck, HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { kimiFacts } from './kimi-facts.js';

const KIMI_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop',
  'SubagentStop', 'PreCompact', 'SessionEnd'] as const;
/** Kimi Code only: TurnStarted writes the prompt with the host's turn id (kimi-cli has no such event). */
const KIMI_CODE_EVENTS = [...KIMI_EVENTS, 'TurnStarted'] as const;
const CONTEXT_EVENTS = ['SessionStart', 'UserPromptSubmit'];
const ALLOWED_FIELDS = new Set(['event', 'matcher', 'command', 'timeout']);

interface KimiTarget {
  dir: string;
  generation: 'kimi-code' | 'kimi-cli';
}

/** Which Kimi to configure: Kimi Code unless only the older kimi-cli directory exists. */
function kimiTarget(env: Env, home = homeDir(env)): KimiTarget {
  const code = envDir(env, home, 'KIMI_CODE_HOME', '.kimi-code');
  const cli = envDir(env, home, 'KIMI_SHARE_DIR', '.kimi');
  if (env.KIMI_CODE_HOME || isDir(code) || !isDir(cli)) return { dir: code, generation: 'kimi-code' };
  return { dir: cli, generation: 'kimi-cli' };
}

export const kimi: HostModule = {
  ...hostIdentity(kimiFacts),
  async detect(env) {
    const home = homeDir(env);
    const target = kimiTarget(env, home);
    return probe({
      dirs: [
        { path: envDir(env, home, 'KIMI_CODE_HOME', '.kimi-code'), env: env.KIMI_CODE_HOME ? 'KIMI_CODE_HOME' : undefined },
        { path: envDir(env, home, 'KIMI_SHARE_DIR', '.kimi'), env: env.KIMI_SHARE_DIR ? 'KIMI_SHARE_DIR' : undefined },
      ],
      binaries: ['kimi'],
      version: true,
      facts: { generation: target.generation, configDir: target.dir },
    }, env);
  },
  async plan(ctx: InstallContext) {
    const { dir, generation } = kimiTarget(ctx.env, ctx.home);
    const config = join(dir, 'config.toml');
    const events = generation === 'kimi-code' ? KIMI_CODE_EVENTS : KIMI_EVENTS;
    const changes: Change[] = [
      ...events.map((event): Change => ({
        kind: 'toml-array-entry',
        file: config,
        host: 'kimi',
        array: ['hooks'],
        match: [{ path: ['event'], equals: event }, ...hookMatcher(ctx, 'kimi', event, ['command'])],
        entry: { event, command: hookCommand(ctx, 'kimi', event), timeout: timeoutSeconds(event, CONTEXT_EVENTS) },
      })),
      mcpServersChange(join(dir, 'mcp.json'), 'kimi', ctx),
    ];
    return {
      capture: 'hooks',
      recall: 'mcp',
      changes,
      nextSteps: [`Restart Kimi so it reads ${config} and ${join(dir, 'mcp.json')}.`],
      notes: [generation === 'kimi-cli'
        ? `Configured the older kimi-cli (${dir}); Kimi Code (~/.kimi-code) was not found.`
        : `Configured Kimi Code (${dir}).`],
    };
  },
  async checks(ctx: InstallContext): Promise<HostCheck[]> {
    const { dir } = kimiTarget(ctx.env, ctx.home);
    const file = join(dir, 'config.toml');
    const hooks = readToml(file)?.hooks;
    const bad = (Array.isArray(hooks) ? hooks : []).map((h) => asRecord(h) ?? {})
      .filter((h) => Object.keys(h).some((k) => !ALLOWED_FIELDS.has(k)));
    const ours = bad.filter((h) => isOurHookCommand(h.command, 'kimi'));
    return [{
      id: 'kimi.hook-fields',
      status: ours.length ? 'fail' : bad.length ? 'warn' : 'ok',
      evidence: bad.length
        ? `${bad.length} [[hooks]] entr${bad.length === 1 ? 'y has' : 'ies have'} fields other than event, matcher, command, timeout in ${file} (${ours.length} of claude-mem's)`
        : `every [[hooks]] entry in ${file} has only event, matcher, command, timeout`,
      ...(bad.length && { fix: `Remove the extra fields from those [[hooks]] entries in ${file}: Kimi Code refuses to load the config otherwise.` }),
    }];
  },
};
