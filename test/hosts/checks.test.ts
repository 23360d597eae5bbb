/** checks(): the host prerequisites doctor reports. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HostId } from '../../src/shared/hosts.js';
import { contextFor, hostModule, install, makeHome, planFor, read, type Home } from './helpers.js';

async function checks(id: HostId, h: Home) {
  const mod = hostModule(id);
  return mod.checks!(await contextFor(mod, h));
}

function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

describe('codex.hooks-feature', () => {
  it('is ok after install, ok by default, and fails when the flag (or the legacy alias alone) is off', async () => {
    const h = makeHome(['codex']);
    await install(h, (await planFor(['codex'], h)).changes);
    expect(await checks('codex', h)).toMatchObject([{ id: 'codex.hooks-feature', status: 'ok' }]);
    const config = join(h.home, '.codex', 'config.toml');
    put(config, 'model = "x"\n');
    expect((await checks('codex', h))[0]).toMatchObject({ status: 'ok', evidence: expect.stringContaining('on by default') });
    put(config, '[features]\nhooks = false\n');
    expect((await checks('codex', h))[0]).toMatchObject({ status: 'fail', fix: expect.stringContaining('hooks = true') });
    put(config, '[features]\ncodex_hooks = false\n');
    expect((await checks('codex', h))[0].status).toBe('fail');
  });

  it('the legacy alias switched off is the user\'s kill switch; turned on, both keys agree; otherwise it is left alone', async () => {
    const h = makeHome(['codex']);
    const config = join(h.home, '.codex', 'config.toml');
    put(config, '[features]\ncodex_hooks = false\n');
    const off = await planFor(['codex'], h);
    expect(off.changes.filter((c) => c.kind === 'toml-set')).toEqual([]);
    expect(off.plans[0].killSwitch?.setting).toBe('[features] codex_hooks = false');
    await install(h, [...off.changes, ...off.plans[0].killSwitch!.enable]);
    expect(read(config)).toMatch(/^\[features\]\ncodex_hooks = true\nhooks = true\n/);
    put(config, '[features]\nhooks = true\ncodex_hooks = false\n');
    const on = await planFor(['codex'], h);
    expect(on.plans[0].killSwitch).toBeUndefined();
    expect(on.changes.filter((c) => c.kind === 'toml-set').map((c) => (c as { key: string }).key)).toEqual(['hooks']);
    const fresh = makeHome([]);
    const { changes } = await planFor(['codex'], fresh);
    expect(changes.filter((c) => c.kind === 'toml-set').map((c) => (c as { key: string }).key)).toEqual(['hooks']);
  });
});

describe('copilot.one-dialect', () => {
  it('is ok with our camelCase file alone and fails when PascalCase claude-mem hooks are registered too', async () => {
    const h = makeHome(['copilot']);
    await install(h, (await planFor(['copilot'], h)).changes);
    const [dialect, enabled] = await checks('copilot', h);
    expect(dialect).toMatchObject({ id: 'copilot.one-dialect', status: 'ok' });
    expect(enabled).toMatchObject({ id: 'copilot.hooks-enabled', status: 'ok' });
    put(join(h.home, '.copilot', 'hooks', 'old.json'), JSON.stringify({
      hooks: { PostToolUse: [{ hooks: [{ type: 'command', command: "'/n' '/e' hook copilot PostToolUse" }] }] },
    }));
    expect((await checks('copilot', h))[0]).toMatchObject({ status: 'fail', evidence: expect.stringContaining('both dialects') });
  });

  it('warns when nothing is registered and fails when all hooks are disabled', async () => {
    const h = makeHome(['copilot']);
    put(join(h.home, '.copilot', 'settings.json'), '{ "disableAllHooks": true }');
    const [dialect, enabled] = await checks('copilot', h);
    expect(dialect.status).toBe('warn');
    expect(enabled.status).toBe('fail');
  });
});

describe('cursor.third-party-hooks', () => {
  it('is ok with our own Claude Code hooks and warns about another memory tool\'s unguarded ones', async () => {
    const h = makeHome(['cursor', 'claude-code']);
    await install(h, (await planFor(['cursor', 'claude-code'], h)).changes);
    expect(await checks('cursor', h)).toMatchObject([{ id: 'cursor.third-party-hooks', status: 'ok' }]);
    put(join(h.home, '.claude', 'settings.json'), JSON.stringify({
      hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'node ~/.other-memory/capture.js' }] }] },
    }));
    expect((await checks('cursor', h))[0]).toMatchObject({ status: 'warn', evidence: expect.stringContaining('UserPromptSubmit') });
  });
});

describe('kimi.hook-fields', () => {
  it('is ok after install and flags [[hooks]] entries with fields Kimi Code refuses', async () => {
    const h = makeHome(['kimi']);
    await install(h, (await planFor(['kimi'], h)).changes);
    expect(await checks('kimi', h)).toMatchObject([{ id: 'kimi.hook-fields', status: 'ok' }]);
    const config = join(h.home, '.kimi-code', 'config.toml');
    put(config, `${read(config)}\n[[hooks]]\nevent = "Stop"\ncommand = "say done"\nname = "speak"\n`);
    expect((await checks('kimi', h))[0].status).toBe('warn');
    put(config, `${read(config)}\n[[hooks]]\nevent = "Stop"\ncommand = "'/n' '/e' hook kimi Stop"\nasync = true\n`);
    expect((await checks('kimi', h))[0]).toMatchObject({ status: 'fail', evidence: expect.stringContaining('1 of claude-mem') });
  });
});

describe('other host checks', () => {
  it('antigravity: hooks.json must stay strict JSON', async () => {
    const h = makeHome(['antigravity']);
    await install(h, (await planFor(['antigravity'], h)).changes);
    expect((await checks('antigravity', h))[0].status).toBe('ok');
    const file = join(h.home, '.gemini', 'config', 'hooks.json');
    put(file, `// mine\n${read(file)}`);
    expect((await checks('antigravity', h))[0]).toMatchObject({ status: 'fail', fix: expect.stringContaining('Remove comments') });
  });

  it('claude-code, gemini, goose: hooks or the plugin switched off', async () => {
    const h = makeHome(['claude-code', 'gemini', 'goose']);
    for (const id of ['claude-code', 'gemini', 'goose'] as const) expect((await checks(id, h))[0].status).toBe('ok');
    put(join(h.home, '.claude', 'settings.json'), '{ "disableAllHooks": true }');
    put(join(h.home, '.gemini', 'settings.json'), '{ "hooksConfig": { "enabled": true, "disabled": ["claude-mem"] } }');
    put(join(h.home, '.config', 'goose', 'settings.json'), '{ "disabledPlugins": ["claude-mem"] }');
    for (const id of ['claude-code', 'gemini', 'goose'] as const) expect((await checks(id, h))[0].status).toBe('fail');
  });

  it('grok: warns when the grok found is the community CLI without hooks', async () => {
    const h = makeHome(['grok']);
    expect((await checks('grok', h))[0].status).toBe('ok');
    const other = makeHome([]);
    put(join(other.home, '.grok', 'user-settings.json'), '{"apiKey":"sk-test"}');
    expect((await checks('grok', other))[0].status).toBe('warn');
    expect((await hostModule('grok').detect(other.env)).facts.flavor).toBe('vibe-kit-grok-cli');
  });
});
