import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseToml } from 'smol-toml';
import { ConfigConflictError, ConfigParseError, planChanges, type Change } from '../../src/npx-cli/engine/index.js';
import { install, lifeCycle, read, setup, stamp, uninstall, write } from './helpers.js';

const HOME = "/Users/Jane O'Neil";
const cmd = (host: string, event: string) => `node "${HOME}/.claude-mem/bin.js" hook ${host} ${event}`;

const CODEX = [
  '# Codex CLI config',
  'model = "gpt-5-codex"   # default model',
  'approval_policy = "on-request"',
  '',
  '[features]   # experimental switches',
  'web_search_request = true # search',
  '',
  '[mcp_servers.github]',
  'command = "npx"',
  'args = ["-y", "@modelcontextprotocol/server-github"]',
  '',
  '# Projects I trust',
  `[projects."${HOME}/work"]`,
  'trust_level = "trusted"',
  '',
].join('\n');

const CODEX_INSTALLED = [
  '# Codex CLI config',
  'model = "gpt-5-codex"   # default model',
  'approval_policy = "on-request"',
  '',
  '[features]   # experimental switches',
  'web_search_request = true # search',
  'hooks = true',
  '',
  '[mcp_servers.github]',
  'command = "npx"',
  'args = ["-y", "@modelcontextprotocol/server-github"]',
  '',
  '[mcp_servers.claude-mem]',
  `command = "${HOME}/.nvm/versions/node/v20/bin/node"`,
  `args = ["${HOME}/.claude-mem/bin.js", "mcp"]`,
  String.raw`env = { CLAUDE_MEM_DATA_DIR = "C:\\Users\\Jane\\data", "odd key" = "a\"b" }`,
  'startup_timeout_sec = 20',
  '',
  '# Projects I trust',
  `[projects."${HOME}/work"]`,
  'trust_level = "trusted"',
  '',
  `[hooks.state."${HOME}/.codex/hooks.json:PostToolUse:0:0"]`,
  'trusted = true',
  '',
].join('\n');

function codexChanges(file: string): Change[] {
  return [
    { kind: 'toml-set', file, host: 'codex', table: ['features'], key: 'hooks', value: true },
    {
      kind: 'toml-table', file, host: 'codex', table: ['mcp_servers', 'claude-mem'],
      value: {
        command: `${HOME}/.nvm/versions/node/v20/bin/node`,
        args: [`${HOME}/.claude-mem/bin.js`, 'mcp'],
        env: { CLAUDE_MEM_DATA_DIR: 'C:\\Users\\Jane\\data', 'odd key': 'a"b' },
        startup_timeout_sec: 20,
      },
    },
    { kind: 'toml-table', file, host: 'codex', table: ['hooks', 'state', `${HOME}/.codex/hooks.json:PostToolUse:0:0`], value: { trusted: true } },
  ];
}

const set = (file: string, value = true): Change =>
  ({ kind: 'toml-set', file, host: 'codex', table: ['features'], key: 'hooks', value });

describe('toml (Codex config.toml)', () => {
  it('sets a key under a header with a trailing comment, adds tables with apostrophe paths and quoted dotted keys', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'config.toml'), CODEX);
    await lifeCycle(ctx, file, CODEX, codexChanges(file), CODEX_INSTALLED);
  });

  it('keeps a BOM and CRLF line ends', async () => {
    const ctx = setup();
    const crlf = (s: string) => `\uFEFF${s.replace(/\n/g, '\r\n')}`;
    const file = write(join(ctx.dir, 'config.toml'), crlf(CODEX));
    await lifeCycle(ctx, file, crlf(CODEX), codexChanges(file), crlf(CODEX_INSTALLED));
  });

  it('keeps the user\'s later edits and removes only ours', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'config.toml'), CODEX);
    await install(ctx, codexChanges(file));
    const edit = (s: string) => s.replace('web_search_request = true # search', 'web_search_request = false\nunified_exec = true') + '\n[profiles.fast]\nmodel = "o4-mini"\n';
    write(file, edit(read(file)));
    await uninstall(ctx);
    expect(read(file)).toBe(edit(CODEX));
  });

  it('adds next to dotted keys when the table is defined that way', async () => {
    const ctx = setup();
    const original = 'features.web_search_request = true  # dotted\nmodel = "o3"\n';
    const file = write(join(ctx.dir, 'config.toml'), original);
    await lifeCycle(ctx, file, original, [set(file)], 'features.web_search_request = true  # dotted\nfeatures.hooks = true\nmodel = "o3"\n');
  });

  it('adds into an inline table, and an empty one comes back exactly', async () => {
    const ctx = setup();
    const inline = 'features = { web_search_request = true }   # inline\n\n[tui]\nnotifications = true\n';
    const file = write(join(ctx.dir, 'config.toml'), inline);
    await lifeCycle(ctx, file, inline, [set(file)], 'features = { web_search_request = true, hooks = true }   # inline\n\n[tui]\nnotifications = true\n');
    const empty = write(join(ctx.dir, 'empty.toml'), 'features = {}\n');
    await lifeCycle(ctx, empty, 'features = {}\n', [set(empty)], 'features = { hooks = true }\n');
  });

  it('creates a missing table (file without a final newline) and removes it again', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'config.toml'), 'model = "o3"');
    await lifeCycle(ctx, file, 'model = "o3"', [set(file)], 'model = "o3"\n\n[features]\nhooks = true');
  });

  it('restores the exact value it replaced', async () => {
    const ctx = setup();
    const original = '[features]\nhooks = false   # off for now\ncodex_hooks = false\n';
    const file = write(join(ctx.dir, 'config.toml'), original);
    await lifeCycle(ctx, file, original, [set(file)], '[features]\nhooks = true   # off for now\ncodex_hooks = false\n');
  });

  it('updates our table in place when its header is quoted or carries a comment (never a duplicate table)', async () => {
    const ctx = setup();
    const original = '[mcp_servers."claude-mem"]   # old install\ncommand = "old"\n\n[tui]\nx = 1\n';
    const file = write(join(ctx.dir, 'config.toml'), original);
    const change: Change = { kind: 'toml-table', file, host: 'codex', table: ['mcp_servers', 'claude-mem'], value: { command: 'node', args: ['x'] } };
    await install(ctx, [change]);
    expect(read(file)).toBe('[mcp_servers.claude-mem]\ncommand = "node"\nargs = ["x"]\n\n[tui]\nx = 1\n');
    await uninstall(ctx);
    expect(read(file)).toBe('[tui]\nx = 1\n');
  });

  it('keeps keys the user added to our table: re-install leaves them, uninstall keeps them commented out and says so', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'config.toml'), 'model = "o4"\n\n[tui]\nx = 1\n');
    const change: Change = { kind: 'toml-table', file, host: 'codex', table: ['mcp_servers', 'claude-mem'], value: { command: 'node', args: ['/x/claude-mem.cjs', 'mcp'] } };
    await install(ctx, [change]);
    const installed = read(file);
    // The user tunes our server: a key of theirs, a comment, and a sub-table.
    const tuned = installed.replace('args = ["/x/claude-mem.cjs", "mcp"]\n', 'args = ["/x/claude-mem.cjs", "mcp"]\nstartup_timeout_sec = 30 # slow disk\n\n[mcp_servers.claude-mem.env]\nA = "1"\n');
    expect(tuned).not.toBe(installed);
    write(file, tuned);
    await install(ctx, [{ ...change, value: { command: '/new/node', args: ['/x/claude-mem.cjs', 'mcp'] } }]);
    expect(read(file)).toBe(tuned.replace('command = "node"', 'command = "/new/node"'));
    const summary = await uninstall(ctx);
    const after = read(file);
    expect(after).toBe([
      'model = "o4"', '', '[tui]', 'x = 1', '',
      '# claude-mem uninstall removed its own keys from [mcp_servers.claude-mem]; yours (startup_timeout_sec, env) are kept below, commented out: the table does not work without claude-mem\'s.',
      '# [mcp_servers.claude-mem]', '# startup_timeout_sec = 30 # slow disk', '', '# [mcp_servers.claude-mem.env]', '# A = "1"', '',
    ].join('\n'));
    expect(parseToml(after)).toEqual({ model: 'o4', tui: { x: 1 } });
    expect(summary.files[0].notes.join(' ')).toMatch(/\[mcp_servers\.claude-mem\] also held your startup_timeout_sec, env: removed claude-mem's keys and kept yours, commented out/);
  });

  it('refuses a table defined with dotted keys instead of duplicating it', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'config.toml'), 'mcp_servers.claude-mem.command = "x"\n');
    const [plan] = await planChanges([{ kind: 'toml-table', file, host: 'codex', table: ['mcp_servers', 'claude-mem'], value: { command: 'node' } }]);
    expect(plan.error).toBeInstanceOf(ConfigConflictError);
    expect(plan.error!.fix).toContain('[mcp_servers.claude-mem]');
  });

  it('refuses a file with a duplicate table, with line and column, and leaves it alone', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'config.toml'), '[features]\na = 1\n\n[features]\nb = 2\n');
    const before = stamp(file);
    const { plan } = await install(ctx, [set(file)]);
    const err = plan[0].error as ConfigParseError;
    expect(err).toBeInstanceOf(ConfigParseError);
    expect([err.line, err.column]).toEqual([4, 2]);
    expect(err.message).toContain('redefine');
    expect(stamp(file)).toBe(before);
  });

  it('refuses to add a table under an inline table (the result would not parse)', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'config.toml'), 'mcp_servers = { other = { command = "x" } }\n');
    const [plan] = await planChanges([{ kind: 'toml-table', file, host: 'codex', table: ['mcp_servers', 'claude-mem'], value: { command: 'node' } }]);
    expect(plan.error).toBeInstanceOf(ConfigConflictError);
    expect(plan.error!.message).toContain('would leave invalid TOML');
  });

  it('groups a new hooks.state table after the existing ones', async () => {
    const ctx = setup();
    const original = `[hooks.state."${HOME}/a.json:Stop:0:0"]\ntrusted = true\n\n[tui]\nx = 1\n`;
    const file = write(join(ctx.dir, 'config.toml'), original);
    const key = `${HOME}/.codex/hooks.json:SessionStart:0:0`;
    await lifeCycle(ctx, file, original, [{ kind: 'toml-table', file, host: 'codex', table: ['hooks', 'state', key], value: { trusted: true } }],
      `[hooks.state."${HOME}/a.json:Stop:0:0"]\ntrusted = true\n\n[hooks.state."${key}"]\ntrusted = true\n\n[tui]\nx = 1\n`);
  });

  it('refuses a key path that runs through a value', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'config.toml'), 'features = "all"\n');
    const [plan] = await planChanges([set(file)]);
    expect(plan.error).toBeInstanceOf(ConfigConflictError);
  });
});

const KIMI = [
  'default_model = "kimi-k2"',
  '',
  '[[hooks]]',
  'event = "Stop"',
  'command = "notify-send done" # desktop ping',
  '',
  '[[hooks]]',
  'event = "PostToolUse"',
  'matcher = "Shell"',
  'command = "audit.sh"',
  '',
  '[mcp]',
  'client = { timeout = 60 }',
  '',
].join('\n');

function kimiChanges(file: string): Change[] {
  return ['SessionStart', 'Stop'].map((event): Change => ({
    kind: 'toml-array-entry', file, host: 'kimi', array: ['hooks'],
    match: [{ path: ['command'], contains: '.claude-mem/bin.js' }, { path: ['event'], equals: event }],
    entry: { event, command: cmd('kimi', event), timeout: 30 },
  }));
}

const entry = (event: string) => ['[[hooks]]', `event = "${event}"`, `command = ${JSON.stringify(cmd('kimi', event))}`, 'timeout = 30'];

describe('toml-array-entry (Kimi [[hooks]])', () => {
  it('appends our entries after the existing ones and removes exactly them', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'config.toml'), KIMI);
    const lines = KIMI.split('\n');
    const expected = [...lines.slice(0, 10), '', ...entry('SessionStart'), '', ...entry('Stop'), ...lines.slice(10)].join('\n');
    await lifeCycle(ctx, file, KIMI, kimiChanges(file), expected);
  });

  it('updates our entry in place when it changed, and keeps the user\'s later entries on uninstall', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'config.toml'), KIMI);
    const changes = kimiChanges(file);
    await install(ctx, changes);
    const bumped = changes.map((c) => ({ ...c, entry: { ...(c as { entry: object }).entry, timeout: 45 } }) as Change);
    await install(ctx, bumped);
    expect(read(file).match(/timeout = 45/g)).toHaveLength(2);
    expect(read(file).match(/\[\[hooks\]\]/g)).toHaveLength(4);
    const edit = (s: string) => s.replace('default_model = "kimi-k2"', 'default_model = "kimi-k2.5"') + '\n[[hooks]]\nevent = "SessionEnd"\ncommand = "mine.sh"\n';
    write(file, edit(read(file)));
    await uninstall(ctx);
    expect(read(file)).toBe(edit(KIMI));
  });

  it('refuses an array written inline', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'config.toml'), 'hooks = [{ event = "Stop", command = "x" }]\n');
    const [plan] = await planChanges(kimiChanges(file));
    expect(plan.error).toBeInstanceOf(ConfigConflictError);
    expect(plan.error!.message).toContain('not an array of [[hooks]] tables');
  });

  it('creates the first entry in a new file and deletes the file on uninstall', async () => {
    const ctx = setup();
    const file = join(ctx.dir, 'kimi', 'config.toml');
    await lifeCycle(ctx, file, null, kimiChanges(file).slice(0, 1), `${entry('SessionStart').join('\n')}\n`);
  });
});
