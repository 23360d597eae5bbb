/**
 * The DeepSeek Harness host module: the transcript watch (single writer), the patch rows in
 * $DSH_HOME/cordis.patch.yml (appended to the user's list, comments kept, removed exactly), the
 * recall plugin folder, and the doctor checks.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyPlan, planChanges, revertFromManifest, type Change, type FileChange, type JsonArrayUpsertChange } from '../../src/npx-cli/engine/index.js';
import { dsh, dshHome, WATCH_MANAGED_BY } from '../../src/hosts/dsh/dsh-install.js';
import type { InstallContext } from '../../src/npx-cli/hosts/types.js';
import type { Env } from '../../src/shared/paths.js';
import { validateConfig } from '../../src/transcripts/config.js';
import { loadShippedSchemas } from '../../src/transcripts/shipped.js';
import { expandVars } from '../../src/transcripts/glob.js';
import { REPO_ROOT, tempDir } from '../helpers/temp.js';
import { ensureBundles } from './pi-harness.js';
import { pluginWorld, type PluginWorld } from './world.js';

beforeAll(() => ensureBundles(['dsh']), 240_000);

interface World extends PluginWorld { dsh: string }

function world(extra: Env = {}): World {
  const w = pluginWorld('dsh-host', extra);
  return { ...w, dsh: dshHome(w.env) };
}

async function context(w: World): Promise<InstallContext> {
  return { env: w.env, home: w.home, dataDir: w.dataDir, nodePath: process.execPath, entryPath: w.entry, packageRoot: REPO_ROOT, detection: await dsh.detect(w.env), selected: ['dsh'] };
}

async function install(w: World, changes: Change[]) {
  const plan = await planChanges(changes);
  expect(plan.filter((f) => f.error)).toEqual([]);
  await applyPlan(plan, { manifestPath: join(w.dataDir, 'install-manifest.json'), backupsDir: join(w.dataDir, 'backups') });
}

const USER_PATCH = `# my overlay
- insert:
    - id: web-open
      name: dsh-web-open   # opens the browser

- patch:
    id: tools
    config:
      presentation: native
`;

describe('DeepSeek Harness host module', () => {
  it('captures by transcript watch, recalls by MCP: the watch entry is the worker\'s own config shape', async () => {
    const w = world();
    const plan = await dsh.plan(await context(w));
    expect(plan).toMatchObject({ capture: 'transcript', recall: 'mcp' });
    const watch = plan.changes.find((c): c is JsonArrayUpsertChange => c.kind === 'json-array-upsert')!;
    expect(watch).toMatchObject({ file: join(w.dataDir, 'transcript-watch.json'), path: ['watches'], match: [{ path: ['name'], equals: 'dsh' }] });
    expect(watch.entry).toEqual({ name: 'dsh', path: join(w.dsh, 'sessions', '**', 'session.jsonl*'), schema: 'dsh', startAtEnd: true, managedBy: WATCH_MANAGED_BY });
    const check = validateConfig({ watches: [watch.entry] }, Object.keys(loadShippedSchemas().schemas));
    expect(check.errors).toEqual([]);
    expect(expandVars((watch.entry as { path: string }).path, {})).toBe((watch.entry as { path: string }).path);
  });

  it('honours DSH_HOME for the watch, the patch file and the plugin folder', async () => {
    const custom = join(tempDir('dsh-home'), 'h');
    const w = world({ DSH_HOME: custom });
    const plan = await dsh.plan(await context(w));
    expect(plan.changes.map((c) => c.file).filter((f) => !f.endsWith('transcript-watch.json')).every((f) => f.startsWith(custom))).toBe(true);
  });

  it('appends the mcp-client row and the recall plugin row to the user\'s patch list, keeps everything else, removes them exactly', async () => {
    const w = world();
    mkdirSync(w.dsh, { recursive: true });
    const patch = join(w.dsh, 'cordis.patch.yml');
    writeFileSync(patch, USER_PATCH);
    const ctx = await context(w);
    await install(w, (await dsh.plan(ctx)).changes);
    const text = readFileSync(patch, 'utf8');
    expect(text.startsWith(USER_PATCH)).toBe(true);
    expect(text).toContain('# claude-mem:begin dsh');
    const rows = parseYaml(text) as Array<Record<string, any>>;
    expect(rows).toHaveLength(3);
    expect(rows[2].insert).toEqual([
      {
        id: 'claude-mem-mcp', name: '@deepseek-ai/dsh-mcp-client',
        config: { serverName: 'claude-mem', transport: 'stdio', command: process.execPath, args: [w.entry, 'mcp'], env: { CLAUDE_MEM_DATA_DIR: w.dataDir }, failOnStartupError: false },
      },
      { id: 'claude-mem', name: join(w.dsh, 'claude-mem', 'index.js') },
    ]);
    expect(existsSync(join(w.dsh, 'claude-mem', 'index.js'))).toBe(true);
    expect(JSON.parse(readFileSync(join(w.dataDir, 'transcript-watch.json'), 'utf8')).watches).toHaveLength(1);
    expect((await dsh.checks!(ctx)).map((c) => [c.id, c.status])).toEqual([['dsh.plugin-runtime', 'ok'], ['dsh.mcp-row', 'ok']]);
    expect((await planChanges((await dsh.plan(ctx)).changes)).filter((f) => f.changed)).toEqual([]);

    await revertFromManifest(join(w.dataDir, 'install-manifest.json'), { hosts: ['dsh'] });
    expect(readFileSync(patch, 'utf8')).toBe(USER_PATCH);
    expect(existsSync(join(w.dsh, 'claude-mem'))).toBe(false);
    expect((await dsh.checks!(ctx)).map((c) => c.status)).toEqual(['fail', 'fail']);
  });

  it('creates the patch file when there is none (a valid one-row list)', async () => {
    const w = world();
    await install(w, (await dsh.plan(await context(w))).changes);
    const rows = parseYaml(readFileSync(join(w.dsh, 'cordis.patch.yml'), 'utf8')) as unknown[];
    expect(rows).toHaveLength(1);
  });

  it('refuses a patch file whose top level is not a list, with the file and a fix', async () => {
    const w = world();
    mkdirSync(w.dsh, { recursive: true });
    writeFileSync(join(w.dsh, 'cordis.patch.yml'), 'plugins:\n  a: 1\n');
    await expect(dsh.plan(await context(w))).rejects.toMatchObject({ code: 'CONFIG_CONFLICT', fix: expect.stringContaining('YAML list of patch rows') });
    writeFileSync(join(w.dsh, 'cordis.patch.yml'), '- insert: [\n');
    await expect(dsh.plan(await context(w))).rejects.toMatchObject({ message: expect.stringContaining('invalid YAML') });
  });

  it('the plugin folder holds the bundle and its claude-mem.json', async () => {
    const w = world();
    const files = (await dsh.plan(await context(w))).changes.filter((c): c is FileChange => c.kind === 'file');
    expect(files.map((f) => f.file.slice(w.dsh.length + 1))).toEqual(['claude-mem/index.js', 'claude-mem/package.json', 'claude-mem/claude-mem.json']);
    expect(JSON.parse(files[2].content)).toMatchObject({ host: 'dsh', dataDir: w.dataDir });
  });
});
