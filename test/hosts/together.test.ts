/**
 * All 13 hosts on one HOME; runtime paths with a space and an apostrophe; one unparseable file
 * fails its own host only.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';
import { parse as parseJsonc } from 'jsonc-parser';
import { ConfigParseError, failedHosts } from '../../src/npx-cli/engine/index.js';
import { expectedFiles, install, makeHome, MY_HOSTS, planFor, read, snapshot, uninstall } from './helpers.js';

describe('all 13 hosts on one HOME', () => {
  it('installs every host, reinstalls as a no-op and uninstalls byte for byte', async () => {
    const h = makeHome(MY_HOSTS);
    const before = snapshot(h.home);
    const { changes, plans } = await planFor(MY_HOSTS, h);
    expect(plans.map((p) => p.capture)).toEqual(['hooks', 'hooks', 'hooks', 'hooks', 'hooks', 'hooks', 'providers', 'hooks', 'hooks', 'hooks', 'none', 'none', 'hooks']);
    const first = await install(h, changes);
    expect(first.summary.failed).toEqual([]);
    const expected = new Map(MY_HOSTS.flatMap((id) => [...expectedFiles(id)]));
    for (const [rel, text] of expected) expect(read(join(h.home, rel)), rel).toBe(text);
    const after = snapshot(h.home);
    const changed = [...after].filter(([k, v]) => !k.endsWith('/') && before.get(k) !== v).map(([k]) => k).sort();
    expect(changed).toEqual([...expected.keys()].sort());

    const again = await install(h, (await planFor(MY_HOSTS, h)).changes);
    expect(again.summary.written).toEqual([]);
    expect(snapshot(h.home)).toEqual(after);

    expect((await uninstall(h)).failed).toEqual([]);
    expect(snapshot(h.home)).toEqual(before);
  });
});

/** Every string in a parsed config that is one of our hook commands. */
function hookCommands(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string' && v.includes(' hook ')) out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => hookCommands(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => hookCommands(x, out));
  return out;
}

function parseAny(path: string): unknown {
  const text = read(path);
  if (path.endsWith('.toml')) return parseToml(text);
  if (path.endsWith('.yaml')) return parseYaml(text);
  return parseJsonc(text);
}

describe("a node and entry path with a space and an apostrophe", () => {
  it('every host file parses and every hook command runs the right argv through sh', async () => {
    const h = makeHome(MY_HOSTS);
    const dir = join(dirname(h.home), "it's here");
    mkdirSync(join(dir, 'dist'), { recursive: true });
    const rt = { nodePath: join(dir, 'node'), entryPath: join(dir, 'dist', 'bin.js') };
    // A stand-in for node that prints the argv it got, one per line.
    writeFileSync(rt.nodePath, '#!/bin/sh\nprintf "%s\\n" "$@"\n');
    chmodSync(rt.nodePath, 0o755);

    const before = snapshot(h.home);
    const first = await install(h, (await planFor(MY_HOSTS, h, { rt })).changes);
    expect(first.summary.failed).toEqual([]);
    let commands = 0;
    let servers = 0;
    for (const file of first.summary.written) {
      const parsed = parseAny(file);
      expect(parsed, file).toBeTruthy();
      for (const cmd of hookCommands(parsed)) {
        const [, host, event] = / hook (\S+) (\S+)$/.exec(cmd)!;
        const argv = execFileSync('/bin/sh', ['-c', cmd], { encoding: 'utf8' }).trimEnd().split('\n');
        expect(argv, cmd).toEqual([rt.entryPath, 'hook', host, event]);
        commands++;
      }
      const text = JSON.stringify(parsed);
      if (text.includes('"mcp"]')) {
        servers++;
        expect(text).toContain(JSON.stringify([rt.entryPath, 'mcp']));
        expect(text).toContain(JSON.stringify(rt.nodePath));
      }
    }
    expect(commands).toBeGreaterThanOrEqual(50);
    expect(servers).toBe(15); // every host but T3 Code; Roo Code in three storages (one moved by customStoragePath); Windsurf editor and JetBrains plugin

    const again = await install(h, (await planFor(MY_HOSTS, h, { rt })).changes);
    expect(again.summary.written).toEqual([]);
    expect((await uninstall(h)).failed).toEqual([]);
    expect(snapshot(h.home)).toEqual(before);
  });
});

describe('an unparseable file', () => {
  it('fails its own host only and is left untouched; the other hosts install', async () => {
    const h = makeHome(['claude-code', 'codex', 'gemini', 'kimi']);
    const settings = join(h.home, '.claude', 'settings.json');
    const broken = '{\n  "model": "opus",\n  "hooks": {\n';
    writeFileSync(settings, broken);
    const claudeJson = read(join(h.home, '.claude.json'));
    const config = join(h.home, '.kimi-code', 'config.toml');
    writeFileSync(config, read(config).replace('[loop_control]', '[loop_control'));
    const kimiConfig = read(config);

    const { plan, summary } = await install(h, (await planFor(['claude-code', 'codex', 'gemini', 'kimi'], h)).changes);
    const failed = failedHosts(plan);
    expect([...failed.keys()].sort()).toEqual(['claude-code', 'kimi']);
    expect(failed.get('claude-code')).toBeInstanceOf(ConfigParseError);
    expect(failed.get('claude-code')!.file).toBe(settings);
    expect(failed.get('kimi')).toBeInstanceOf(ConfigParseError);
    expect(read(settings)).toBe(broken);
    expect(read(join(h.home, '.claude.json'))).toBe(claudeJson); // the failed host's other file is not half-written
    expect(read(config)).toBe(kimiConfig);
    expect(read(join(h.home, '.kimi-code', 'mcp.json'))).not.toContain('claude-mem');
    expect(summary.failed).toEqual([]);
    for (const id of ['codex', 'gemini']) {
      for (const [rel, text] of expectedFiles(id)) expect(read(join(h.home, rel)), rel).toBe(text);
    }
  });
});
