/** Shared set-up for host-module tests: fixture HOMEs copied to a temp dir, a fixed runtime, tree snapshots. */
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { applyPlan, planChanges, revertFromManifest, type Change } from '../../src/npx-cli/engine/index.js';
import { loadHostModules } from '../../src/npx-cli/hosts/modules.js';
import type { HostModule, InstallContext } from '../../src/npx-cli/hosts/types.js';
import type { HostId } from '../../src/shared/hosts.js';
import type { Env } from '../../src/shared/paths.js';
import { VERSION } from '../../src/shared/version.js';
import { REPO_ROOT, tempDir } from '../helpers/temp.js';

/** Paths the generated commands name; they need not exist for planning. */
export const RT = { nodePath: '/opt/node/bin/node', entryPath: '/opt/claude-mem/dist/bin.js' };
export const FIXTURE_HOMES = join(REPO_ROOT, 'test', 'fixtures', 'homes');

/** Hosts whose plugin carries their capture: tested with their plugins (test/plugins). */
const PLUGIN_HOSTS: readonly HostId[] = ['opencode', 'openclaw', 'omp', 'pi', 'dsh'];

/** Every other host module of the registry, in its order: the hosts this folder tests. */
export const MY_MODULES: readonly HostModule[] = (await loadHostModules()).filter((m) => !PLUGIN_HOSTS.includes(m.id));
export const MY_HOSTS: HostId[] = MY_MODULES.map((m) => m.id);

export function hostModule(id: HostId): HostModule {
  const mod = MY_MODULES.find((m) => m.id === id);
  if (!mod) throw new Error(`not a host of this folder: ${id}`);
  return mod;
}

export interface Home {
  home: string;
  /** Outside HOME, so snapshots of HOME see only host files. */
  dataDir: string;
  bin: string;
  env: Env;
  manifestPath: string;
  backupsDir: string;
}

/** Fixture files naming an absolute path in HOME say `{{HOME}}`: filled in with the temp HOME. */
function fillHome(src: string, home: string, rel = ''): void {
  for (const name of readdirSync(join(src, rel))) {
    const r = join(rel, name);
    if (statSync(join(src, r)).isDirectory()) fillHome(src, home, r);
    else {
      const text = readFileSync(join(src, r), 'utf8');
      if (text.includes('{{HOME}}')) writeFileSync(join(home, r), text.replaceAll('{{HOME}}', home));
    }
  }
}

/** A temp HOME holding the fixture HOMEs of `hosts` (merged), and an empty PATH directory. */
export function makeHome(hosts: readonly string[], name = 'home'): Home {
  const root = tempDir('hosts');
  const home = join(root, name);
  mkdirSync(home, { recursive: true });
  for (const h of hosts) {
    const src = join(FIXTURE_HOMES, h, 'home');
    if (existsSync(src)) {
      cpSync(src, home, { recursive: true, preserveTimestamps: true });
      fillHome(src, home);
    }
  }
  const dataDir = join(root, 'data');
  const bin = join(root, 'bin');
  mkdirSync(bin, { recursive: true });
  const env: Env = {
    HOME: home,
    PATH: bin,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    CLAUDE_MEM_DATA_DIR: dataDir,
  };
  return { home, dataDir, bin, env, manifestPath: join(dataDir, 'install-manifest.json'), backupsDir: join(dataDir, 'backups') };
}

/** A fake executable on the test PATH. */
export function fakeBinary(h: Home, name: string, script: string): string {
  const path = join(h.bin, name);
  writeFileSync(path, `#!/bin/sh\n${script}\n`);
  chmodSync(path, 0o755);
  return path;
}

export async function contextFor(mod: HostModule, h: Home, opts: { selected?: HostId[]; rt?: typeof RT; env?: Env } = {}): Promise<InstallContext> {
  const env = opts.env ?? h.env;
  return {
    env,
    home: h.home,
    dataDir: h.dataDir,
    ...(opts.rt ?? RT),
    packageRoot: '/opt/claude-mem',
    detection: await mod.detect(env),
    selected: opts.selected ?? [mod.id],
  };
}

export async function planFor(ids: readonly HostId[], h: Home, opts: { rt?: typeof RT; env?: Env } = {}) {
  const changes: Change[] = [];
  const plans = [];
  for (const id of ids) {
    const mod = hostModule(id);
    const plan = await mod.plan(await contextFor(mod, h, { selected: [...ids], ...opts }));
    plans.push(plan);
    changes.push(...plan.changes);
  }
  return { changes, plans };
}

export async function install(h: Home, changes: Change[]) {
  const plan = await planChanges(changes);
  const summary = await applyPlan(plan, { manifestPath: h.manifestPath, backupsDir: h.backupsDir });
  return { plan, summary };
}

export const uninstall = (h: Home, hosts?: string[]) => revertFromManifest(h.manifestPath, { hosts });

/** Every entry under `root`: directories as `dir`, files as mode + content. */
export function snapshot(root: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const s = statSync(p);
      const rel = relative(root, p);
      if (s.isDirectory()) {
        out.set(`${rel}/`, 'dir');
        walk(p);
      } else out.set(rel, `${(s.mode & 0o777).toString(8)}\n${readFileSync(p, 'utf8')}`);
    }
  };
  walk(root);
  return out;
}

/** Expected files after install, relative to HOME (`{{VERSION}}` is the package version). */
export function expectedFiles(host: string): Map<string, string> {
  const root = join(FIXTURE_HOMES, host, 'expected');
  const out = new Map<string, string>();
  if (!existsSync(root)) return out;
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.set(relative(root, p), readFileSync(p, 'utf8').replaceAll('{{VERSION}}', VERSION));
    }
  };
  walk(root);
  return out;
}

/** Writes the current install result as the expected files (run with UPDATE_EXPECTED=1, then review the diff). */
export function writeExpected(host: string, h: Home, files: readonly string[]): void {
  for (const rel of files) {
    const dest = join(FIXTURE_HOMES, host, 'expected', rel);
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, readFileSync(join(h.home, rel), 'utf8').replaceAll(VERSION, '{{VERSION}}'));
  }
}

export const read = (path: string) => readFileSync(path, 'utf8');
