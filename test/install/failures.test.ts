/** What goes wrong: an unparseable file, a crash between writes, bad usage, a machine with no host. */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bareEnv, cli, cliEnv, ensureBuiltNow, listTree, seedHome, tempHome, treeHash, write } from './helpers.js';

interface HostDoc {
  id: string;
  status: string;
  reason?: string;
  fix?: string;
  files: Array<{ path: string; action: string }>;
}

function lived() {
  const t = tempHome();
  seedHome(t.home);
  return { ...t, env: cliEnv(t.env, { PATH: '/usr/bin:/bin' }) };
}

/** Every file's bytes (null = absent), by path relative to home; the data directory left out. */
function contents(home: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const rel of listTree(home, ['.claude-mem'])) if (!rel.endsWith('/')) out.set(rel, readFileSync(join(home, rel), 'utf8'));
  return out;
}

beforeAll(() => ensureBuiltNow(), 180_000);

describe('install failures', () => {
  it('an unparseable file fails only its host, loudly (file:line:col and a fix), untouched; the others are installed; exit 1', () => {
    const w = lived();
    const broken = write(join(w.home, '.cursor', 'mcp.json'), '{\n  "mcpServers": {\n    "linear": { "url": "x" },,\n  }\n');
    const r = cli(w.env, ['install', '--yes', '--ide', 'claude-code', 'cursor', 'codex', '--no-start']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(new RegExp(`✗ Cursor +failed +${broken.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:\\d+: `));
    expect(r.stderr).toMatch(/fix: .*mcp\.json:3:\d+/);
    expect(r.stderr).toMatch(/1 host\(s\) failed: Cursor\. The others were installed\./);
    expect(r.stdout).toMatch(/✓ Claude Code +ok/);
    expect(r.stdout).toMatch(/✓ Codex CLI +ok/);
    expect(readFileSync(broken, 'utf8')).toBe('{\n  "mcpServers": {\n    "linear": { "url": "x" },,\n  }\n');
    // Cursor's other file is left alone too: a host is never half-installed.
    expect(readFileSync(join(w.home, '.cursor', 'hooks.json'), 'utf8')).not.toContain('claude-mem');
    expect(readFileSync(join(w.home, '.claude', 'settings.json'), 'utf8')).toContain(' hook claude-code ');

    const j = cli(w.env, ['install', '--yes', '--ide', 'claude-code', 'cursor', '--no-start', '--json']);
    expect(j.code).toBe(1);
    const doc = JSON.parse(j.stdout) as { ok: boolean; hosts: HostDoc[] };
    expect(doc.ok).toBe(false);
    const cursor = doc.hosts.find((h) => h.id === 'cursor')!;
    expect(cursor).toMatchObject({ status: 'failed', reason: expect.stringContaining(`${broken}:3:`), fix: expect.any(String) });
    expect(doc.hosts.find((h) => h.id === 'claude-code')!.status).toBe('ok');
  }, 60_000);

  it('a crash between two file writes leaves every file old or new; the next install completes; uninstall restores all', () => {
    const w = lived();
    const original = contents(w.home);
    const originalHash = treeHash(w.home);
    const crash = cli({ ...w.env, CLAUDE_MEM_TEST_CRASH_AFTER_WRITES: '3' }, ['install', '--yes', '--ide', 'all', '--no-start']);
    expect(crash.code, crash.stderr).toBe(75);
    expect(crash.stderr).toMatch(/simulated crash after 3 file write/);
    const atCrash = contents(w.home);

    const done = cli(w.env, ['install', '--yes', '--ide', 'all', '--no-start', '--json']);
    expect(done.code, done.stderr).toBe(0);
    const final = contents(w.home);
    let changed = 0;
    for (const path of new Set([...original.keys(), ...atCrash.keys(), ...final.keys()])) {
      const now = atCrash.get(path);
      expect([original.get(path), final.get(path)], `${path} is neither old nor new`).toContainEqual(now);
      if (now !== original.get(path)) changed++;
    }
    expect(changed).toBeGreaterThanOrEqual(1);
    expect(changed).toBeLessThan([...final.keys()].filter((p) => final.get(p) !== original.get(p)).length);
    // No temporary file was left next to any config.
    expect([...final.keys()].filter((p) => p.includes('.claude-mem-') && p.endsWith('.tmp'))).toEqual([]);

    expect(cli(w.env, ['uninstall', '--yes']).code).toBe(0);
    expect(treeHash(w.home, ['.claude-mem'])).toBe(originalHash);
  }, 120_000);

  it('an unreadable install manifest stops install and uninstall with the reason and a fix, touching nothing', () => {
    const w = lived();
    write(join(w.dataDir, 'install-manifest.json'), '{ not json');
    const before = treeHash(w.home);
    for (const args of [['install', '--yes', '--ide', 'cursor', '--no-start'], ['uninstall', '--yes']]) {
      const r = cli(w.env, args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stderr).toMatch(/install-manifest\.json: unreadable install manifest/);
      expect(r.stderr).toMatch(/fix: /);
    }
    expect(treeHash(w.home)).toBe(before);
  });

  it('the crash switch is ignored outside the test harness', () => {
    const w = lived();
    const env: NodeJS.ProcessEnv = { ...w.env, CLAUDE_MEM_TEST_CRASH_AFTER_WRITES: '0' };
    delete env.CLAUDE_MEM_TEST_ROOT;
    expect(cli(env, ['install', '--yes', '--ide', 'cursor', '--no-start']).code).toBe(0);
  });
});

describe('usage', () => {
  it('unknown hosts, unknown options and contradictory flags exit 2 and change nothing', () => {
    const w = lived();
    const before = treeHash(w.home);
    const bad = cli(w.env, ['install', '--yes', '--ide', 'claude', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/Unknown host "nope"/);
    expect(cli(w.env, ['install', '--frobnicate']).code).toBe(2);
    expect(cli(w.env, ['uninstall', '--ide', 'nope']).code).toBe(2);
    const purge = cli(w.env, ['uninstall', '--yes', '--purge', '--ide', 'codex']);
    expect(purge.code).toBe(2);
    expect(purge.stderr).toMatch(/--purge/);
    const json = cli(w.env, ['install', '--json', '--ide', 'nope']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: 'usage' } });
    expect(treeHash(w.home)).toBe(before);
  });

  it('no terminal and no answer: install exits 2 with what to pass, and writes nothing', () => {
    const w = lived();
    const before = treeHash(w.home);
    for (const env of [w.env, { ...w.env, CI: '1' }]) {
      const r = cli(env, ['install']);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/no terminal to ask.*--yes.*--ide <ids\.\.\.>.*--dry-run/);
    }
    expect(cli(w.env, ['uninstall']).code).toBe(2);
    expect(cli(w.env, ['uninstall', '--purge', '--ide', 'all']).code).toBe(2);
    expect(treeHash(w.home)).toBe(before);
  });

  it('--help documents the non-interactive defaults and the exit codes', () => {
    const w = lived();
    const r = cli(w.env, ['install', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/none of these +exits 2/);
    expect(r.stdout).toMatch(/130 cancelled/);
    expect(r.stdout).toMatch(/--codex-subagent-transcripts/);
    expect(cli(w.env, ['uninstall', '--help']).stdout).toMatch(/--purge/);
  });
});

describe('a machine with no host', () => {
  it('says so plainly, still prepares the data directory (0700, settings, token), exit 0', () => {
    const w = bareEnv();
    const r = cli(w.env, ['install', '--yes', '--no-start']);
    expect(r.code, r.stderr).toBe(0);
    // claude-mem is not on this PATH: the command is printed as the shim install wrote.
    expect(r.stdout).toContain('No supported host was found. Nothing was configured. To add one later: ~/.claude-mem/bin/claude-mem install --ide <host>');
    expect(statSync(w.dataDir).mode & 0o777).toBe(0o700);
    expect(readdirSync(w.dataDir).sort()).toEqual(expect.arrayContaining(['settings.json', 'worker.token']));
    expect(statSync(join(w.dataDir, 'worker.token')).mode & 0o777).toBe(0o600);
    expect(existsSync(join(w.dataDir, 'install-manifest.json'))).toBe(false);
    // Only the data directory appeared.
    expect(listTree(w.home).filter((p) => !p.startsWith('.claude-mem'))).toEqual([]);

    const j = cli(w.env, ['install', '--yes', '--no-start', '--json']);
    const doc = JSON.parse(j.stdout) as { ok: boolean; message: string; hosts: HostDoc[] };
    expect(doc.ok).toBe(true);
    expect(doc.message).toMatch(/No supported host was found/);
    expect(doc.hosts).toHaveLength(18);
    expect(doc.hosts.every((h) => h.status === 'skipped' && /not detected/.test(h.reason ?? ''))).toBe(true);
    expect(cli(w.env, ['uninstall', '--yes']).stdout).toMatch(/Nothing to uninstall/);
  });
});
