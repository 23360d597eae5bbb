/**
 * OpenClaw: a native plugin in `$OPENCLAW_STATE_DIR/extensions/claude-mem/` (default
 * `~/.openclaw`; auto-discovered there), enabled in `openclaw.json` under `plugins.entries` with
 * `hooks.allowConversationAccess` (without it OpenClaw withholds the prompt and turn-end hooks
 * from a non-bundled plugin), and the MCP server under `mcp.servers.claude-mem`.
 *
 * The `memory` slot (`plugins.slots.memory`) replaces OpenClaw's own memory: it is taken only with
 * the user's explicit consent (CLAUDE_MEM_OPENCLAW_MEMORY_SLOT=1, set by the install flag), and
 * then the manifest declares `kind: "memory"` as OpenClaw requires for that slot.
 */
import { join, resolve } from 'node:path';
import type { Change, FileChange } from '../../npx-cli/engine/index.js';
import { expandHome, homeDir, type Env } from '../../shared/paths.js';
import { MCP_KEY, mcpServer } from '../../npx-cli/hosts/common/command.js';
import { envDir } from '../../npx-cli/hosts/common/paths.js';
import { asRecord, readJsonc } from '../../npx-cli/hosts/common/read.js';
import { binaryPackageVersion } from '../../npx-cli/hosts/common/detect.js';
import { pluginDirChanges, pluginRuntimeCheck } from '../pi/pi-install.js';
import { findBinary, probe } from '../../npx-cli/hosts/common/detect.js';
import type { HostCheck, HostModule, InstallContext } from '../../npx-cli/hosts/types.js';
import { hostIdentity } from '../host-facts.js';
import { openclawFacts } from './openclaw-facts.js';

/** The id in openclaw.plugin.json, plugins.entries and the extensions folder name. */
const OPENCLAW_PLUGIN_ID = 'claude-mem';
const OPENCLAW_PACKAGES = ['openclaw'];
/** Typed plugin hooks and their event shapes were captured from this release (fixture + e2e). */
const OPENCLAW_PROVEN = ['2026.9.6'];

const openclawStateDir = (env: Env, home = homeDir(env)) => envDir(env, home, 'OPENCLAW_STATE_DIR', '.openclaw');

/** `OPENCLAW_CONFIG_PATH` names the config file directly; else `<state>/openclaw.json`. */
export function openclawConfigPath(env: Env, home = homeDir(env)): string {
  const direct = env.OPENCLAW_CONFIG_PATH;
  return direct ? resolve(expandHome(direct, { ...env, HOME: home })) : join(openclawStateDir(env, home), 'openclaw.json');
}

const openclawPluginDir = (env: Env, home = homeDir(env)) => join(openclawStateDir(env, home), 'extensions', OPENCLAW_PLUGIN_ID);

const memorySlotConsent = (env: Env) => env.CLAUDE_MEM_OPENCLAW_MEMORY_SLOT === '1';

/** With consent for the memory slot, the copied manifest declares the exclusive `memory` kind. */
function withMemoryKind(files: FileChange[]): FileChange[] {
  return files.map((f) => {
    if (!f.file.endsWith('openclaw.plugin.json')) return f;
    const manifest = JSON.parse(f.content) as Record<string, unknown>;
    return { ...f, content: `${JSON.stringify({ ...manifest, kind: 'memory' }, null, 2)}\n` };
  });
}

export const openclaw: HostModule = {
  ...hostIdentity(openclawFacts),
  async detect(env) {
    const d = await probe({ dirs: [{ path: openclawStateDir(env), env: env.OPENCLAW_STATE_DIR ? 'OPENCLAW_STATE_DIR' : undefined }], binaries: ['openclaw'] }, env);
    const version = binaryPackageVersion(findBinary('openclaw', env), OPENCLAW_PACKAGES);
    return { ...d, ...(version !== undefined && { version }), facts: { ...d.facts, configPath: openclawConfigPath(env) } };
  },
  async plan(ctx: InstallContext) {
    const config = openclawConfigPath(ctx.env, ctx.home);
    const slot = memorySlotConsent(ctx.env);
    const files = pluginDirChanges(ctx, 'openclaw', openclawPluginDir(ctx.env, ctx.home));
    const entry = ['plugins', 'entries', OPENCLAW_PLUGIN_ID];
    const changes: Change[] = [
      ...(slot ? withMemoryKind(files) : files),
      // Two keys rather than the whole entry: the user's own settings there (timeouts, env) stay.
      { kind: 'json-set', file: config, host: 'openclaw', path: [...entry, 'enabled'], value: true },
      { kind: 'json-set', file: config, host: 'openclaw', path: [...entry, 'hooks', 'allowConversationAccess'], value: true },
      { kind: 'json-set', file: config, host: 'openclaw', path: ['mcp', 'servers', MCP_KEY], value: mcpServer(ctx) },
      ...(slot ? [{ kind: 'json-set', file: config, host: 'openclaw', path: ['plugins', 'slots', 'memory'], value: OPENCLAW_PLUGIN_ID } as const] : []),
    ];
    const notes = ['Conversation hooks (prompt, turn end) need plugins.entries.claude-mem.hooks.allowConversationAccess, which install sets.'];
    notes.push(slot
      ? 'The memory slot is given to claude-mem (plugins.slots.memory), as you asked: OpenClaw\'s own memory plugin is switched off.'
      : 'OpenClaw\'s memory slot is left as it is (claude-mem runs beside memory-core); set CLAUDE_MEM_OPENCLAW_MEMORY_SLOT=1 to hand it over.');
    if (ctx.detection.version && !OPENCLAW_PROVEN.includes(ctx.detection.version)) {
      notes.push(`OpenClaw ${ctx.detection.version}: the plugin was proven on ${OPENCLAW_PROVEN.join(', ')}; hooks it does not find simply do not fire.`);
    }
    return {
      capture: 'plugin',
      recall: 'mcp',
      changes,
      nextSteps: ['Restart the OpenClaw Gateway (or run `openclaw plugins reload claude-mem`) so the plugin and MCP server load.'],
      notes,
    };
  },
  async checks(ctx: InstallContext): Promise<HostCheck[]> {
    const file = openclawConfigPath(ctx.env, ctx.home);
    const cfg = asRecord(readJsonc(file));
    const entry = asRecord(asRecord(asRecord(cfg?.plugins)?.entries)?.[OPENCLAW_PLUGIN_ID]);
    const hooks = asRecord(entry?.hooks);
    const checks: HostCheck[] = [];
    const access = hooks?.allowConversationAccess === true;
    checks.push({
      id: 'openclaw.conversation-access',
      status: access ? 'ok' : 'fail',
      evidence: access
        ? `${file}: plugins.entries.${OPENCLAW_PLUGIN_ID}.hooks.allowConversationAccess = true`
        : `${file}: plugins.entries.${OPENCLAW_PLUGIN_ID}.hooks.allowConversationAccess is ${cfg ? String(hooks?.allowConversationAccess ?? 'missing') : 'unreadable (file missing or not JSON)'}; OpenClaw withholds prompts and turn ends from the plugin`,
      ...(!access && { fix: `Set plugins.entries.${OPENCLAW_PLUGIN_ID}.hooks.allowConversationAccess to true in ${file} (or run claude-mem install --ide openclaw).` }),
    });
    const enabled = entry?.enabled !== false;
    checks.push({
      id: 'openclaw.plugin-enabled',
      status: enabled ? 'ok' : 'fail',
      evidence: enabled ? `plugins.entries.${OPENCLAW_PLUGIN_ID} is enabled` : `${file}: plugins.entries.${OPENCLAW_PLUGIN_ID}.enabled is false`,
      ...(!enabled && { fix: `Run \`openclaw plugins enable ${OPENCLAW_PLUGIN_ID}\`.` }),
    });
    checks.push(pluginRuntimeCheck('openclaw', openclawPluginDir(ctx.env, ctx.home), ctx));
    if (hooks?.allowPromptInjection === false) {
      checks.push({
        id: 'openclaw.prompt-injection', status: 'warn',
        evidence: `${file}: hooks.allowPromptInjection is false; memory context is not added to prompts (capture still works)`,
        fix: `Remove plugins.entries.${OPENCLAW_PLUGIN_ID}.hooks.allowPromptInjection to let claude-mem add context.`,
      });
    }
    return checks;
  },
};
