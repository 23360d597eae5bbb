/** The OpenClaw host module: detection, plan (conversation access, MCP, memory slot only with consent), install round trip, checks. */
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyPlan, planChanges, revertFromManifest, type Change, type FileChange } from '../../src/npx-cli/engine/index.js';
import { openclaw, openclawConfigPath } from '../../src/hosts/openclaw/openclaw-install.js';
import type { InstallContext } from '../../src/npx-cli/hosts/types.js';
import type { Env } from '../../src/shared/paths.js';
import { REPO_ROOT } from '../helpers/temp.js';
import { ensureBundles } from './pi-harness.js';
import { pluginWorld, type PluginWorld } from './world.js';

beforeAll(() => ensureBundles(['openclaw']), 240_000);

interface World extends PluginWorld { state: string }

function world(extra: Env = {}): World {
  const w = pluginWorld('oc-claw', extra);
  return { ...w, state: join(w.home, '.openclaw') };
}

async function context(w: World): Promise<InstallContext> {
  return { env: w.env, home: w.home, dataDir: w.dataDir, nodePath: process.execPath, entryPath: w.entry, packageRoot: REPO_ROOT, detection: await openclaw.detect(w.env), selected: ['openclaw'] };
}

async function install(w: World, changes: Change[]) {
  const plan = await planChanges(changes);
  expect(plan.filter((f) => f.error)).toEqual([]);
  await applyPlan(plan, { manifestPath: join(w.dataDir, 'install-manifest.json'), backupsDir: join(w.dataDir, 'backups') });
}

const USER_CONFIG = `{
  // my gateway
  "agents": { "defaults": { "workspace": "/srv/work" } },
  "plugins": {
    "entries": {
      "other": { "enabled": true },
      "claude-mem": { "hooks": { "timeoutMs": 30000 } }
    }
  }
}
`;

describe('OpenClaw host module', () => {
  it('detects the state dir (OPENCLAW_STATE_DIR honoured) and the npm package version of `openclaw`', async () => {
    const w = world();
    expect((await openclaw.detect(w.env)).installed).toBe(false);
    const pkg = join(w.root, 'lib', 'node_modules', 'openclaw');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'openclaw', version: '2026.9.6' }));
    writeFileSync(join(pkg, 'openclaw.mjs'), '');
    symlinkSync(join(pkg, 'openclaw.mjs'), join(w.root, 'bin', 'openclaw'));
    chmodSync(join(pkg, 'openclaw.mjs'), 0o755);
    expect(await openclaw.detect(w.env)).toMatchObject({ installed: true, version: '2026.9.6' });
    const custom = join(w.root, 'claw-state');
    mkdirSync(custom);
    const d = await openclaw.detect({ ...w.env, OPENCLAW_STATE_DIR: custom });
    expect(d.evidence[0]).toEqual({ kind: 'env', detail: `OPENCLAW_STATE_DIR=${custom}` });
    expect(openclawConfigPath({ ...w.env, OPENCLAW_STATE_DIR: custom })).toBe(join(custom, 'openclaw.json'));
    expect(openclawConfigPath({ ...w.env, OPENCLAW_CONFIG_PATH: '/etc/claw.json' })).toBe('/etc/claw.json');
  });

  it('plans the plugin folder, the two entry keys, mcp.servers.claude-mem, and never the memory slot by default', async () => {
    const w = world();
    const plan = await openclaw.plan(await context(w));
    expect(plan).toMatchObject({ capture: 'plugin', recall: 'mcp' });
    const dir = join(w.state, 'extensions', 'claude-mem');
    const files = plan.changes.filter((c): c is FileChange => c.kind === 'file');
    expect(files.map((f) => f.file)).toEqual(['index.js', 'openclaw.plugin.json', 'package.json', 'claude-mem.json'].map((n) => join(dir, n)));
    expect(JSON.parse(files[1].content).kind).toBeUndefined();
    const sets = plan.changes.filter((c) => c.kind === 'json-set').map((c) => c as unknown as { path: string[]; value: unknown });
    expect(sets.map((s) => [s.path.join('.'), s.value])).toEqual([
      ['plugins.entries.claude-mem.enabled', true],
      ['plugins.entries.claude-mem.hooks.allowConversationAccess', true],
      ['mcp.servers.claude-mem', { command: process.execPath, args: [w.entry, 'mcp'] }],
    ]);
    expect(plan.notes.join(' ')).toMatch(/memory slot is left as it is/);
  });

  it('takes the memory slot only with explicit consent, and then declares kind "memory"', async () => {
    const w = world({ CLAUDE_MEM_OPENCLAW_MEMORY_SLOT: '1' });
    const plan = await openclaw.plan(await context(w));
    const manifest = plan.changes.find((c): c is FileChange => c.kind === 'file' && c.file.endsWith('openclaw.plugin.json'))!;
    expect(JSON.parse(manifest.content)).toMatchObject({ id: 'claude-mem', kind: 'memory' });
    expect(plan.changes).toContainEqual(expect.objectContaining({ kind: 'json-set', path: ['plugins', 'slots', 'memory'], value: 'claude-mem' }));
  });

  it('edits openclaw.json in place (comments, other plugins, our entry\'s own keys kept), reinstalls as a no-op, uninstalls byte for byte', async () => {
    const w = world();
    mkdirSync(w.state, { recursive: true });
    const file = join(w.state, 'openclaw.json');
    writeFileSync(file, USER_CONFIG);
    const ctx = await context(w);
    expect((await openclaw.checks!(ctx)).find((c) => c.id === 'openclaw.conversation-access')).toMatchObject({ status: 'fail', fix: expect.stringContaining('allowConversationAccess') });
    await install(w, (await openclaw.plan(ctx)).changes);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('// my gateway');
    const doc = parseJsonc(text) as Record<string, any>;
    expect(doc.plugins.entries.other).toEqual({ enabled: true });
    expect(doc.plugins.entries['claude-mem']).toEqual({ hooks: { timeoutMs: 30000, allowConversationAccess: true }, enabled: true });
    expect(doc.plugins.slots).toBeUndefined();
    expect(doc.mcp.servers['claude-mem'].args).toEqual([w.entry, 'mcp']);
    expect((await openclaw.checks!(ctx)).map((c) => [c.id, c.status])).toEqual([
      ['openclaw.conversation-access', 'ok'], ['openclaw.plugin-enabled', 'ok'], ['openclaw.plugin-runtime', 'ok'],
    ]);
    expect((await planChanges((await openclaw.plan(ctx)).changes)).filter((f) => f.changed)).toEqual([]);
    await revertFromManifest(join(w.dataDir, 'install-manifest.json'), { hosts: ['openclaw'] });
    expect(readFileSync(file, 'utf8')).toBe(USER_CONFIG);
    expect(existsSync(join(w.state, 'extensions'))).toBe(false);
  });

  it('doctor warns when prompt injection was switched off for the plugin', async () => {
    const w = world();
    mkdirSync(w.state, { recursive: true });
    writeFileSync(join(w.state, 'openclaw.json'), JSON.stringify({ plugins: { entries: { 'claude-mem': { enabled: true, hooks: { allowConversationAccess: true, allowPromptInjection: false } } } } }));
    const checks = await openclaw.checks!(await context(w));
    expect(checks.find((c) => c.id === 'openclaw.prompt-injection')).toMatchObject({ status: 'warn' });
  });
});
