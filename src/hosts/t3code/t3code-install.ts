/**
 * T3 Code runs provider CLIs (Codex, Claude Code, …) as subprocesses and has no hooks or MCP
 * registry of its own: its sessions are captured by the providers' own claude-mem writers, so it
 * gets no changes. The summary says which providers are covered in this run.
 *
 * Two T3 Code settings make a provider read another home than claude-mem installed into
 * (pingdotgg/t3code):
 * - `$T3CODE_HOME/userdata/settings.json` (apps/server/src/config.ts; schema in
 *   packages/contracts/src/settings.ts): `providers.codex.homePath` / `shadowHomePath` (the
 *   CODEX_HOME Codex runs with), `providers.claudeAgent.homePath` (CLAUDE_CONFIG_DIR), and the
 *   same per `providerInstances` entry (its `config`, or a CODEX_HOME / CLAUDE_CONFIG_DIR variable
 *   in its `environment`);
 * - `$T3CODE_HOME/userdata/desktop-settings.json` `wslBackendEnabled` / `wslDistro` / `wslOnly`:
 *   the backend, and so every provider, runs inside a WSL distro with that distro's home.
 * Install and doctor check whether the homes found hold claude-mem's hooks, and say how to fix it.
 */
import { join, resolve } from 'node:path';
import type { HostId } from '../../shared/hosts.js';
import { expandHome, homeDir, type Env } from '../../shared/paths.js';
import { claudeConfigDir, detectClaudeCode } from '../claude-code/claude-code-install.js';
import { codexHome, detectCodex } from '../codex/codex-install.js';
import { isOurHookCommand } from '../../npx-cli/hosts/common/command.js';
import { probe } from '../../npx-cli/hosts/common/detect.js';
import { envDir } from '../../npx-cli/hosts/common/paths.js';
import { shQuote } from '../../npx-cli/hosts/common/quote.js';
import { asRecord, readJsonc, stringsIn } from '../../npx-cli/hosts/common/read.js';
import type { Detection, HostCheck, HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { t3codeFacts } from './t3code-facts.js';

const PROVIDERS: ReadonlyArray<{ id: HostId; label: string; detect: (env: Env) => Promise<Detection> }> = [
  { id: 'codex', label: 'Codex', detect: detectCodex },
  { id: 'claude-code', label: 'Claude Code', detect: detectClaudeCode },
];

const t3Home = (env: Env, home = homeDir(env)) => envDir(env, home, 'T3CODE_HOME', '.t3');

/** A provider home T3 Code sets, other than the one claude-mem installs into by default. */
interface ProviderHome {
  provider: 'codex' | 'claude-code';
  dir: string;
  /** Which setting chose it, for messages. */
  setting: string;
}

/** The variable naming each provider's home, and the file its hooks live in. */
const HOME_OF = {
  codex: { variable: 'CODEX_HOME', label: 'Codex', hooksFile: 'hooks.json', default: codexHome },
  'claude-code': { variable: 'CLAUDE_CONFIG_DIR', label: 'Claude Code', hooksFile: 'settings.json', default: claudeConfigDir },
} as const;

const DRIVERS: Record<string, ProviderHome['provider']> = { codex: 'codex', claudeAgent: 'claude-code' };

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.trim() ? v.trim() : undefined;
}

/** The home one provider entry runs with: the shadow home (Codex runs there) wins over homePath. */
function entryHome(provider: ProviderHome['provider'], config: Record<string, unknown> | undefined, envList: unknown): string | undefined {
  const fromEnv = (Array.isArray(envList) ? envList : []).map(asRecord).find((v) => v?.name === HOME_OF[provider].variable);
  return (provider === 'codex' ? str(config?.shadowHomePath) : undefined) ?? str(config?.homePath) ?? str(fromEnv?.value);
}

/** Provider homes named in T3 Code's settings.json that differ from claude-mem's default ones. */
export function t3ProviderHomes(env: Env, home = homeDir(env)): ProviderHome[] {
  const file = join(t3Home(env, home), 'userdata', 'settings.json');
  const doc = asRecord(readJsonc(file));
  const found: ProviderHome[] = [];
  const add = (provider: ProviderHome['provider'], dir: string | undefined, setting: string) => {
    if (!dir) return;
    const abs = resolve(expandHome(dir, { ...env, HOME: home }));
    if (abs !== HOME_OF[provider].default(env, home) && !found.some((h) => h.provider === provider && h.dir === abs)) found.push({ provider, dir: abs, setting: `${setting} in ${file}` });
  };
  const legacy = asRecord(doc?.providers);
  for (const [key, provider] of Object.entries(DRIVERS)) {
    const config = asRecord(legacy?.[key]);
    if (config?.enabled !== false) add(provider, entryHome(provider, config, undefined), `providers.${key}`);
  }
  for (const [id, raw] of Object.entries(asRecord(doc?.providerInstances) ?? {})) {
    const inst = asRecord(raw);
    const provider = DRIVERS[String(inst?.driver)];
    if (!inst || !provider || inst.enabled === false) continue;
    add(provider, entryHome(provider, asRecord(inst.config), inst.environment), `providerInstances.${id}`);
  }
  return found;
}

/** T3 Code's WSL backend, when its desktop app runs the backend (and providers) inside WSL. */
function t3WslBackend(env: Env, home = homeDir(env)): { distro?: string; only: boolean } | undefined {
  const doc = asRecord(readJsonc(join(t3Home(env, home), 'userdata', 'desktop-settings.json')));
  if (doc?.wslBackendEnabled !== true) return undefined;
  const distro = str(doc.wslDistro);
  return { ...(distro && { distro }), only: doc.wslOnly === true };
}

function hasOurHooks(h: ProviderHome): boolean {
  return stringsIn(readJsonc(join(h.dir, HOME_OF[h.provider].hooksFile))).some((c) => isOurHookCommand(c, h.provider));
}

/** What to tell the user about one provider home: covered, or the command that covers it. */
function homeAdvice(h: ProviderHome): { ok: boolean; text: string; command?: string } {
  const { variable, label } = HOME_OF[h.provider];
  if (hasOurHooks(h)) return { ok: true, text: `${label} started from T3 Code runs with ${variable}=${h.dir} (${h.setting}), which has claude-mem's hooks.` };
  const command = `${variable}=${shQuote(h.dir)} claude-mem install --ide ${h.provider}`;
  return { ok: false, command, text: `${label} started from T3 Code runs with ${variable}=${h.dir} (${h.setting}) and does not see claude-mem's hooks there: run \`${command}\`.` };
}

const wslAdvice = (w: { distro?: string; only: boolean }) =>
  `T3 Code runs its backend inside WSL (${w.distro ?? 'the default distro'})${w.only ? '' : ' for WSL projects'}: those providers read the Linux home in that distro, not this one. Install claude-mem inside the distro too (from a \`${w.distro ? `wsl -d ${w.distro}` : 'wsl'}\` shell).`;

async function providerSteps(ctx: InstallContext): Promise<string[]> {
  const steps: string[] = [];
  for (const p of PROVIDERS) {
    if (ctx.selected.includes(p.id)) {
      steps.push(`${p.label} sessions started from T3 Code are captured by claude-mem's ${p.label} integration (selected in this run).`);
      continue;
    }
    const found = (await p.detect(ctx.env)).installed;
    steps.push(found
      ? `${p.label} is installed but not selected: run \`claude-mem install --ide ${p.id}\` to capture its T3 Code sessions.`
      : `${p.label} was not found; T3 Code sessions that use it are not captured.`);
  }
  return steps;
}

export const t3code: HostModule = {
  ...hostIdentity(t3codeFacts),
  detect: (env) => probe({
    dirs: [{ path: t3Home(env), env: env.T3CODE_HOME ? 'T3CODE_HOME' : undefined }],
    files: [join(t3Home(env), 'userdata', 'state.sqlite')],
    binaries: ['t3'],
  }, env),
  async plan(ctx: InstallContext) {
    const wsl = t3WslBackend(ctx.env, ctx.home);
    const homes = t3ProviderHomes(ctx.env, ctx.home).map(homeAdvice);
    return {
      capture: 'providers',
      recall: 'providers',
      changes: [],
      nextSteps: [...await providerSteps(ctx), ...homes.filter((h) => !h.ok).map((h) => h.text), ...(wsl ? [wslAdvice(wsl)] : [])],
      notes: [
        'T3 Code has no hooks of its own; other providers it runs (Cursor, Grok, OpenCode, Antigravity) are covered by their own claude-mem integrations when installed.',
        ...homes.filter((h) => h.ok).map((h) => h.text),
      ],
    };
  },
  async checks(ctx: InstallContext): Promise<HostCheck[]> {
    const homes = t3ProviderHomes(ctx.env, ctx.home).map(homeAdvice);
    const wsl = t3WslBackend(ctx.env, ctx.home);
    const missing = homes.filter((h) => !h.ok);
    const homeCheck: HostCheck = missing.length
      ? { id: 't3code.provider-homes', status: 'fail', evidence: missing.map((h) => h.text).join(' '), fix: missing.map((h) => h.command).join('; ') }
      : { id: 't3code.provider-homes', status: 'ok', evidence: homes.length ? homes.map((h) => h.text).join(' ') : 'T3 Code runs Codex and Claude Code with their default homes' };
    return [homeCheck, ...(wsl ? [{ id: 't3code.wsl-backend', status: 'warn' as const, evidence: wslAdvice(wsl) }] : [])];
  },
};
