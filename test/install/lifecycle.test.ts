/**
 * The whole life cycle through the built CLI on a lived-in HOME: install every host, install
 * again (not one byte changes), uninstall (the original tree comes back byte for byte).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HOST_IDS } from '../../src/shared/hosts.js';
import { cli, cliEnv, ensureBuiltNow, listTree, seedHome, tempHome, treeHash } from './helpers.js';

interface Doc {
  ok: boolean;
  hosts: Array<{ id: string; status: string; reason?: string; capture: string | null; captureDetail: string[]; files: Array<{ path: string; action: string }> }>;
}

function lived() {
  const t = tempHome();
  seedHome(t.home);
  return { ...t, env: cliEnv(t.env, { PATH: '/usr/bin:/bin' }) };
}

const parse = (s: string) => JSON.parse(s) as Doc;

beforeAll(() => ensureBuiltNow(), 180_000);

describe('install --ide all → reinstall → uninstall', () => {
  it('installs all 18 hosts, changes nothing the second time, and uninstall restores the original tree', () => {
    const w = lived();
    const original = treeHash(w.home);
    const originalFiles = listTree(w.home);

    const first = cli(w.env, ['install', '--yes', '--ide', 'all', '--no-start', '--json']);
    expect(first.code, first.stderr).toBe(0);
    const doc = parse(first.stdout);
    expect(doc.ok).toBe(true);
    expect(doc.hosts.map((h) => h.id)).toEqual([...HOST_IDS]);
    for (const h of doc.hosts) expect(h.status, `${h.id}: ${h.reason}`).toBe('ok');
    expect(statSync(w.dataDir).mode & 0o777).toBe(0o700);
    const manifest = JSON.parse(readFileSync(join(w.dataDir, 'install-manifest.json'), 'utf8')) as { hosts: Record<string, { meta?: Record<string, unknown> }> };
    for (const id of HOST_IDS) {
      expect(manifest.hosts[id]?.meta, id).toMatchObject({ capture: expect.any(String), recall: expect.any(String), installedAt: expect.any(String) });
    }
    // Exactly one capture writer per host, and Codex's is its hooks.
    expect(manifest.hosts.codex.meta!.capture).toBe('hooks');
    expect(manifest.hosts.t3code.meta!.capture).toBe('providers');

    const installed = treeHash(w.home);
    const second = cli(w.env, ['install', '--yes', '--ide', 'all', '--no-start', '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(treeHash(w.home), 'the second install changed bytes').toBe(installed);
    for (const h of parse(second.stdout).hosts) for (const f of h.files) expect(f.action, `${h.id} ${f.path}`).toBe('unchanged');

    const un = cli(w.env, ['uninstall', '--yes', '--json']);
    expect(un.code, un.stderr).toBe(0);
    expect(listTree(w.home, ['.claude-mem'])).toEqual(originalFiles);
    expect(treeHash(w.home, ['.claude-mem'])).toBe(original);
    expect(existsSync(join(w.dataDir, 'install-manifest.json'))).toBe(false);
    expect(existsSync(join(w.dataDir, 'settings.json'))).toBe(true); // data kept without --purge

    // Again, and this time purge: the HOME is exactly what it was before claude-mem.
    expect(cli(w.env, ['install', '--yes', '--ide', 'all', '--no-start']).code).toBe(0);
    const purge = cli(w.env, ['uninstall', '--yes', '--purge']);
    expect(purge.code, purge.stderr).toBe(0);
    expect(purge.stdout).toMatch(/data directory removed/);
    expect(treeHash(w.home)).toBe(original);
  }, 120_000);

  it('--dry-run prints per-file diffs and writes nothing at all (not even the data directory)', () => {
    const w = lived();
    const before = treeHash(w.home);
    const r = cli(w.env, ['install', '--dry-run', '--ide', 'all']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/dry run: nothing is written/);
    expect(r.stdout).toContain(`--- ${join(w.home, '.claude', 'settings.json')}\n+++ ${join(w.home, '.claude', 'settings.json')}`);
    expect(r.stdout).toMatch(/^\+.* hook claude-code /m);
    expect(r.stdout).toContain('--- /dev/null');
    expect(treeHash(w.home)).toBe(before);
    expect(existsSync(w.dataDir)).toBe(false);

    const j = cli(w.env, ['install', '--dry-run', '--yes', '--json', '--ide', 'codex']);
    expect(j.code).toBe(0);
    const doc = JSON.parse(j.stdout) as { dryRun: boolean; hosts: Array<{ id: string; files: Array<{ diff?: string }> }> };
    expect(doc.dryRun).toBe(true);
    expect(doc.hosts.find((h) => h.id === 'codex')!.files.some((f) => f.diff?.includes('[mcp_servers.claude-mem]'))).toBe(true);
    expect(treeHash(w.home)).toBe(before);
  }, 60_000);

  it('--codex-subagent-transcripts adds a subagent-only Codex watch (hooks stay the writer); uninstall removes it', () => {
    const w = lived();
    const watchFile = join(w.dataDir, 'transcript-watch.json');
    const plain = JSON.parse(cli(w.env, ['install', '--yes', '--ide', 'codex', '--no-start', '--json']).stdout) as Doc;
    expect(plain.hosts.find((h) => h.id === 'codex')!.capture).toBe('hooks');
    expect(existsSync(watchFile)).toBe(false);

    const r = cli(w.env, ['install', '--yes', '--ide', 'codex', '--no-start', '--codex-subagent-transcripts', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as Doc;
    const codex = doc.hosts.find((h) => h.id === 'codex')!;
    expect(codex.capture).toBe('hooks');
    expect(codex.captureDetail.join('\n')).toMatch(/subagent sessions: rollout transcript watch/);
    const watches = (JSON.parse(readFileSync(watchFile, 'utf8')) as { watches: Array<Record<string, unknown>> }).watches;
    expect(watches).toEqual([expect.objectContaining({ name: 'codex', schema: 'codex', subagentOnly: true })]);
    const manifest = JSON.parse(readFileSync(join(w.dataDir, 'install-manifest.json'), 'utf8')) as { hosts: Record<string, { meta: { overlaps: Array<{ with: string }> } }> };
    expect(manifest.hosts.codex.meta.overlaps).toEqual([expect.objectContaining({ with: 'codex:transcript' })]);

    expect(cli(w.env, ['uninstall', '--yes']).code).toBe(0);
    expect(existsSync(watchFile)).toBe(false);
  }, 60_000);

  it('uninstall --dry-run shows the reverse diffs and writes nothing; a partial uninstall keeps the other hosts', () => {
    const w = lived();
    const original = readFileSync(join(w.home, '.codex', 'config.toml'), 'utf8');
    expect(cli(w.env, ['install', '--yes', '--ide', 'claude-code', 'codex', '--no-start']).code).toBe(0);
    const installed = treeHash(w.home);
    const dry = cli(w.env, ['uninstall', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^-\[mcp_servers\.claude-mem\]/m);
    expect(treeHash(w.home)).toBe(installed);

    const part = cli(w.env, ['uninstall', '--ide', 'codex-cli', '--json']);
    expect(part.code, part.stderr).toBe(0);
    const doc = JSON.parse(part.stdout) as { hosts: Array<{ id: string; status: string }>; worker: { action: string }; remaining: string[] };
    expect(doc.hosts).toEqual([expect.objectContaining({ id: 'codex', status: 'ok' })]);
    expect(doc.worker.action).toBe('left-running');
    expect(doc.remaining).toEqual(['claude-code']);
    expect(readFileSync(join(w.home, '.codex', 'config.toml'), 'utf8')).toBe(original);
    expect(existsSync(join(w.home, '.codex', 'hooks.json'))).toBe(false);
    expect(readFileSync(join(w.home, '.claude', 'settings.json'), 'utf8')).toContain(' hook claude-code ');

    // Uninstalling something not installed reports it and creates nothing.
    const again = cli(w.env, ['uninstall', '--ide', 'codex', '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).hosts[0]).toMatchObject({ status: 'skipped', reason: expect.stringMatching(/not installed/) });
    expect(existsSync(join(w.home, '.codex', 'hooks.json'))).toBe(false);
  }, 60_000);
});
