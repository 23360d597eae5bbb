/**
 * Uninstall removes ours and only ours: a hook the user put in the group install created stays,
 * a key the user added to [mcp_servers.claude-mem] stays (commented out: Codex refuses the table
 * without a command); and with the data directory gone, our entries are found in the host files
 * themselves, said first, then removed.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { beforeAll, describe, expect, it } from 'vitest';
import { spawnCollect } from '../helpers/spawn.js';
import { ensureHostPackage, warnSkip } from '../e2e/support/host-cache.js';
import { HOST_PACKAGES } from '../e2e/support/host-packages.js';
import { cli, cliEnv, ensureBuiltNow, tempHome, write } from './helpers.js';

const CODEX_CONFIG = '# mine\nmodel = "o4"\n';
const SETTINGS = '{\n  "model": "opus"\n}\n';

function home() {
  const t = tempHome();
  const env = cliEnv(t.env, { PATH: '/usr/bin:/bin' });
  const settings = write(join(t.home, '.claude', 'settings.json'), SETTINGS);
  const codexConfig = write(join(t.home, '.codex', 'config.toml'), CODEX_CONFIG);
  return { ...t, env, settings, codexConfig, claudeJson: join(t.home, '.claude.json'), codexHooks: join(t.home, '.codex', 'hooks.json') };
}

const USER_HOOK = { type: 'command', command: '~/bin/notify.sh' };

beforeAll(() => ensureBuiltNow(), 180_000);

describe('uninstall, at the finest grain', () => {
  it('keeps a hook the user added to our group and a key they added to our MCP table, and says so', async () => {
    const h = home();
    expect(cli(h.env, ['install', '--yes', '--ide', 'claude-code', 'codex', '--no-start']).code).toBe(0);
    const doc = JSON.parse(readFileSync(h.settings, 'utf8')) as { hooks: Record<string, Array<{ hooks: unknown[] }>> };
    doc.hooks.Stop[0].hooks.push(USER_HOOK);
    write(h.settings, `${JSON.stringify(doc, null, 2)}\n`);
    const toml = readFileSync(h.codexConfig, 'utf8').replace(/(\[mcp_servers\.claude-mem\]\n(?:.+\n)+)/, '$1startup_timeout_sec = 30\n');
    expect(toml).toContain('startup_timeout_sec = 30');
    write(h.codexConfig, toml);

    const r = cli(h.env, ['uninstall', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    const after = JSON.parse(readFileSync(h.settings, 'utf8')) as { hooks: Record<string, unknown[]> };
    expect(after.hooks).toEqual({ Stop: [{ hooks: [USER_HOOK] }] });
    expect(r.stdout).toMatch(/note: hooks\.Stop: kept the group you added your own hooks entries to; removed only claude-mem's/);
    const config = readFileSync(h.codexConfig, 'utf8');
    expect(config).toContain('# startup_timeout_sec = 30');
    expect(config).not.toMatch(/^command = /m);
    // What is left loads: no [mcp_servers.claude-mem] without a command.
    expect(parseToml(config)).toEqual({ model: 'o4' });
    expect(r.stdout).toMatch(/note: \[mcp_servers\.claude-mem\] also held your startup_timeout_sec: removed claude-mem's keys and kept yours, commented out/);
    // The real Codex starts on what is left (it refuses [mcp_servers.claude-mem] without a command).
    const codex = await ensureHostPackage(HOST_PACKAGES.codex);
    if (!codex.ok) return warnSkip('codex on the uninstalled config', codex.reason);
    const list = await spawnCollect(codex.binPath, ['mcp', 'list'], { cwd: h.home, env: { ...h.env, CODEX_HOME: join(h.home, '.codex') }, timeoutMs: 60_000 });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).not.toContain('claude-mem');
  }, 600_000);

  it('without the data directory: finds our entries in the host files, says which first, removes them', () => {
    const h = home();
    expect(cli(h.env, ['install', '--yes', '--ide', 'claude-code', 'codex', '--no-start']).code).toBe(0);
    rmSync(h.dataDir, { recursive: true, force: true });

    const dry = cli(h.env, ['uninstall', '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/does not record these claude-mem entries .*they would be removed:\n {2}Claude Code: ~\/\.claude\/settings\.json, ~\/\.claude\.json\n {2}Codex CLI: ~\/\.codex\/hooks\.json, ~\/\.codex\/config\.toml/);
    expect(readFileSync(h.settings, 'utf8')).toContain(' hook claude-code ');

    const r = cli(h.env, ['uninstall', '--yes']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/Nothing to uninstall/);
    // Said before the results.
    expect(r.stdout.indexOf('removing them:')).toBeLessThan(r.stdout.indexOf('✓ Claude Code'));
    for (const f of [h.settings, h.claudeJson, h.codexHooks, h.codexConfig]) expect(readFileSync(f, 'utf8'), f).not.toMatch(/claude-mem/);
    expect(JSON.parse(readFileSync(h.settings, 'utf8'))).toEqual({ model: 'opus' });
    // A setting install may have made is left, and said so: without the record its old value is unknown.
    expect(r.stdout).toMatch(/left as it is: \[features\] hooks = true in .*config\.toml/);
    expect(existsSync(h.dataDir)).toBe(false);

    const again = cli(h.env, ['uninstall', '--yes']);
    expect(again.stdout).toMatch(/Nothing to uninstall/);
  }, 90_000);

  it('--purge run through the shim removes the program it runs from, and finishes cleanly', async () => {
    const h = home();
    expect(cli(h.env, ['install', '--yes', '--ide', 'claude-code', '--no-start']).code).toBe(0);
    const r = await spawnCollect(join(h.dataDir, 'bin', 'claude-mem'), ['uninstall', '--purge', '--yes'], { cwd: h.home, env: h.env, timeoutMs: 60_000 });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain(`data directory removed: ${h.dataDir}`);
    expect(existsSync(h.dataDir)).toBe(false);
    expect(readFileSync(h.settings, 'utf8')).toBe(SETTINGS);
  }, 60_000);
});
