/** The OpenCode host module: detection, the version-matched plan, install/reinstall/uninstall, doctor checks. */
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyPlan, planChanges, revertFromManifest, type Change, type FileChange, type JsonSetChange } from '../../src/npx-cli/engine/index.js';
import { opencode, opencodePaths, pluginApiFor } from '../../src/hosts/opencode/opencode-install.js';
import type { InstallContext } from '../../src/npx-cli/hosts/types.js';
import type { Env } from '../../src/shared/paths.js';
import { REPO_ROOT } from '../helpers/temp.js';
import { ensurePluginsBuilt } from './opencode-harness.js';
import { pluginWorld, type PluginWorld } from './world.js';

beforeAll(() => ensurePluginsBuilt(), 240_000);

type World = PluginWorld;

function world(): World {
  const w = pluginWorld('oc-host');
  return { ...w, env: { ...w.env, XDG_CONFIG_HOME: join(w.home, '.config') } };
}

function fakeOpencode(w: World, version: string): void {
  const path = join(w.bin, 'opencode');
  writeFileSync(path, `#!/bin/sh\necho ${version}\n`);
  chmodSync(path, 0o755);
}

async function context(w: World): Promise<InstallContext> {
  return {
    env: w.env, home: w.home, dataDir: w.dataDir, nodePath: process.execPath, entryPath: w.entry, packageRoot: REPO_ROOT,
    detection: await opencode.detect(w.env), selected: ['opencode'],
  };
}

async function install(w: World, changes: Change[]) {
  const plan = await planChanges(changes);
  expect(plan.filter((f) => f.error)).toEqual([]);
  await applyPlan(plan, { manifestPath: join(w.dataDir, 'install-manifest.json'), backupsDir: join(w.dataDir, 'backups') });
  return plan;
}

describe('OpenCode host module', () => {
  it('chooses the plugin API by major version', () => {
    expect(['1.18.33', '1.0.0', '0.15.2', undefined, 'garbage'].map(pluginApiFor)).toEqual(['v1', 'v1', 'v1', 'v1', 'v1']);
    expect(['2.0.0', '2.3.0', '10.1.0'].map(pluginApiFor)).toEqual(['v2', 'v2', 'v2']);
  });

  it('detects the config dir and the binary, reading the npm package version without running it', async () => {
    const w = world();
    expect((await opencode.detect(w.env)).installed).toBe(false);
    mkdirSync(join(w.home, '.config', 'opencode'), { recursive: true });
    const byDir = await opencode.detect(w.env);
    expect(byDir).toMatchObject({ installed: true, facts: { pluginApi: 'v1' } });
    expect(byDir.version).toBeUndefined();

    fakeOpencode(w, '2.3.0');
    expect(await opencode.detect(w.env)).toMatchObject({ version: '2.3.0', facts: { pluginApi: 'v2', versionSource: '--version' } });

    // npm layout: .bin/opencode → node_modules/opencode-ai/bin/opencode.exe (a script that must not run).
    const pkg = join(w.bin, '..', 'lib', 'node_modules', 'opencode-ai');
    mkdirSync(join(pkg, 'bin'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'opencode-ai', version: '1.18.33' }));
    writeFileSync(join(pkg, 'bin', 'opencode.exe'), '#!/bin/sh\nexit 3\n');
    chmodSync(join(pkg, 'bin', 'opencode.exe'), 0o755);
    const npmBin = join(w.bin, '..', 'npmbin');
    mkdirSync(npmBin);
    symlinkSync(join(pkg, 'bin', 'opencode.exe'), join(npmBin, 'opencode'));
    expect(await opencode.detect({ ...w.env, PATH: npmBin })).toMatchObject({ version: '1.18.33', facts: { pluginApi: 'v1', versionSource: 'package.json' } });
  });

  it('plans the V1 plugin file, its claude-mem.json and mcp.claude-mem for OpenCode 1.x', async () => {
    const w = world();
    fakeOpencode(w, '1.18.33');
    const plan = await opencode.plan(await context(w));
    expect(plan).toMatchObject({ capture: 'plugin', recall: 'mcp+native-tools', notes: [] });
    const cfg = join(w.home, '.config', 'opencode');
    const [file, json, mcp] = plan.changes as [FileChange, FileChange, JsonSetChange];
    expect(file).toMatchObject({ kind: 'file', host: 'opencode', file: join(cfg, 'plugins', 'claude-mem.js') });
    expect(file.content).toBe(readFileSync(join(REPO_ROOT, 'dist', 'plugins', 'opencode-v1', 'index.js'), 'utf8'));
    expect(json.file).toBe(join(cfg, 'plugins', 'claude-mem.json'));
    expect(JSON.parse(json.content)).toEqual({ host: 'opencode', dataDir: w.dataDir, nodePath: process.execPath, entryPath: w.entry });
    expect(mcp).toEqual({
      kind: 'json-set', host: 'opencode', file: join(cfg, 'opencode.json'), path: ['mcp', 'claude-mem'],
      value: { type: 'local', command: [process.execPath, w.entry, 'mcp'], enabled: true },
    });
    expect(plan.changes).toHaveLength(3);
  });

  it('plans the V2 directory plugin and mcp.servers.claude-mem for OpenCode 2.x', async () => {
    const w = world();
    fakeOpencode(w, '2.3.0');
    const plan = await opencode.plan(await context(w));
    const dir = join(w.home, '.config', 'opencode', 'plugins', 'claude-mem');
    expect(plan.changes.map((c) => c.file)).toEqual([join(dir, 'index.js'), join(dir, 'package.json'), join(dir, 'claude-mem.json'), join(w.home, '.config', 'opencode', 'opencode.json')]);
    expect(plan.changes[3]).toMatchObject({ path: ['mcp', 'servers', 'claude-mem'], value: { type: 'local', command: [process.execPath, w.entry, 'mcp'] } });
    expect(plan.notes.join(' ')).toMatch(/V2/);
  });

  it('edits opencode.jsonc in place, reinstalls as a no-op and uninstalls byte for byte', async () => {
    const w = world();
    fakeOpencode(w, '1.18.33');
    const cfgDir = join(w.home, '.config', 'opencode');
    mkdirSync(cfgDir, { recursive: true });
    const original = '{\n  // my settings\n  "model": "anthropic/claude",\n  "mcp": {\n    "github": { "type": "remote", "url": "https://example.invalid/mcp" }, // keep\n  },\n}\n';
    writeFileSync(join(cfgDir, 'opencode.jsonc'), original);
    const ctx = await context(w);
    expect(opencodePaths(w.env, w.home).config).toBe(join(cfgDir, 'opencode.jsonc'));
    await install(w, (await opencode.plan(ctx)).changes);

    const text = readFileSync(join(cfgDir, 'opencode.jsonc'), 'utf8');
    expect(text).toContain('// my settings');
    expect(text).toContain('// keep');
    const doc = parseJsonc(text) as { mcp: Record<string, unknown> };
    expect(Object.keys(doc.mcp)).toEqual(['github', 'claude-mem']);
    expect(existsSync(join(cfgDir, 'plugins', 'claude-mem.js'))).toBe(true);
    expect(existsSync(join(cfgDir, 'opencode.json'))).toBe(false);

    const again = await planChanges((await opencode.plan(ctx)).changes);
    expect(again.filter((f) => f.changed)).toEqual([]);

    await revertFromManifest(join(w.dataDir, 'install-manifest.json'), { hosts: ['opencode'] });
    expect(readFileSync(join(cfgDir, 'opencode.jsonc'), 'utf8')).toBe(original);
    expect(existsSync(join(cfgDir, 'plugins', 'claude-mem.js'))).toBe(false);
    expect(existsSync(join(cfgDir, 'plugins', 'claude-mem.json'))).toBe(false);
  });

  it('doctor: the installed plugin matches the OpenCode version, and its runtime paths exist', async () => {
    const w = world();
    fakeOpencode(w, '1.18.33');
    const ctx = await context(w);
    expect((await opencode.checks!(ctx)).map((c) => [c.id, c.status])).toEqual([['opencode.plugin-api', 'fail'], ['opencode.plugin-runtime', 'fail']]);
    await install(w, (await opencode.plan(ctx)).changes);
    expect((await opencode.checks!(ctx)).map((c) => c.status)).toEqual(['ok', 'ok']);

    // OpenCode upgraded to 2.x under a V1 plugin: nothing would be captured.
    fakeOpencode(w, '2.0.1');
    const [api] = await opencode.checks!(await context(w));
    expect(api).toMatchObject({ status: 'fail', evidence: expect.stringMatching(/loads V2 plugins.*V1/), fix: expect.stringMatching(/install --ide opencode/) });

    fakeOpencode(w, '1.18.33');
    const moved = { ...(await context(w)), entryPath: '/nowhere/bin.js' };
    await install(w, (await opencode.plan(moved)).changes);
    expect((await opencode.checks!(moved))[1]).toMatchObject({ status: 'fail', evidence: expect.stringContaining('entryPath /nowhere/bin.js') });
  });
});
