/**
 * Codex hook trust through the app-server protocol, against a stand-in `codex` (fake-codex.ts):
 * consent, recording for uninstall, idempotence, other hooks untouched, and every way it can fail.
 * The real Codex is exercised by test/e2e/install-real-hosts.test.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest } from '../../src/npx-cli/engine/index.js';
import { codex } from '../../src/hosts/codex/codex-install.js';
import { codexTrustStatus } from '../../src/hosts/codex/codex-trust.js';
import { prepare } from '../../src/npx-cli/install/install-plan.js';
import { runInstall } from '../../src/npx-cli/install/run.js';
import type { HostResult } from '../../src/npx-cli/install/types.js';
import { runUninstall } from '../../src/npx-cli/install/uninstall.js';
import { tempDir } from '../helpers/temp.js';
import { fakeCodexBin } from './fake-codex.js';
import { cliEnv, tempHome, treeHash, write } from './helpers.js';

const CONFIG = '# mine\nmodel = "o4"\n\n[mcp_servers.other]\ncommand = "x"\n';

function world(extra: NodeJS.ProcessEnv = {}) {
  const t = tempHome();
  const bin = fakeCodexBin(tempDir('bin'));
  const log = join(t.home, '..', `codex-${Date.now()}.log`);
  const env = cliEnv(t.env, { PATH: `${bin}:/usr/bin:/bin`, FAKE_CODEX_LOG: log, ...extra });
  write(join(t.home, '.codex', 'config.toml'), CONFIG);
  return { ...t, env, log };
}

async function install(env: NodeJS.ProcessEnv, consent = true): Promise<HostResult> {
  const prepared = await prepare(env, [codex]);
  const r = await runInstall(prepared, { selected: ['codex'], dryRun: false, json: true, start: false, consent, codexSubagentTranscripts: false, env });
  return (r.document.hosts as HostResult[]).find((h) => h.id === 'codex')!;
}

const methods = (log: string) => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { method?: string }).method) : []);

describe('Codex hook trust', () => {
  it('with consent: trusts exactly our hooks via hooks/list + config/batchWrite, records it, and uninstall removes it', async () => {
    const w = world();
    // A hook of the user's own in the same file must stay untrusted.
    write(join(w.home, '.codex', 'hooks.json'), '{ "hooks": { "Stop": [ { "hooks": [ { "type": "command", "command": "/bin/true mine" } ] } ] } }\n');
    const original = treeHash(w.home, ['.claude-mem']);
    const r = await install(w.env);
    expect(r.status).toBe('ok');
    expect(r.trust?.state).toBe('trusted');
    expect(r.warnings).toEqual([]);
    expect(methods(w.log)).toEqual(['initialize', 'initialized', 'hooks/list', 'config/batchWrite', 'hooks/list']);
    const config = readFileSync(join(w.home, '.codex', 'config.toml'), 'utf8');
    const keys = [...config.matchAll(/\[hooks\.state\."([^"]+)"\]/g)].map((m) => m[1]);
    expect(keys.length).toBe(r.trust!.hooks.length);
    expect(keys.length).toBeGreaterThanOrEqual(4);
    expect(keys.every((k) => k.startsWith(join(w.home, '.codex', 'hooks.json')))).toBe(true);
    expect(keys).not.toContain(`${join(w.home, '.codex', 'hooks.json')}:stop:0:0`); // the user's hook

    const m = loadManifest(join(w.dataDir, 'install-manifest.json'));
    const recorded = m.hosts.codex.files[join(w.home, '.codex', 'config.toml')].changes.filter((c) => c.id.includes('"state"'));
    expect(recorded).toHaveLength(keys.length);
    expect(recorded.every((c) => c.previous.present === false)).toBe(true);

    // Again: Codex is asked, finds everything trusted, nothing is written anywhere.
    const installed = treeHash(w.home, ['.claude-mem']);
    const manifest = readFileSync(join(w.dataDir, 'install-manifest.json'), 'utf8');
    const again = await install(w.env);
    expect(again.trust?.state).toBe('trusted');
    expect(methods(w.log).filter((x) => x === 'config/batchWrite')).toHaveLength(1);
    expect(treeHash(w.home, ['.claude-mem'])).toBe(installed);
    expect(readFileSync(join(w.dataDir, 'install-manifest.json'), 'utf8')).toBe(manifest);

    expect((await codexTrustStatus({ env: w.env, dataDir: w.dataDir })).state).toBe('trusted');

    const u = await runUninstall({ dryRun: false, purge: false, env: w.env });
    expect(u.ok).toBe(true);
    expect(treeHash(w.home, ['.claude-mem'])).toBe(original);
  });

  it('without consent Codex is not run, and the summary says capture is off until the hooks are trusted', async () => {
    const w = world();
    const r = await install(w.env, false);
    expect(r.status).toBe('ok');
    expect(r.trust?.state).toBe('not-asked');
    expect(r.warnings.join()).toMatch(/Codex capture is OFF until the hooks are trusted/);
    expect(r.trust?.fix).toMatch(/\/hooks/);
    expect(methods(w.log)).toEqual([]);
    expect(readFileSync(join(w.home, '.codex', 'config.toml'), 'utf8')).not.toContain('hooks.state');
    // doctor's view: Codex itself reports the hooks as untrusted.
    const st = await codexTrustStatus({ env: w.env, dataDir: w.dataDir });
    expect(st.state).toBe('untrusted');
    expect(st.fix).toMatch(/\/hooks/);
  });

  it('an edited hook is no longer trusted; a re-install trusts the new definition', async () => {
    const w = world();
    await install(w.env);
    const hooks = join(w.home, '.codex', 'hooks.json');
    write(hooks, readFileSync(hooks, 'utf8').replace('"timeout": 1', '"timeout": 2'));
    const st = await codexTrustStatus({ env: w.env, dataDir: w.dataDir });
    expect(['partial', 'untrusted']).toContain(st.state);
    expect(st.hooks.some((h) => h.trust === 'modified')).toBe(true);
    // The re-install puts our definition back and trusts it; uninstall still restores the original.
    const again = await install(w.env);
    expect(again.trust?.state).toBe('trusted');
    const m = loadManifest(join(w.dataDir, 'install-manifest.json'));
    const recorded = m.hosts.codex.files[join(w.home, '.codex', 'config.toml')].changes.filter((c) => c.id.includes('"state"'));
    expect(recorded.every((c) => c.previous.present === false)).toBe(true);
    await runUninstall({ dryRun: false, purge: false, env: w.env });
    expect(readFileSync(join(w.home, '.codex', 'config.toml'), 'utf8')).toBe(CONFIG);
  });

  it('codex missing from PATH, or app-server failing: installed, trust reported as unavailable with the fix', async () => {
    const noCodex = world({ PATH: '/usr/bin:/bin' });
    const a = await install(noCodex.env);
    expect(a.status).toBe('ok');
    expect(a.trust).toMatchObject({ state: 'unavailable', detail: expect.stringMatching(/not on PATH.*nothing is captured/) });
    expect(a.warnings.join()).toMatch(/OFF/);

    const crash = world({ FAKE_CODEX_MODE: 'crash' });
    const b = await install(crash.env);
    expect(b.status).toBe('ok');
    expect(b.trust?.state).toBe('unavailable');
    expect(b.trust?.detail).toMatch(/app-server/);
    expect((await codexTrustStatus({ env: crash.env, dataDir: crash.dataDir })).state).toBe('unavailable');
  });

  it('doctor view when Codex was never installed by us', async () => {
    const w = world();
    expect((await codexTrustStatus({ env: w.env, dataDir: w.dataDir })).state).toBe('missing');
  });
});
