/**
 * T3 Code's own settings can point its providers at other homes (pingdotgg/t3code: `homePath`,
 * `shadowHomePath`, provider instances' `environment` in userdata/settings.json; the desktop WSL
 * backend in userdata/desktop-settings.json). Install and doctor say when claude-mem's hooks are not
 * where the provider looks, with a command that puts them there.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codex } from '../../src/hosts/codex/codex-install.js';
import { t3code, t3ProviderHomes } from '../../src/hosts/t3code/t3code-install.js';
import { contextFor, install, makeHome } from './helpers.js';

type Home = ReturnType<typeof makeHome>;
const put = (path: string, value: unknown) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value, null, 2));
};
const settingsFile = (h: Home) => join(h.home, '.t3/userdata/settings.json');
const plan = async (h: Home) => t3code.plan(await contextFor(t3code, h));
const checks = async (h: Home) => t3code.checks!(await contextFor(t3code, h));

describe('T3 Code provider homes', () => {
  it('the fixture HOME: Codex runs with homePath ~/.codex-work, which lacks our hooks; the printed command fixes it', async () => {
    const h = makeHome(['t3code', 'codex']);
    const dir = join(h.home, '.codex-work');
    const command = `CODEX_HOME='${dir}' claude-mem install --ide codex`;
    expect((await plan(h)).nextSteps).toContain(`Codex started from T3 Code runs with CODEX_HOME=${dir} (providers.codex in ${settingsFile(h)}) and does not see claude-mem's hooks there: run \`${command}\`.`);
    expect((await checks(h))[0]).toMatchObject({ id: 't3code.provider-homes', status: 'fail', fix: command });

    // What the command does: the Codex install with CODEX_HOME set to that folder.
    const env = { ...h.env, CODEX_HOME: dir };
    await install(h, (await codex.plan(await contextFor(codex, h, { env }))).changes);
    const [ok] = await checks(h);
    expect(ok).toMatchObject({ status: 'ok', evidence: expect.stringContaining(`CODEX_HOME=${dir}`) });
    expect((await plan(h)).notes.join('\n')).toContain('which has claude-mem\'s hooks');
  });

  it('provider instances: the shadow home wins, CLAUDE_CONFIG_DIR from the environment, disabled and default homes left out', async () => {
    const h = makeHome([]);
    const work = join(h.home, 'srv', 'claude-work');
    put(settingsFile(h), {
      providers: { codex: { homePath: '' }, claudeAgent: { homePath: '~/.claude' } },
      providerInstances: {
        codex_personal: { driver: 'codex', config: { homePath: '~/.codex', shadowHomePath: '~/.codex-t3/personal' } },
        claude_work: { driver: 'claudeAgent', environment: [{ name: 'CLAUDE_CONFIG_DIR', value: work, sensitive: false }] },
        codex_old: { driver: 'codex', enabled: false, config: { homePath: join(h.home, 'old-codex') } },
        ollama: { driver: 'ollama', config: { homePath: join(h.home, 'ollama') } },
      },
    });
    expect(t3ProviderHomes(h.env)).toEqual([
      { provider: 'codex', dir: join(h.home, '.codex-t3/personal'), setting: `providerInstances.codex_personal in ${settingsFile(h)}` },
      { provider: 'claude-code', dir: work, setting: `providerInstances.claude_work in ${settingsFile(h)}` },
    ]);
    const [check] = await checks(h);
    expect(check.status).toBe('fail');
    expect(check.fix).toBe(`CODEX_HOME='${join(h.home, '.codex-t3/personal')}' claude-mem install --ide codex; CLAUDE_CONFIG_DIR='${work}' claude-mem install --ide claude-code`);
  });

  it('no settings, or only default homes: nothing to say', async () => {
    const h = makeHome([]);
    expect(await checks(h)).toEqual([{ id: 't3code.provider-homes', status: 'ok', evidence: 'T3 Code runs Codex and Claude Code with their default homes' }]);
    put(settingsFile(h), { providers: { codex: { homePath: '~/.codex' } } });
    expect(t3ProviderHomes(h.env)).toEqual([]);
  });

  it('the desktop WSL backend: providers run in the distro\'s home; install and doctor say so', async () => {
    const h = makeHome([]);
    put(join(h.home, '.t3/userdata/desktop-settings.json'), { wslBackendEnabled: true, wslDistro: 'Ubuntu', wslOnly: true });
    const steps = (await plan(h)).nextSteps.join('\n');
    expect(steps).toContain('T3 Code runs its backend inside WSL (Ubuntu): those providers read the Linux home in that distro');
    expect(steps).toContain('`wsl -d Ubuntu`');
    expect((await checks(h))[1]).toMatchObject({ id: 't3code.wsl-backend', status: 'warn' });
    put(join(h.home, '.t3/userdata/desktop-settings.json'), { wslBackendEnabled: false, wslDistro: 'Ubuntu' });
    expect(await checks(h)).toHaveLength(1);
  });
});
