/**
 * Gemini CLI: hooks and `mcpServers.claude-mem` in `~/.gemini/settings.json` (GEMINI_CLI_HOME
 * replaces HOME). Gemini's hook timeouts are in milliseconds. The matcher is `*` and
 * `hooksConfig.enabled` is on, as in the configuration the real host was run with; some Gemini
 * releases run no hooks without that switch. A switch the user turned off stays off (doctor says so).
 */
import { join, resolve } from 'node:path';
import type { Change } from '../../npx-cli/engine/index.js';
import { expandHome, homeDir, type Env } from '../../shared/paths.js';
import { claudeHookUpserts, mcpServersChange, type HookSpec } from '../../npx-cli/hosts/common/changes.js';
import { MCP_KEY } from '../../npx-cli/hosts/common/command.js';
import { probe } from '../../npx-cli/hosts/common/detect.js';
import { asRecord, readJsonc } from '../../npx-cli/hosts/common/read.js';
import { timeoutSeconds } from '../../npx-cli/hosts/common/timeouts.js';
import type { HostCheck, HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { geminiFacts } from './gemini-facts.js';

/** PreCompress is left out: Gemini fires it before every model call and the adapter stores nothing. */
const GEMINI_EVENTS = ['SessionStart', 'BeforeAgent', 'AfterTool', 'AfterAgent', 'SessionEnd'] as const;
const CONTEXT_EVENTS = ['SessionStart', 'BeforeAgent'];

function geminiDir(env: Env, home = homeDir(env)): string {
  const base = env.GEMINI_CLI_HOME ? resolve(expandHome(env.GEMINI_CLI_HOME, { ...env, HOME: home })) : home;
  return join(base, '.gemini');
}

const specs = (): HookSpec[] => GEMINI_EVENTS.map((event) => ({ event, timeout: timeoutSeconds(event, CONTEXT_EVENTS) * 1000 }));

export const gemini: HostModule = {
  ...hostIdentity(geminiFacts),
  detect(env) {
    const dir = geminiDir(env);
    return probe({
      // ~/.gemini alone is no proof: Antigravity keeps its files there too.
      dirs: env.GEMINI_CLI_HOME ? [{ path: dir, env: 'GEMINI_CLI_HOME' }] : [],
      files: [join(dir, 'settings.json'), join(dir, 'projects.json')],
      binaries: ['gemini'],
      version: true,
      npmPackages: ['@google/gemini-cli'],
    }, env);
  },
  async plan(ctx: InstallContext) {
    const settings = join(geminiDir(ctx.env, ctx.home), 'settings.json');
    const enabled = asRecord(asRecord(readJsonc(settings))?.hooksConfig)?.enabled;
    const changes: Change[] = [
      ...(enabled === undefined ? [{ kind: 'json-set', file: settings, host: 'gemini', path: ['hooksConfig', 'enabled'], value: true } as const] : []),
      ...claudeHookUpserts(settings, 'gemini', ctx, specs(), { matcher: '*', handlerExtra: { name: MCP_KEY } }),
      mcpServersChange(settings, 'gemini', ctx),
    ];
    return {
      capture: 'hooks',
      recall: 'mcp',
      changes,
      nextSteps: [
        'Restart Gemini CLI so it loads the claude-mem hooks and MCP server (check with /hooks and /mcp).',
        ...(enabled === false ? [`Hooks are switched off in ${settings} (hooksConfig.enabled: false); claude-mem captures nothing until you switch them on.`] : []),
      ],
      notes: [],
    };
  },
  async checks(ctx: InstallContext): Promise<HostCheck[]> {
    const file = join(geminiDir(ctx.env, ctx.home), 'settings.json');
    const settings = asRecord(readJsonc(file));
    const cfg = asRecord(settings?.hooksConfig);
    const off = cfg?.enabled === false;
    const disabled = Array.isArray(cfg?.disabled) && (cfg!.disabled as unknown[]).includes(MCP_KEY);
    const bad = off || disabled;
    return [{
      id: 'gemini.hooks-enabled',
      status: bad ? 'fail' : 'ok',
      evidence: off ? `${file} sets hooksConfig.enabled to false` : disabled ? `${file} lists claude-mem in hooksConfig.disabled` : `hooks are enabled in ${file}`,
      ...(bad && { fix: `In ${file}, set hooksConfig.enabled to true and remove "claude-mem" from hooksConfig.disabled.` }),
    }];
  },
};
