/** detect(): evidence from directories (with each host's override variable), binaries on PATH and a cheap version. */
import { existsSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cheapVersion, findBinary, parseVersion } from '../../src/npx-cli/hosts/common/detect.js';
import type { HostId } from '../../src/shared/hosts.js';
import { expectedFiles, fakeBinary, hostModule, install, makeHome, MY_HOSTS, planFor, read, RT } from './helpers.js';

describe('detect', () => {
  it.each(MY_HOSTS)('%s: found in its fixture HOME', async (id) => {
    const h = makeHome([id]);
    const d = await hostModule(id).detect(h.env);
    expect(d.installed).toBe(true);
    expect(d.evidence.length).toBeGreaterThan(0);
    expect(d.evidence.every((e) => e.detail.startsWith(h.home))).toBe(true);
  });

  it.each(MY_HOSTS)('%s: not found in an empty HOME with nothing on PATH', async (id) => {
    const h = makeHome([]);
    const d = await hostModule(id).detect(h.env);
    expect(d).toMatchObject({ installed: false, evidence: [] });
  });

  it('finds binaries on PATH without a shell and asks them for their version', async () => {
    const h = makeHome([]);
    fakeBinary(h, 'codex', 'echo "codex-cli 0.171.0"');
    fakeBinary(h, 'claude', 'echo "2.1.197 (Claude Code)"');
    fakeBinary(h, 'cursor-agent', 'echo "should not be asked" >&2; exit 3');
    const codex = await hostModule('codex').detect(h.env);
    expect(codex).toMatchObject({ installed: true, version: '0.171.0', evidence: [{ kind: 'binary', detail: join(h.bin, 'codex') }] });
    expect((await hostModule('claude-code').detect(h.env)).version).toBe('2.1.197');
    // IDE binaries are not started for a version.
    const cursor = await hostModule('cursor').detect(h.env);
    expect(cursor.installed).toBe(true);
    expect(cursor.version).toBeUndefined();
  });

  it('reads the version of an npm-installed host from its package.json, without running it', async () => {
    const h = makeHome([]);
    // Like `npm i -g @github/copilot`: bin/copilot links into node_modules/@github/copilot.
    const pkg = join(dirname(h.bin), 'lib', 'node_modules', '@github', 'copilot');
    mkdirSync(join(pkg, 'bin'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: '@github/copilot', version: '1.0.102' }));
    const ran = join(dirname(h.bin), 'copilot-ran');
    const script = join(pkg, 'bin', 'copilot');
    writeFileSync(script, `#!/bin/sh\ntouch "${ran}"\necho 0.0.1\n`, { mode: 0o755 });
    symlinkSync(script, join(h.bin, 'copilot'));
    const d = await hostModule('copilot').detect(h.env);
    expect(d).toMatchObject({ installed: true, version: '1.0.102' });
    expect(existsSync(ran), 'the host was started to read its version').toBe(false);
    // Outside an npm package, `--version` still answers.
    rmSync(join(h.bin, 'copilot'));
    fakeBinary(h, 'copilot', 'echo "GitHub Copilot CLI 1.0.99"');
    expect((await hostModule('copilot').detect(h.env)).version).toBe('1.0.99');
  });

  it('skips the version of a slow binary and ignores non-executable and relative PATH entries', async () => {
    const h = makeHome([]);
    const slow = fakeBinary(h, 'gemini', '/bin/sleep 5 && echo 9.9.9');
    const started = Date.now();
    expect(await cheapVersion(slow, h.env, 300)).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(2500);
    writeFileSync(join(h.bin, 'warp'), '#!/bin/sh\necho 1\n', { mode: 0o644 });
    expect(findBinary('warp', h.env)).toBeUndefined();
    fakeBinary(h, 'goose', 'echo 1.0.0');
    expect(findBinary('goose', { PATH: `relative/bin:${h.bin}` })).toBe(join(h.bin, 'goose'));
    expect(findBinary('goose', { PATH: 'relative/bin' })).toBeUndefined();
    expect(parseVersion('GitHub Copilot CLI 1.0.102.\nRun copilot update')).toBe('1.0.102');
    expect(parseVersion('no digits here')).toBeUndefined();
  });
});

/** Hosts whose directory moves with an environment variable. */
const OVERRIDES: Array<{ id: HostId; variable: string; dir: string; value?: (alt: string) => string }> = [
  { id: 'claude-code', variable: 'CLAUDE_CONFIG_DIR', dir: '.claude' },
  { id: 'codex', variable: 'CODEX_HOME', dir: '.codex' },
  { id: 'kimi', variable: 'KIMI_CODE_HOME', dir: '.kimi-code' },
  { id: 'grok', variable: 'GROK_HOME', dir: '.grok' },
  { id: 'copilot', variable: 'COPILOT_HOME', dir: '.copilot' },
  { id: 't3code', variable: 'T3CODE_HOME', dir: '.t3' },
  { id: 'gemini', variable: 'GEMINI_CLI_HOME', dir: '.gemini', value: (alt) => dirname(alt) },
  { id: 'goose', variable: 'XDG_CONFIG_HOME', dir: '.config' },
  { id: 'roo-code', variable: 'XDG_CONFIG_HOME', dir: '.config' },
];

describe('environment overrides', () => {
  it.each(OVERRIDES)('$id honours $variable for detection and for the files it writes', async ({ id, variable, dir, value }) => {
    const h = makeHome([id]);
    const alt = join(dirname(h.home), 'elsewhere', dir);
    mkdirSync(dirname(alt), { recursive: true });
    renameSync(join(h.home, dir), alt);
    if (id === 'claude-code') renameSync(join(h.home, '.claude.json'), join(alt, '.claude.json')); // moves with the config dir
    const env = { ...h.env, [variable]: value ? value(alt) : alt };

    const d = await hostModule(id).detect(env);
    expect(d.installed).toBe(true);
    expect(d.evidence.some((e) => e.detail.includes(alt))).toBe(true);
    expect((await hostModule(id).detect(h.env)).evidence.some((e) => e.detail.includes(alt))).toBe(false);

    const { changes } = await planFor([id], h, { env });
    const { summary } = await install(h, changes);
    expect(summary.failed).toEqual([]);
    for (const [rel, text] of expectedFiles(id)) {
      const moved = rel === '.claude.json' ? '.claude/.claude.json' : rel;
      if (!moved.startsWith(`${dir}/`)) continue;
      expect(read(join(alt, moved.slice(dir.length + 1))), moved).toBe(text);
    }
    expect(summary.written.filter((p) => p.startsWith(join(h.home, dir)))).toEqual([]);
  });

  it('kimi: ~/.kimi-code wins; the older ~/.kimi (or KIMI_SHARE_DIR) is used only when it alone exists', async () => {
    const h = makeHome(['kimi']);
    const both = await hostModule('kimi').detect(h.env);
    expect(both.facts).toMatchObject({ generation: 'kimi-code', configDir: join(h.home, '.kimi-code') });

    const old = makeHome([]);
    mkdirSync(join(old.home, '.kimi'));
    expect((await hostModule('kimi').detect(old.env)).facts).toMatchObject({ generation: 'kimi-cli', configDir: join(old.home, '.kimi') });
    const share = join(dirname(old.home), 'share-dir');
    mkdirSync(share);
    const env = { ...old.env, KIMI_SHARE_DIR: share };
    const plan = await hostModule('kimi').plan({ ...RT, env, home: old.home, dataDir: old.dataDir,
      packageRoot: '/opt/claude-mem', detection: await hostModule('kimi').detect(env), selected: ['kimi'] });
    expect(new Set(plan.changes.map((c) => dirname(c.file)))).toEqual(new Set([share]));
  });
});
