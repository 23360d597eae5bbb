/** The Pi and OMP host modules: detection, plans, install → reinstall → uninstall, doctor checks. */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, beforeAll } from 'vitest';
import { applyPlan, planChanges, revertFromManifest, type Change, type FileChange } from '../../src/npx-cli/engine/index.js';
import { omp, ompAgentDir } from '../../src/hosts/omp/omp-install.js';
import { pi, piAgentDir } from '../../src/hosts/pi/pi-install.js';
import type { HostModule, InstallContext } from '../../src/npx-cli/hosts/types.js';
import type { Env } from '../../src/shared/paths.js';
import { REPO_ROOT } from '../helpers/temp.js';
import { ensureBundles } from './pi-harness.js';
import { pluginWorld, type PluginWorld } from './world.js';

beforeAll(() => ensureBundles(['pi', 'omp']), 240_000);

type World = PluginWorld;

function world(extra: Env = {}): World {
  return pluginWorld('pi-host', extra);
}

/** npm's layout: `.bin/<name>` → `node_modules/<pkg>/dist/cli.js`, a script that must never run. */
function npmBinary(w: World, name: string, pkg: string, version: string): void {
  const dir = join(w.root, 'lib', 'node_modules', ...pkg.split('/'));
  mkdirSync(join(dir, 'dist'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: pkg, version }));
  writeFileSync(join(dir, 'dist', 'cli.js'), '#!/bin/sh\nexit 3\n');
  chmodSync(join(dir, 'dist', 'cli.js'), 0o755);
  symlinkSync(join(dir, 'dist', 'cli.js'), join(w.bin, name));
}

async function context(mod: HostModule, w: World): Promise<InstallContext> {
  return { env: w.env, home: w.home, dataDir: w.dataDir, nodePath: process.execPath, entryPath: w.entry, packageRoot: REPO_ROOT, detection: await mod.detect(w.env), selected: [mod.id] };
}

async function install(w: World, changes: Change[]) {
  const plan = await planChanges(changes);
  expect(plan.filter((f) => f.error)).toEqual([]);
  await applyPlan(plan, { manifestPath: join(w.dataDir, 'install-manifest.json'), backupsDir: join(w.dataDir, 'backups') });
}

describe('Pi host module', () => {
  it('detects ~/.pi/agent (or PI_CODING_AGENT_DIR) and reads the version from the binary\'s npm package', async () => {
    const w = world();
    expect((await pi.detect(w.env)).installed).toBe(false);
    mkdirSync(join(w.home, '.pi', 'agent'), { recursive: true });
    expect(await pi.detect(w.env)).toMatchObject({ installed: true, evidence: [{ kind: 'dir', detail: join(w.home, '.pi', 'agent') }] });
    npmBinary(w, 'pi', '@mariozechner/pi-coding-agent', '0.73.1');
    expect(await pi.detect(w.env)).toMatchObject({ version: '0.73.1', facts: { apiKnown: true } });

    const custom = join(w.root, 'pi-agent');
    mkdirSync(custom);
    const env = { ...w.env, PI_CODING_AGENT_DIR: custom };
    expect(piAgentDir(env)).toBe(custom);
    expect((await pi.detect(env)).evidence[0]).toEqual({ kind: 'env', detail: `PI_CODING_AGENT_DIR=${custom}` });
  });

  it('plans the extension folder: the bundle, package.json and claude-mem.json naming this install', async () => {
    const w = world();
    npmBinary(w, 'pi', '@mariozechner/pi-coding-agent', '0.73.1');
    const plan = await pi.plan(await context(pi, w));
    expect(plan).toMatchObject({ capture: 'plugin', recall: 'native-tools' });
    const dir = join(w.home, '.pi', 'agent', 'extensions', 'claude-mem');
    expect(plan.changes.map((c) => c.file)).toEqual([join(dir, 'index.js'), join(dir, 'package.json'), join(dir, 'claude-mem.json')]);
    const [bundle, , config] = plan.changes as FileChange[];
    expect(bundle.content).toBe(readFileSync(join(REPO_ROOT, 'dist', 'plugins', 'pi', 'index.js'), 'utf8'));
    expect(JSON.parse(config.content)).toEqual({ host: 'pi', dataDir: w.dataDir, nodePath: process.execPath, entryPath: w.entry });
    expect(plan.notes).toHaveLength(1); // the no-MCP note only: 0.73.1 is proven
  });

  it('says up front when Pi is a release whose API the extension does not know', async () => {
    const w = world();
    npmBinary(w, 'pi', '@mariozechner/pi-coding-agent', '0.80.2');
    const ctx = await context(pi, w);
    expect((await pi.plan(ctx)).notes.join(' ')).toMatch(/Pi 0\.80\.2 is not a release the extension was proven on \(0\.73\.1\)/);
    expect((await pi.checks!(ctx))[0]).toMatchObject({ id: 'pi.api-version', status: 'warn', evidence: expect.stringContaining('recall only') });
  });

  it('installs beside the user\'s own extensions, reinstalls as a no-op, uninstalls exactly', async () => {
    const w = world();
    const ext = join(w.home, '.pi', 'agent', 'extensions');
    mkdirSync(ext, { recursive: true });
    writeFileSync(join(ext, 'mine.ts'), 'export default function () {}\n');
    const ctx = await context(pi, w);
    await install(w, (await pi.plan(ctx)).changes);
    expect(readdirSync(join(ext, 'claude-mem')).sort()).toEqual(['claude-mem.json', 'index.js', 'package.json']);
    expect((await planChanges((await pi.plan(ctx)).changes)).filter((f) => f.changed)).toEqual([]);
    expect((await pi.checks!(ctx)).map((c) => [c.id, c.status])).toEqual([['pi.api-version', 'warn'], ['pi.plugin-runtime', 'ok']]);
    await revertFromManifest(join(w.dataDir, 'install-manifest.json'), { hosts: ['pi'] });
    expect(existsSync(join(ext, 'claude-mem'))).toBe(false);
    expect(readdirSync(ext)).toEqual(['mine.ts']);
  });

  it('doctor: a moved claude-mem makes the plugin runtime check fail with the fix', async () => {
    const w = world();
    const ctx = { ...(await context(pi, w)), entryPath: '/nowhere/bin.js' };
    await install(w, (await pi.plan(ctx)).changes);
    expect((await pi.checks!(ctx))[1]).toMatchObject({ status: 'fail', evidence: expect.stringContaining('entryPath /nowhere/bin.js does not exist'), fix: expect.stringContaining('install --ide pi') });
  });
});

describe('OMP host module', () => {
  it('finds the agent dir: OMP_CODING_AGENT_DIR, a named profile, or ~/.omp/agent', () => {
    const w = world();
    expect(ompAgentDir(w.env)).toBe(join(w.home, '.omp', 'agent'));
    expect(ompAgentDir({ ...w.env, OMP_PROFILE: 'work' })).toBe(join(w.home, '.omp', 'profiles', 'work', 'agent'));
    expect(ompAgentDir({ ...w.env, OMP_PROFILE: '../x' })).toBe(join(w.home, '.omp', 'agent'));
    expect(ompAgentDir({ ...w.env, OMP_CODING_AGENT_DIR: '~/omp-here' })).toBe(join(w.home, 'omp-here'));
    // PI_CODING_AGENT_DIR is Pi's: not followed for OMP.
    expect(ompAgentDir({ ...w.env, PI_CODING_AGENT_DIR: '/elsewhere' })).toBe(join(w.home, '.omp', 'agent'));
  });

  it('plans the extension and mcpServers.claude-mem in mcp.json, and keeps the user\'s servers on uninstall', async () => {
    const w = world();
    npmBinary(w, 'omp', '@oh-my-pi/pi-coding-agent', '18.3.4');
    const agent = join(w.home, '.omp', 'agent');
    mkdirSync(agent, { recursive: true });
    const original = '{\n  // my servers\n  "mcpServers": {\n    "github": { "command": "gh-mcp" }\n  }\n}\n';
    writeFileSync(join(agent, 'mcp.json'), original);
    const ctx = await context(omp, w);
    expect(ctx.detection).toMatchObject({ installed: true, version: '18.3.4', facts: { apiKnown: true } });
    const plan = await omp.plan(ctx);
    expect(plan).toMatchObject({ capture: 'plugin', recall: 'mcp', notes: [] });
    await install(w, plan.changes);
    const mcp = readFileSync(join(agent, 'mcp.json'), 'utf8');
    expect(mcp).toContain('// my servers');
    expect(JSON.parse(mcp.replace(/\/\/.*\n/g, '\n')).mcpServers).toEqual({ github: { command: 'gh-mcp' }, 'claude-mem': { command: process.execPath, args: [w.entry, 'mcp'] } });
    expect(JSON.parse(readFileSync(join(agent, 'extensions', 'claude-mem', 'claude-mem.json'), 'utf8'))).toMatchObject({ host: 'omp' });
    expect((await omp.checks!(ctx)).map((c) => c.status)).toEqual(['ok', 'ok']);
    await revertFromManifest(join(w.dataDir, 'install-manifest.json'), { hosts: ['omp'] });
    expect(readFileSync(join(agent, 'mcp.json'), 'utf8')).toBe(original);
    expect(existsSync(join(agent, 'extensions'))).toBe(false);
  });
});
