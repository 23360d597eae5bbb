/**
 * Windsurf's two flavours: the editor reads ~/.codeium/windsurf/hooks.json, the JetBrains plugin
 * ~/.codeium/hooks.json (docs.windsurf.com, Cascade hooks). claude-mem writes the file of each
 * flavour found, and doctor counts our hook once per reading program, so two flavours are not
 * taken for a double registration while a duplicate inside one flavour's file still is.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { doubleRegistrationCheck, hookCommandsOf } from '../../src/npx-cli/doctor/host-checks.js';
import { parseHostFile } from '../../src/npx-cli/doctor/files.js';
import { windsurf } from '../../src/hosts/windsurf/windsurf-install.js';
import { contextFor, install, makeHome, planFor, read } from './helpers.js';

const JETBRAINS_PLUGIN = '.local/share/JetBrains/IntelliJIdea2026.2/codeium';
const files = async (h: ReturnType<typeof makeHome>) => [...new Set((await planFor(['windsurf'], h)).changes.map((c) => c.file))].sort();

describe('Windsurf flavours', () => {
  it('the editor only: its own user files (the fixture HOME has both flavours)', async () => {
    const h = makeHome(['windsurf']);
    const bare = makeHome([]);
    mkdirSync(join(bare.home, '.codeium', 'windsurf'), { recursive: true });
    expect(await files(bare)).toEqual([join(bare.home, '.codeium/windsurf/hooks.json'), join(bare.home, '.codeium/windsurf/mcp_config.json')]);
    expect((await windsurf.detect(h.env)).facts.jetbrains).toBe(true);
    expect((await windsurf.detect(bare.env)).facts.jetbrains).toBe(false);
  });

  it('the JetBrains plugin only (Linux and macOS plugin folders): ~/.codeium/hooks.json and mcp_config.json, nothing of the editor', async () => {
    for (const folder of [JETBRAINS_PLUGIN, 'Library/Application Support/JetBrains/PyCharm2026.1/plugins/windsurf']) {
      const h = makeHome([]);
      mkdirSync(join(h.home, folder, 'lib'), { recursive: true });
      const d = await windsurf.detect(h.env);
      expect(d.installed).toBe(true);
      expect(d.evidence).toContainEqual({ kind: 'dir', detail: join(h.home, folder) });
      expect(await files(h), folder).toEqual([join(h.home, '.codeium/hooks.json'), join(h.home, '.codeium/mcp_config.json')]);
    }
  });

  it('neither found (install --ide windsurf): the editor\'s files', async () => {
    const h = makeHome([]);
    expect(await files(h)).toEqual([join(h.home, '.codeium/windsurf/hooks.json'), join(h.home, '.codeium/windsurf/mcp_config.json')]);
  });

  it('both installed: our hook once per program — not a double registration; a duplicate in one file is', async () => {
    const h = makeHome(['windsurf']);
    const { plans } = await planFor(['windsurf'], h);
    expect(plans[0].notes.join(' ')).toMatch(/each read only their own hooks\.json/);
    expect(plans[0].notes.join(' ')).toMatch(/no command output/);
    await install(h, (await planFor(['windsurf'], h)).changes);
    const editor = join(h.home, '.codeium/windsurf/hooks.json');
    const plugin = join(h.home, '.codeium/hooks.json');
    const commandsOf = () => hookCommandsOf('windsurf', [editor, plugin].map((path) => ({ path, doc: parseHostFile(path) })));
    expect(commandsOf()).toHaveLength(12);
    expect(doubleRegistrationCheck('windsurf', commandsOf(), windsurf.hookReader)).toMatchObject({ status: 'ok', evidence: expect.stringContaining('6 event(s)') });
    // Without the reader, the two flavours' files would be counted as one program's: the check would fail.
    expect(doubleRegistrationCheck('windsurf', commandsOf())?.status).toBe('fail');

    const doc = JSON.parse(read(editor)) as { hooks: Record<string, unknown[]> };
    doc.hooks.post_run_command.push(doc.hooks.post_run_command[0]);
    writeFileSync(editor, JSON.stringify(doc));
    const twice = doubleRegistrationCheck('windsurf', commandsOf(), windsurf.hookReader);
    expect(twice).toMatchObject({ status: 'fail', evidence: expect.stringContaining(`post_run_command is registered 2 times (${editor})`) });
  });

  it('the JetBrains plugin context: install plans from the files, not from a detection passed in', async () => {
    const h = makeHome(['windsurf']);
    const ctx = await contextFor(windsurf, h);
    const plan = await windsurf.plan({ ...ctx, detection: { installed: true, evidence: [], facts: {} } });
    expect(new Set(plan.changes.map((c) => c.file)).size).toBe(4);
  });
});
