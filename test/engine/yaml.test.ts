import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigConflictError, ConfigParseError, planChanges, type Change } from '../../src/npx-cli/engine/index.js';
import { install, lifeCycle, read, setup, stamp, uninstall, write } from './helpers.js';

const HOME = "/Users/Jane O'Neil";

// Laid out the way Goose itself writes the file (sequences not indented under their key).
const GOOSE = [
  '# Goose configuration',
  'GOOSE_PROVIDER: anthropic   # provider',
  'GOOSE_MODEL: claude-sonnet-4',
  'extensions:',
  '  developer:',
  '    bundled: true',
  '    enabled: true',
  '    name: developer',
  '    timeout: 300',
  '    type: builtin',
  '  # memory tools',
  '  memory:',
  '    enabled: false',
  '    args:',
  '    - --verbose',
  '    type: stdio',
  'GOOSE_MODE: smart_approve',
  '',
].join('\n');

const VALUE = { enabled: true, type: 'stdio', name: 'claude-mem', cmd: `${HOME}/.nvm/node`, args: [`${HOME}/.claude-mem/bin.js`, 'mcp'], envs: {}, timeout: 300 };
const OURS = [
  '  claude-mem:',
  '    enabled: true',
  '    type: stdio',
  '    name: claude-mem',
  `    cmd: ${HOME}/.nvm/node`,
  '    args:',
  `    - ${HOME}/.claude-mem/bin.js`,
  '    - mcp',
  '    envs: {}',
  '    timeout: 300',
];

const change = (file: string, value: unknown = VALUE): Change => ({ kind: 'yaml-set', file, host: 'goose', path: ['extensions', 'claude-mem'], value });

describe('yaml-set (Goose extensions)', () => {
  it('adds our extension after the others, keeping comments, spacing and sequence style', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'config.yaml'), GOOSE);
    const lines = GOOSE.split('\n');
    await lifeCycle(ctx, file, GOOSE, [change(file)], [...lines.slice(0, 16), ...OURS, ...lines.slice(16)].join('\n'));
  });

  it('keeps a BOM and CRLF line ends', async () => {
    const ctx = setup();
    const crlf = `\uFEFF${GOOSE.replace(/\n/g, '\r\n')}`;
    const file = write(join(ctx.dir, 'config.yaml'), crlf);
    const lines = GOOSE.split('\n');
    await lifeCycle(ctx, file, crlf, [change(file)], `\uFEFF${[...lines.slice(0, 16), ...OURS, ...lines.slice(16)].join('\r\n')}`);
  });

  it('keeps the user\'s later edits on uninstall', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'config.yaml'), GOOSE);
    await install(ctx, [change(file)]);
    const edit = (s: string) => s.replace('GOOSE_MODEL: claude-sonnet-4', 'GOOSE_MODEL: claude-opus-4  # bigger').replace('    enabled: false', '    enabled: true');
    write(file, edit(read(file)));
    await uninstall(ctx);
    expect(read(file)).toBe(edit(GOOSE));
  });

  it('fills `extensions:` with no value and `extensions: {}`, and puts them back', async () => {
    const ctx = setup();
    for (const holder of ['extensions:', 'extensions: {}', 'extensions:   # none yet']) {
      const original = `GOOSE_MODEL: x\n${holder}\nGOOSE_MODE: auto\n`;
      const file = write(join(ctx.dir, `${holder.length}.yaml`), original);
      const indented = OURS.map((l) => l.replace(/^(\s*)- /, '$1  - '));
      await lifeCycle(ctx, file, original, [change(file)], ['GOOSE_MODEL: x', 'extensions:', ...indented, 'GOOSE_MODE: auto', ''].join('\n'));
    }
  });

  it('replaces an existing entry and restores its exact text', async () => {
    const ctx = setup();
    const original = 'extensions:\n  claude-mem:  # old\n    cmd: old\n    enabled: false\n  other:\n    enabled: true\n';
    const file = write(join(ctx.dir, 'config.yaml'), original);
    await lifeCycle(ctx, file, original, [change(file, { cmd: 'node', enabled: true })],
      'extensions:\n  claude-mem:\n    cmd: node\n    enabled: true\n  other:\n    enabled: true\n');
  });

  it('creates a missing file and deletes it on uninstall', async () => {
    const ctx = setup();
    const file = join(ctx.dir, 'goose', 'config.yaml');
    const indented = OURS.map((l) => l.replace(/^(\s*)- /, '$1  - '));
    await lifeCycle(ctx, file, null, [change(file)], ['extensions:', ...indented, ''].join('\n'));
  });

  it('refuses invalid YAML with line and column and leaves it alone', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'config.yaml'), 'extensions:\n  a: [1, 2\nGOOSE_MODE: x\n');
    const before = stamp(file);
    const { plan } = await install(ctx, [change(file)]);
    const err = plan[0].error as ConfigParseError;
    expect(err).toBeInstanceOf(ConfigParseError);
    expect(err.line).toBeGreaterThan(1);
    expect(err.column).toBeGreaterThan(0);
    expect(stamp(file)).toBe(before);
  });

  it('refuses to write into a list', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'config.yaml'), 'extensions:\n- developer\n');
    const [plan] = await planChanges([change(file)]);
    expect(plan.error).toBeInstanceOf(ConfigConflictError);
  });
});
