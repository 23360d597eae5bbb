/**
 * A host's own switch that turns every hook off (Codex `[features] hooks = false`, Claude Code
 * `"disableAllHooks": true`) is the user's: install leaves it off without their say, and says, per
 * host, that capture is off and how to turn it on. Doctor says so too.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeCode } from '../../src/hosts/claude-code/claude-code-install.js';
import { codex } from '../../src/hosts/codex/codex-install.js';
import { runInteractive, type Prompter } from '../../src/npx-cli/install/interactive.js';
import { prepare } from '../../src/npx-cli/install/install-plan.js';
import { cli, cliEnv, ensureBuiltNow, tempHome, write } from './helpers.js';

const CODEX_CONFIG = '# mine\n[features]\nhooks = false  # I turned this off\n\n[tui]\nx = 1\n';
const CLAUDE_SETTINGS = '{\n  // no hooks, please\n  "disableAllHooks": true\n}\n';

function home() {
  const t = tempHome();
  const env = cliEnv(t.env, { PATH: '/usr/bin:/bin' });
  const codexConfig = write(join(t.home, '.codex', 'config.toml'), CODEX_CONFIG);
  const settings = write(join(t.home, '.claude', 'settings.json'), CLAUDE_SETTINGS);
  return { ...t, env, codexConfig, settings };
}

interface Doc { hosts: Array<{ id: string; status: string; reason?: string; fix?: string }> }

beforeAll(() => ensureBuiltNow(), 180_000);

describe('kill switches', () => {
  it('--yes leaves them off and says so per host, with how to turn capture on; doctor agrees', () => {
    const h = home();
    const r = cli(h.env, ['install', '--yes', '--ide', 'codex', 'claude-code', '--no-start']);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(h.codexConfig, 'utf8')).toMatch(/^# mine\n\[features\]\nhooks = false {2}# I turned this off\n/);
    expect(readFileSync(h.settings, 'utf8')).toContain('"disableAllHooks": true');
    expect(r.stdout).not.toMatch(/✓ (Codex CLI|Claude Code)/);
    expect(r.stdout).toMatch(/! Codex CLI +off +capture is OFF: \[features\] hooks = false in .*config\.toml switches off every hook/);
    expect(r.stdout).toMatch(/! Claude Code +off +capture is OFF: "disableAllHooks": true in .*settings\.json/);
    expect(r.stdout).toMatch(/to turn it on: set `hooks = true` under \[features\] in .*config\.toml, or run `~\/\.claude-mem\/bin\/claude-mem install --ide codex --enable-hooks`/);
    expect(r.stderr).toMatch(/Capture is OFF for Claude Code, Codex CLI/);

    const j = JSON.parse(cli(h.env, ['install', '--yes', '--ide', 'codex', 'claude-code', '--no-start', '--json']).stdout) as Doc;
    expect(j.hosts.filter((x) => ['codex', 'claude-code'].includes(x.id)).map((x) => x.status)).toEqual(['off', 'off']);

    const d = JSON.parse(cli(h.env, ['doctor', '--json', '--ide', 'codex', 'claude-code']).stdout) as { checks: Array<{ id: string; status: string; fix?: string }> };
    for (const id of ['codex.hooks-feature', 'claude-code.hooks-enabled']) {
      const c = d.checks.find((x) => x.id === id)!;
      expect(c.status, id).toBe('fail');
      expect(c.fix).toMatch(/install --ide (codex|claude-code) --enable-hooks/);
    }
  }, 90_000);

  it('--enable-hooks turns them on, and uninstall puts the user\'s settings back byte for byte', () => {
    const h = home();
    const r = cli(h.env, ['install', '--yes', '--ide', 'codex', 'claude-code', '--no-start', '--enable-hooks', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Doc).hosts.filter((x) => ['codex', 'claude-code'].includes(x.id)).map((x) => x.status)).toEqual(['ok', 'ok']);
    expect(readFileSync(h.codexConfig, 'utf8')).toMatch(/\[features\]\nhooks = true {2}# I turned this off\n/);
    expect(readFileSync(h.settings, 'utf8')).toContain('"disableAllHooks": false');
    expect(cli(h.env, ['uninstall', '--yes']).code).toBe(0);
    expect(readFileSync(h.codexConfig, 'utf8')).toBe(CODEX_CONFIG);
    expect(readFileSync(h.settings, 'utf8')).toBe(CLAUDE_SETTINGS);
  }, 90_000);

  it('the interactive flow asks per host; leaving it off is the default answer', async () => {
    const h = home();
    const asked: Array<{ message: string; initial: unknown }> = [];
    const answers: unknown[] = ['keep', 'on', 'install'];
    const p: Prompter = {
      intro: () => {}, outro: () => {}, cancel: () => {}, note: () => {}, isCancel: (v): v is symbol => typeof v === 'symbol',
      multiselect: async () => { throw new Error('hosts were preselected'); },
      select: async (o) => {
        asked.push({ message: o.message, initial: o.initialValue });
        return answers.shift() as never;
      },
      spinner: () => ({ start: () => {}, stop: () => {} }),
      log: { info: () => {}, success: () => {}, warn: () => {}, error: () => {}, message: () => {} },
    };
    const prepared = await prepare(h.env, [claudeCode, codex]);
    const code = await runInteractive(prepared, p, { preselected: ['claude-code', 'codex'], start: false, codexSubagentTranscripts: false, env: h.env, write: () => {} });
    expect(code).toBe(0);
    expect(asked.slice(0, 2)).toEqual([
      { message: 'Claude Code: "disableAllHooks": true in ~/.claude/settings.json switches off every hook, claude-mem\'s included. Turn hooks on?', initial: 'keep' },
      { message: 'Codex CLI: [features] hooks = false in ~/.codex/config.toml switches off every hook, claude-mem\'s included. Turn hooks on?', initial: 'keep' },
    ]);
    expect(readFileSync(h.settings, 'utf8')).toContain('"disableAllHooks": true');
    expect(readFileSync(h.codexConfig, 'utf8')).toMatch(/hooks = true {2}# I turned this off/);
  }, 60_000);
});
