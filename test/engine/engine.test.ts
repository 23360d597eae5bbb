import { lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  applyPlan, ConfigParseError, loadManifest, planChanges, renderPlan, revertFromManifest, type Change,
} from '../../src/npx-cli/engine/index.js';
import { install, read, setup, stamp, treeHash, uninstall, write, type Ctx } from './helpers.js';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

function fixture(ctx: Ctx) {
  const settings = write(join(ctx.dir, '.claude', 'settings.json'), '{\n  // mine\n  "model": "opus"\n}\n');
  const codex = write(join(ctx.dir, '.codex', 'config.toml'), '# codex\n[features]\nweb_search_request = true\n');
  const goose = write(join(ctx.dir, '.config', 'goose', 'config.yaml'), 'GOOSE_MODEL: x\nextensions:\n  developer:\n    enabled: true\n');
  const changes: Change[] = [
    { kind: 'json-set', file: settings, host: 'claude-code', path: ['hooks'], value: { Stop: [{ hooks: [{ type: 'command', command: 'claude-mem hook claude-code Stop' }] }] } },
    { kind: 'toml-set', file: codex, host: 'codex', table: ['features'], key: 'hooks', value: true },
    { kind: 'toml-table', file: codex, host: 'codex', table: ['mcp_servers', 'claude-mem'], value: { command: 'node' } },
    { kind: 'yaml-set', file: goose, host: 'goose', path: ['extensions', 'claude-mem'], value: { cmd: 'node', enabled: true } },
  ];
  return { settings, codex, goose, changes, originals: [settings, codex, goose].map(read) };
}

const root = (ctx: Ctx) => dirname(dirname(ctx.dir));

describe('engine', () => {
  it('dry run: plans every diff and writes nothing, for install and uninstall', async () => {
    const ctx = setup();
    const { changes, codex } = fixture(ctx);
    const before = treeHash(root(ctx));
    const plan = await planChanges(changes);
    expect(treeHash(root(ctx))).toBe(before);
    const text = renderPlan(plan);
    expect(text).toContain(`--- ${codex}\n+++ ${codex}\n`);
    expect(text).toContain('+hooks = true\n');
    expect(text).toContain('+  claude-mem:\n');
    await applyPlan(plan, ctx);
    const installed = treeHash(root(ctx));
    const revert = await revertFromManifest(ctx.manifestPath, { dryRun: true });
    expect(revert.files.every((f) => f.changed)).toBe(true);
    expect(revert.files.find((f) => f.path === codex)!.diff).toContain('-hooks = true\n');
    expect(treeHash(root(ctx))).toBe(installed);
  });

  it('a second install writes nothing at all; uninstall restores every file byte for byte', async () => {
    const ctx = setup();
    const { changes, settings, codex, goose, originals } = fixture(ctx);
    await install(ctx, changes);
    const stamps = [settings, codex, goose, ctx.manifestPath].map(stamp);
    const installed = treeHash(root(ctx));
    const again = await install(ctx, changes);
    expect(again.summary.written).toEqual([]);
    expect(again.summary.unchanged).toHaveLength(3);
    expect([settings, codex, goose, ctx.manifestPath].map(stamp)).toEqual(stamps);
    expect(treeHash(root(ctx))).toBe(installed);
    const r = await uninstall(ctx);
    expect(r.written.sort()).toEqual([settings, codex, goose].sort());
    expect([settings, codex, goose].map(read)).toEqual(originals);
    expect(() => statSync(ctx.manifestPath)).toThrow(); // nothing left to undo: no empty manifest either
  });

  it('backs each file up once (0600, named after its path and content hash) and records it in a schema-versioned manifest', async () => {
    const ctx = setup();
    const { changes, codex, originals } = fixture(ctx);
    const { summary } = await install(ctx, changes);
    expect(summary.backups).toHaveLength(3);
    const name = readdirSync(ctx.backupsDir).find((n) => n.includes('.codex_config.toml'))!;
    expect(name).toMatch(new RegExp(`\\.${sha(originals[1]).slice(0, 12)}\\.bak$`));
    expect(readFileSync(join(ctx.backupsDir, name), 'utf8')).toBe(originals[1]);
    expect(statSync(join(ctx.backupsDir, name)).mode & 0o777).toBe(0o600);
    expect(statSync(ctx.manifestPath).mode & 0o777).toBe(0o600);
    // A later install that changes the file again does not back it up again.
    await install(ctx, changes.map((c) => (c.kind === 'toml-table' ? { ...c, value: { command: 'node2' } } : c)));
    expect(readdirSync(ctx.backupsDir)).toHaveLength(3);

    const m = loadManifest(ctx.manifestPath);
    expect(m.schemaVersion).toBe(1);
    expect(Object.keys(m.hosts).sort()).toEqual(['claude-code', 'codex', 'goose']);
    const entry = m.hosts.codex.files[codex];
    expect(entry).toMatchObject({ createdByUs: false, hashBefore: sha(originals[1]), hashAfter: sha(read(codex)), state: 'applied', backup: join(ctx.backupsDir, name) });
    expect(entry.changes.map((c) => [c.id, c.change.kind, c.previous])).toEqual([
      ['toml-set:["features","hooks"]', 'toml-set', { present: false }],
      ['toml-table:["mcp_servers","claude-mem"]', 'toml-table', { present: false }],
    ]);
  });

  it('crash between two writes: each file is old or new, and running install again completes the job', async () => {
    const ctx = setup();
    const { changes, settings, codex, goose, originals } = fixture(ctx);
    const plan = await planChanges(changes);
    await expect(applyPlan(plan, { ...ctx, beforeWrite: (_p, i) => { if (i === 1) throw new Error('killed'); } })).rejects.toThrow('killed');
    expect(read(settings)).toBe(plan[0].after);
    expect([read(codex), read(goose)]).toEqual(originals.slice(1));
    const m = loadManifest(ctx.manifestPath);
    expect(m.hosts['claude-code'].files[settings].state).toBe('applied');
    expect(m.hosts.codex.files[codex].state).toBe('pending');

    const rerun = await install(ctx, changes);
    expect(rerun.summary.written.sort()).toEqual([codex, goose].sort());
    expect(rerun.summary.unchanged).toEqual([settings]);
    expect([settings, codex, goose].map(read)).toEqual(plan.map((f) => f.after));
    await uninstall(ctx);
    expect([settings, codex, goose].map(read)).toEqual(originals);
  });

  it('crash after a write but before its manifest update: the pending record keeps the right previous values', async () => {
    const ctx = setup();
    const { changes, settings, codex, goose, originals } = fixture(ctx);
    await install(ctx, changes);
    // What the manifest looked like right after the first rename: entries still pending.
    const m = loadManifest(ctx.manifestPath);
    for (const h of Object.values(m.hosts)) for (const f of Object.values(h.files)) Object.assign(f, { state: 'pending', hashAfter: null });
    writeFileSync(ctx.manifestPath, JSON.stringify(m));
    const rerun = await install(ctx, changes);
    expect(rerun.summary.written).toEqual([]);
    expect(loadManifest(ctx.manifestPath).hosts.codex.files[codex].state).toBe('applied');
    await uninstall(ctx);
    expect([settings, codex, goose].map(read)).toEqual(originals);
  });

  it('the durable pending record names each backup before any file is written, and diffs wait until read', async () => {
    const ctx = setup();
    const { changes, codex, originals } = fixture(ctx);
    const plan = await planChanges(changes);
    let seen: ReturnType<typeof loadManifest> | undefined;
    await expect(applyPlan(plan, { ...ctx, beforeWrite: (_p, i) => { if (i === 0) { seen = loadManifest(ctx.manifestPath); throw new Error('killed'); } } })).rejects.toThrow('killed');
    const entry = seen!.hosts.codex.files[codex];
    expect(entry.state).toBe('pending');
    expect(readFileSync(entry.backup!, 'utf8')).toBe(originals[1]);
    expect(Object.getOwnPropertyDescriptor(plan[1], 'diff')?.get).toBeTypeOf('function');
    expect(plan[1].diff).toContain('[mcp_servers.claude-mem]');
  });

  it('keeps a config file\'s mode and writes through a symlink (dotfile managers)', async () => {
    const ctx = setup();
    const real = write(join(ctx.dir, 'dotfiles', 'settings.json'), '{}\n');
    chmodSync(real, 0o600);
    const link = join(ctx.dir, '.claude', 'settings.json');
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(real, link);
    await install(ctx, [{ kind: 'json-set', file: link, host: 'claude-code', path: ['x'], value: 1 }]);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(read(real)).toBe('{\n  "x": 1\n}\n');
    expect(statSync(real).mode & 0o777).toBe(0o600);
    await uninstall(ctx);
    expect(read(real)).toBe('{}\n');
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it('two hosts sharing a file: uninstalling one leaves the other\'s entries', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, '.gemini', 'settings.json'), '{\n  "theme": "x"\n}\n');
    const a: Change = { kind: 'json-set', file, host: 'gemini', path: ['mcpServers', 'claude-mem'], value: { command: 'node' } };
    const b: Change = { kind: 'json-set', file, host: 'antigravity', path: ['hooks'], value: { SessionStart: [] } };
    await install(ctx, [a, b]);
    await uninstall(ctx, ['gemini']);
    expect(read(file)).toBe('{\n  "theme": "x",\n  "hooks": {\n    "SessionStart": []\n  }\n}\n');
    expect(Object.keys(loadManifest(ctx.manifestPath).hosts)).toEqual(['antigravity']);
    await uninstall(ctx);
    expect(read(file)).toBe('{\n  "theme": "x"\n}\n');
  });

  it('uninstall: a file broken since install fails its host only; the rest is reverted and the record kept', async () => {
    const ctx = setup();
    const { changes, settings, codex, goose, originals } = fixture(ctx);
    await install(ctx, changes);
    write(codex, `${read(codex)}[broken\n`);
    const r = await uninstall(ctx);
    expect(r.failed.map((f) => [f.path, f.hosts, f.error.constructor])).toEqual([[codex, ['codex'], ConfigParseError]]);
    expect([read(settings), read(goose)]).toEqual([originals[0], originals[2]]);
    expect(Object.keys(loadManifest(ctx.manifestPath).hosts)).toEqual(['codex']);
  });

  it('refuses to write a file that changed between plan and apply', async () => {
    const ctx = setup();
    const { changes, codex } = fixture(ctx);
    const plan = await planChanges(changes);
    write(codex, `${read(codex)}# edited meanwhile\n`);
    const summary = await applyPlan(plan, ctx);
    expect(summary.failed.map((f) => f.path)).toEqual([codex]);
    expect(read(codex)).toContain('# edited meanwhile');
    expect(summary.written).toHaveLength(2);
  });

  it('plans and applies 40 small files well under a second', async () => {
    const ctx = setup();
    const changes: Change[] = [];
    for (let i = 0; i < 10; i++) {
      const d = join(ctx.dir, `host${i}`);
      const json = write(join(d, 'settings.json'), '{\n  // c\n  "hooks": { "Stop": [ { "command": "x" } ] }\n}\n');
      const toml = write(join(d, 'config.toml'), '# c\n[features]\nx = 1\n\n[mcp_servers.other]\ncommand = "y"\n');
      const yaml = write(join(d, 'config.yaml'), 'extensions:\n  other:\n    enabled: true\n');
      const md = write(join(d, 'AGENTS.md'), '# rules\n');
      const host = basename(d);
      changes.push(
        { kind: 'json-array-upsert', file: json, host, path: ['hooks', 'Stop'], match: [{ contains: 'claude-mem' }], entry: { command: 'claude-mem hook' } },
        { kind: 'json-array-upsert', file: json, host, path: ['hooks', 'SessionStart'], match: [{ contains: 'claude-mem' }], entry: { command: 'claude-mem hook' } },
        { kind: 'toml-set', file: toml, host, table: ['features'], key: 'hooks', value: true },
        { kind: 'toml-table', file: toml, host, table: ['mcp_servers', 'claude-mem'], value: { command: 'node', args: ['mcp'] } },
        { kind: 'yaml-set', file: yaml, host, path: ['extensions', 'claude-mem'], value: { cmd: 'node', enabled: true } },
        { kind: 'text-block', file: md, host, id: 'context', content: 'Use mem_search.' },
      );
    }
    const t0 = performance.now();
    const { summary } = await install(ctx, changes);
    const ms = performance.now() - t0;
    expect(summary.written).toHaveLength(40);
    console.log(`plan+apply of 40 files: ${ms.toFixed(0)} ms`);
    expect(ms).toBeLessThan(1000);
    const t1 = performance.now();
    await install(ctx, changes);
    console.log(`re-install (no writes) of 40 files: ${(performance.now() - t1).toFixed(0)} ms`);
  });
});
