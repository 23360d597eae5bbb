/**
 * Roo Code / Zoo Code keep `settings/mcp_settings.json` in the folder an editor's
 * `roo-cline.customStoragePath` / `zoo-code.customStoragePath` names, when it is set
 * (RooCodeInc/Roo-Code src/utils/storage.ts): install, doctor and uninstall follow it.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rooCode } from '../../src/hosts/roo-code/roo-code-install.js';
import { contextFor, install, makeHome, planFor, read, snapshot, uninstall } from './helpers.js';

const put = (path: string, text: string) => {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
};
const checks = async (h: ReturnType<typeof makeHome>) => rooCode.checks!(await contextFor(rooCode, h));

describe('Roo Code / Zoo Code customStoragePath', () => {
  it('the fixture HOME: VSCodium\'s moved storage gets the entry, its stale default storage is left alone', async () => {
    const h = makeHome(['roo-code']);
    const stale = join(h.home, '.config/VSCodium/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json');
    const staleBefore = read(stale);
    const { plans, changes } = await planFor(['roo-code'], h);
    expect(plans[0].notes.join('\n')).toContain(`moves the extension's storage to ${join(h.home, 'Sync/roo-code')}`);
    expect(changes.map((c) => c.file)).not.toContain(stale);
    await install(h, changes);
    expect(read(stale)).toBe(staleBefore);
    const moved = read(join(h.home, 'Sync/roo-code/settings/mcp_settings.json'));
    expect(moved).toContain('// shared across machines through the synced folder');
    expect(moved).toContain('"claude-mem"');
    expect(await checks(h)).toEqual([expect.objectContaining({ id: 'roo-code.storage', status: 'ok', evidence: expect.stringContaining('(3)') })]);
  });

  it('Zoo Code\'s key, the nested form, a folder not created yet; uninstall removes what it created', async () => {
    const h = makeHome([]);
    const zooDir = join(h.home, 'work', 'zoo storage');
    put(join(h.home, '.config/Cursor/User/settings.json'), JSON.stringify({ 'zoo-code.customStoragePath': zooDir }));
    put(join(h.home, '.config/Code/User/settings.json'), `{ "roo-cline": { "customStoragePath": "${join(h.home, 'roo')}" } }`);
    const withSettings = snapshot(h.home);
    expect((await rooCode.detect(h.env)).installed).toBe(true);
    const { changes } = await planFor(['roo-code'], h);
    expect(changes.map((c) => c.file).sort()).toEqual([join(h.home, 'roo/settings/mcp_settings.json'), join(zooDir, 'settings/mcp_settings.json')].sort());
    await install(h, changes);
    expect(JSON.parse(read(join(zooDir, 'settings/mcp_settings.json'))).mcpServers['claude-mem'].args).toEqual(['/opt/claude-mem/dist/bin.js', 'mcp']);
    expect((await uninstall(h)).failed).toEqual([]);
    expect(existsSync(join(zooDir, 'settings/mcp_settings.json'))).toBe(false);
    expect(snapshot(h.home)).toEqual(withSettings);
  });

  it('doctor fails when the storage moved after install, and install then follows it', async () => {
    const h = makeHome(['roo-code']);
    await install(h, (await planFor(['roo-code'], h)).changes);
    const codeSettings = join(h.home, '.config/Code/User/settings.json');
    put(codeSettings, JSON.stringify({ 'roo-cline.customStoragePath': join(h.home, 'Dropbox/roo') }));
    const [check] = await checks(h);
    expect(check).toMatchObject({ status: 'fail', fix: expect.stringContaining('claude-mem install --ide roo-code') });
    expect(check.evidence).toContain(`${join(h.home, 'Dropbox/roo/settings/mcp_settings.json')} has no claude-mem server (customStoragePath in ${codeSettings})`);
    await install(h, (await planFor(['roo-code'], h)).changes);
    expect((await checks(h))[0].status).toBe('ok');
  });

  it('a relative customStoragePath is not followed: the default storage is used and doctor says so', async () => {
    const h = makeHome(['roo-code']);
    const codeSettings = join(h.home, '.config/Code/User/settings.json');
    put(codeSettings, JSON.stringify({ 'roo-cline.customStoragePath': '~/roo-data' }));
    const { plans, changes } = await planFor(['roo-code'], h);
    expect(changes.map((c) => c.file)).toContain(join(h.home, '.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json'));
    expect(plans[0].notes.join('\n')).toMatch(/"~\/roo-data", which is not an absolute path/);
    await install(h, changes);
    expect((await checks(h))[0]).toMatchObject({ status: 'warn', evidence: expect.stringContaining(codeSettings) });
  });
});
