/**
 * Codex CLI: `$CODEX_HOME/hooks.json` (Claude's three-level layout) with the hooks feature on in
 * config.toml, and `[mcp_servers.claude-mem]`. Codex runs a hook only once the user trusted it;
 * untrusted hooks are skipped without a word.
 */
import { join } from 'node:path';
import type { Change } from '../../npx-cli/engine/index.js';
import { homeDir, type Env } from '../../shared/paths.js';
import { claudeHookUpserts, type HookSpec } from '../../npx-cli/hosts/common/changes.js';
import { MCP_KEY, mcpServer } from '../../npx-cli/hosts/common/command.js';
import { probe } from '../../npx-cli/hosts/common/detect.js';
import { envDir } from '../../npx-cli/hosts/common/paths.js';
import { asRecord, readToml } from '../../npx-cli/hosts/common/read.js';
import { CODEX_SESSION_END_TIMEOUT_S, timeoutSeconds } from '../../npx-cli/hosts/common/timeouts.js';
import type { HostCheck, HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { codexFacts } from './codex-facts.js';
import { settleCodexWriters } from './codex-writers.js';
import { codexAfterApply, codexTrustCheck } from './codex-after-apply.js';

const CODEX_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'SubagentStop', 'PreCompact', 'SessionEnd'] as const;
const CONTEXT_EVENTS = ['SessionStart', 'UserPromptSubmit'];

export function codexHome(env: Env, home = homeDir(env)): string {
  return envDir(env, home, 'CODEX_HOME', '.codex');
}

const specs = (): HookSpec[] => CODEX_EVENTS.map((event) => ({
  event,
  timeout: event === 'SessionEnd' ? CODEX_SESSION_END_TIMEOUT_S : timeoutSeconds(event, CONTEXT_EVENTS),
}));

export function detectCodex(env: Env) {
  return probe({
    dirs: [{ path: codexHome(env), env: env.CODEX_HOME ? 'CODEX_HOME' : undefined }],
    binaries: ['codex'],
    version: true,
    npmPackages: ['@openai/codex'],
  }, env);
}

/** The hooks feature: `hooks` wins, the legacy `codex_hooks` alias counts when `hooks` is absent; on by default. */
function codexHooksFeature(config: Record<string, unknown> | undefined): { on: boolean; how: string } {
  const features = asRecord(config?.features);
  if (typeof features?.hooks === 'boolean') return { on: features.hooks, how: `[features] hooks = ${features.hooks}` };
  if (typeof features?.codex_hooks === 'boolean') return { on: features.codex_hooks, how: `[features] codex_hooks = ${features.codex_hooks}` };
  return { on: true, how: 'no [features] hooks key (on by default in current Codex)' };
}

export const codex: HostModule = {
  ...hostIdentity(codexFacts),
  settleWriters: settleCodexWriters,
  afterApply: codexAfterApply,
  hooksCheck: codexTrustCheck,
  detect: detectCodex,
  async plan(ctx: InstallContext) {
    const dir = codexHome(ctx.env, ctx.home);
    const config = join(dir, 'config.toml');
    const features = asRecord(readToml(config)?.features);
    const hooksOn: Change = { kind: 'toml-set', file: config, host: 'codex', table: ['features'], key: 'hooks', value: true };
    const feature = codexHooksFeature(features && { features });
    // Hooks the user switched off stay off unless they say otherwise (the installer asks). Turned
    // on, the legacy alias, when present, must not say the opposite.
    const off = !feature.on;
    const turnOn: Change[] = [
      hooksOn,
      ...(features && 'codex_hooks' in features ? [{ kind: 'toml-set', file: config, host: 'codex', table: ['features'], key: 'codex_hooks', value: true } as const] : []),
    ];
    const changes: Change[] = [
      ...claudeHookUpserts(join(dir, 'hooks.json'), 'codex', ctx, specs()),
      ...(off ? [] : [hooksOn]),
      { kind: 'toml-table', file: config, host: 'codex', table: ['mcp_servers', MCP_KEY], value: mcpServer(ctx) },
    ];
    return {
      capture: 'hooks',
      recall: 'mcp',
      changes,
      ...(off && { killSwitch: { setting: feature.how, file: config, howToEnable: `set \`hooks = true\` under [features] in ${config}`, enable: turnOn } }),
      nextSteps: [
        'Trust the claude-mem hooks in Codex (type /hooks in Codex and approve them): Codex skips untrusted hooks silently.',
      ],
      notes: ['Codex caps SessionEnd hooks at 3 s; claude-mem registers it with 3 s.'],
    };
  },
  async checks(ctx: InstallContext): Promise<HostCheck[]> {
    const file = join(codexHome(ctx.env, ctx.home), 'config.toml');
    const { on, how } = codexHooksFeature(readToml(file));
    return [{
      id: 'codex.hooks-feature',
      status: on ? 'ok' : 'fail',
      evidence: `${file}: ${how}`,
      ...(!on && { fix: `Set \`hooks = true\` under [features] in ${file}, or run \`claude-mem install --ide codex --enable-hooks\`.` }),
    }];
  },
};
