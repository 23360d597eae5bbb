/** plan(): events registered, host-specific decisions, next steps. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Change } from '../../src/npx-cli/engine/index.js';
import { getAdapter } from '../hook-adapters/loaded.js';
import type { HostId } from '../../src/shared/hosts.js';
import { contextFor, fakeBinary, hostModule, install, makeHome, MY_HOSTS, planFor, read, RT, snapshot, uninstall } from './helpers.js';

/** `… hook <host> <event>` in every string of the planned changes. */
function registered(changes: readonly Change[], host: HostId): string[] {
  const found = new Set<string>();
  const re = new RegExp(` hook ${host} (\\w+)`, 'g');
  for (const c of changes) for (const m of JSON.stringify(c).matchAll(re)) found.add(m[1]);
  return [...found];
}

const EVENTS: Partial<Record<HostId, string[]>> = {
  'claude-code': ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop', 'PreCompact', 'SessionEnd'],
  codex: ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'SubagentStop', 'PreCompact', 'SessionEnd'],
  cursor: ['sessionStart', 'beforeSubmitPrompt', 'afterShellExecution', 'afterMCPExecution', 'afterFileEdit', 'afterAgentResponse', 'preCompact', 'sessionEnd'],
  windsurf: ['pre_user_prompt', 'post_run_command', 'post_read_code', 'post_write_code', 'post_mcp_tool_use', 'post_cascade_response'],
  kimi: ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop', 'PreCompact', 'SessionEnd', 'TurnStarted'],
  antigravity: ['SessionStart', 'PreInvocation', 'PostToolUse', 'PostInvocation', 'Stop'],
  grok: ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop', 'PreCompact', 'SessionEnd'],
  copilot: ['sessionStart', 'userPromptSubmitted', 'postToolUse', 'postToolUseFailure', 'agentStop', 'preCompact', 'sessionEnd'],
  goose: ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SessionEnd'],
  gemini: ['SessionStart', 'BeforeAgent', 'AfterTool', 'AfterAgent', 'SessionEnd'],
};

describe('registered events', () => {
  it.each(Object.entries(EVENTS))('%s registers exactly its events, each one its hook adapter handles', async (id, events) => {
    const h = makeHome([id]);
    const { changes } = await planFor([id as HostId], h);
    expect(registered(changes, id as HostId).sort()).toEqual([...events!].sort());
    const adapter = getAdapter(id as HostId);
    for (const e of events!) expect(adapter.events, e).toContain(e);
  });

  it('never registers permission events, PostToolBatch, PreCompress or both Copilot dialects', async () => {
    const h = makeHome(MY_HOSTS);
    const all = JSON.stringify((await planFor(MY_HOSTS, h)).changes);
    for (const e of ['beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile', 'PreToolUse', 'PermissionRequest', 'PostToolBatch', 'PreCompress']) {
      expect(all).not.toContain(` ${e}"`);
    }
    expect(all).not.toMatch(/hook copilot [A-Z]/);
    expect(all).not.toContain('post_cascade_response_with_transcript');
  });

  it('hosts without hooks of their own write no hooks', async () => {
    const h = makeHome(['t3code', 'roo-code', 'warp']);
    for (const id of ['t3code', 'roo-code', 'warp'] as const) expect(registered((await planFor([id], h)).changes, id)).toEqual([]);
  });
});

describe('host decisions', () => {
  it('t3code: no changes; the next steps say which providers are selected, installed or missing', async () => {
    const h = makeHome(['t3code', 'codex']);
    fakeBinary(h, 'claude', 'echo 2.1.0');
    const mod = hostModule('t3code');
    const alone = await mod.plan(await contextFor(mod, h));
    expect(alone).toMatchObject({ capture: 'providers', recall: 'providers', changes: [] });
    expect(alone.nextSteps.join('\n')).toMatch(/Codex is installed but not selected: run `claude-mem install --ide codex`/);
    expect(alone.nextSteps.join('\n')).toMatch(/Claude Code is installed but not selected/);
    const withCodex = await mod.plan(await contextFor(mod, h, { selected: ['t3code', 'codex'] }));
    expect(withCodex.nextSteps[0]).toMatch(/Codex sessions started from T3 Code are captured .*selected in this run/);
    const empty = makeHome(['t3code']);
    expect((await mod.plan(await contextFor(mod, empty))).nextSteps.join('\n')).toMatch(/Codex was not found/);
  });

  it('roo-code: one entry per editor storage found (customStoragePath honoured); nothing (and a next step) when none is', async () => {
    const h = makeHome(['roo-code']);
    const { changes } = await planFor(['roo-code'], h);
    expect(changes.map((c) => c.file)).toEqual([
      join(h.home, '.config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json'),
      join(h.home, 'Sync/roo-code/settings/mcp_settings.json'),
      join(h.home, '.config/Cursor/User/globalStorage/zoocodeorganization.zoo-code/settings/mcp_settings.json'),
    ]);
    const mod = hostModule('roo-code');
    const none = await mod.plan(await contextFor(mod, makeHome([])));
    expect(none).toMatchObject({ capture: 'none', recall: 'none', changes: [] });
    expect(none.nextSteps[0]).toMatch(/Open Roo Code/);
  });

  it('warp: the next steps carry the JSON to paste in Warp\'s MCP settings', async () => {
    const mod = hostModule('warp');
    const plan = await mod.plan(await contextFor(mod, makeHome(['warp'])));
    const snippet = plan.nextSteps[1].slice(plan.nextSteps[1].indexOf('{'));
    expect(JSON.parse(snippet)).toEqual({ 'claude-mem': { command: RT.nodePath, args: [RT.entryPath, 'mcp'] } });
  });

  it('cursor: a hooks.json that already declares a version keeps it', async () => {
    const h = makeHome(['cursor']);
    const file = join(h.home, '.cursor', 'hooks.json');
    const { changes } = await planFor(['cursor'], h);
    expect(changes.some((c) => c.kind === 'json-set' && c.file === file)).toBe(false);
    const fresh = makeHome([]);
    const created = await planFor(['cursor'], fresh);
    expect(created.changes[0]).toMatchObject({ kind: 'json-set', path: ['version'], value: 1 });
    await install(fresh, created.changes);
    expect(JSON.parse(read(join(fresh.home, '.cursor', 'hooks.json'))).version).toBe(1);
  });

  it('gemini: switches hooks on only when settings say nothing; a user\'s "off" stays off and is reported', async () => {
    const h = makeHome([]);
    const file = join(h.home, '.gemini', 'settings.json');
    mkdirSync(join(h.home, '.gemini'));
    writeFileSync(file, '{ "general": { "vimMode": true } }\n');
    const before = snapshot(h.home);
    await install(h, (await planFor(['gemini'], h)).changes);
    expect(JSON.parse(read(file)).hooksConfig).toEqual({ enabled: true });
    await uninstall(h);
    expect(snapshot(h.home)).toEqual(before);
    writeFileSync(file, '{ "hooksConfig": { "enabled": false } }\n');
    const { changes, plans } = await planFor(['gemini'], h);
    expect(changes.some((c) => c.kind === 'json-set' && c.path[0] === 'hooksConfig')).toBe(false);
    expect(plans[0].nextSteps.join(' ')).toMatch(/switched off/);
  });

  it('codex: the next steps ask the user to trust the hooks', async () => {
    const { plans } = await planFor(['codex'], makeHome(['codex']));
    expect(plans[0].nextSteps.join(' ')).toMatch(/\/hooks/);
  });
});

describe('our entries are found again', () => {
  it('an upgrade to another claude-mem path replaces our entries in place instead of adding new ones', async () => {
    const h = makeHome(['claude-code', 'codex', 'cursor', 'windsurf', 'kimi', 'gemini']);
    const before = snapshot(h.home);
    const ids = ['claude-code', 'codex', 'cursor', 'windsurf', 'kimi', 'gemini'] as const;
    await install(h, (await planFor(ids, h)).changes);
    const next = { nodePath: '/usr/bin/node', entryPath: '/home/u/.npm/_npx/9f2c/node_modules/claude-mem/dist/bin.js' };
    const { summary } = await install(h, (await planFor(ids, h, { rt: next })).changes);
    expect(summary.failed).toEqual([]);
    for (const file of summary.written) {
      const text = read(file);
      expect(text, file).not.toContain(RT.entryPath);
      for (const m of text.matchAll(/ hook (\S+) (\w+)\b/g)) {
        expect(text.match(new RegExp(`${m[0]}\\b`, 'g'))!.length, `${file}: ${m[0]}`).toBe(1);
      }
    }
    expect((await uninstall(h)).failed).toEqual([]);
    expect(snapshot(h.home)).toEqual(before);
  });

  it('a user edit next to our entry survives reinstall and uninstall', async () => {
    const h = makeHome(['claude-code']);
    await install(h, (await planFor(['claude-code'], h)).changes);
    const file = join(h.home, '.claude', 'settings.json');
    const edited = read(file).replace('"model": "opus"', '"model": "sonnet"');
    writeFileSync(file, edited);
    const again = await install(h, (await planFor(['claude-code'], h)).changes);
    expect(again.summary.written).toEqual([]);
    await uninstall(h);
    const after = read(file);
    expect(after).toContain('"model": "sonnet"');
    expect(after).not.toContain('claude-mem');
    expect(after).toContain('npx prettier --write');
  });
});
