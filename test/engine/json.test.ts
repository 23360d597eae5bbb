import { join } from 'node:path';
import { existsSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConfigConflictError, ConfigParseError, loadManifest, planChanges, type Change } from '../../src/npx-cli/engine/index.js';
import { install, lifeCycle, read, setup, stamp, uninstall, write } from './helpers.js';

const BIN = "/Users/Jane O'Neil/.claude-mem/bin.js";
const cmd = (event: string) => `node "${BIN}" hook claude-code ${event}`;
const ours = [{ contains: '.claude-mem/bin.js' }];

const CLAUDE = [
  '{',
  '  // Claude Code settings, edited by hand',
  '  "model": "opus",',
  '  "permissions": { "allow": ["Bash(git:*)"] }, // keep',
  '  "hooks": {',
  '    "PostToolUse": [',
  '      { "matcher": "Edit|Write", "hooks": [ { "type": "command", "command": "prettier --write" } ] },',
  '    ],',
  '  },',
  '}',
  '',
].join('\n');

const CLAUDE_INSTALLED = [
  '{',
  '  // Claude Code settings, edited by hand',
  '  "model": "opus",',
  '  "permissions": { "allow": ["Bash(git:*)"] }, // keep',
  '  "hooks": {',
  '    "PostToolUse": [',
  '      { "matcher": "Edit|Write", "hooks": [ { "type": "command", "command": "prettier --write" } ] },',
  '      {',
  '        "matcher": "*",',
  '        "hooks": [',
  '          {',
  '            "type": "command",',
  `            "command": ${JSON.stringify(cmd('PostToolUse'))},`,
  '            "timeout": 10',
  '          }',
  '        ]',
  '      },',
  '    ],',
  '    "SessionStart": [',
  '      {',
  '        "hooks": [',
  '          {',
  '            "type": "command",',
  `            "command": ${JSON.stringify(cmd('SessionStart'))}`,
  '          }',
  '        ]',
  '      }',
  '    ],',
  '  },',
  '}',
  '',
].join('\n');

function claudeChanges(file: string, host = 'claude-code'): Change[] {
  return [
    { kind: 'json-array-upsert', file, host, path: ['hooks', 'PostToolUse'], match: ours, entry: { matcher: '*', hooks: [{ type: 'command', command: cmd('PostToolUse'), timeout: 10 }] } },
    { kind: 'json-array-upsert', file, host, path: ['hooks', 'SessionStart'], match: ours, entry: { hooks: [{ type: 'command', command: cmd('SessionStart') }] } },
  ];
}

describe('json-array-upsert', () => {
  it('adds our hook groups next to other tools\' ones, keeping comments and trailing commas', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'settings.json'), CLAUDE);
    await lifeCycle(ctx, file, CLAUDE, claudeChanges(file), CLAUDE_INSTALLED);
  });

  it('keeps the user\'s later edits on uninstall, removing only our entries', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'settings.json'), CLAUDE);
    await install(ctx, claudeChanges(file));
    const edit = (s: string) => s.replace('"model": "opus",', '"model": "sonnet",\n  "theme": "dark",');
    write(file, edit(read(file)));
    await uninstall(ctx);
    expect(read(file)).toBe(edit(CLAUDE));
  });

  it('leaves an array we created when the user added their own entry to it', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'settings.json'), '{\n  "model": "opus"\n}\n');
    const [, sessionStart] = claudeChanges(file);
    await install(ctx, [sessionStart]);
    const installed = read(file);
    write(file, installed.replace('      }\n    ]', '      },\n      { "hooks": [{ "type": "command", "command": "mine" }] }\n    ]'));
    await uninstall(ctx);
    expect(read(file)).toBe([
      '{',
      '  "model": "opus",',
      '  "hooks": {',
      '    "SessionStart": [',
      '      { "hooks": [{ "type": "command", "command": "mine" }] }',
      '    ]',
      '  }',
      '}',
      '',
    ].join('\n'));
  });

  it('replaces a stale entry of ours in place instead of adding a second one', async () => {
    const ctx = setup();
    const stale = '{\n  "hooks": {\n    "Stop": [\n      { "hooks": [{ "type": "command", "command": "node /old/.claude-mem/bin.js stop" }] },\n      { "hooks": [{ "type": "command", "command": "other" }] }\n    ]\n  }\n}\n';
    const file = write(join(ctx.dir, 'settings.json'), stale.replace('/old/', '/Users/Jane O\'Neil/'));
    const change: Change = { kind: 'json-array-upsert', file, host: 'claude-code', path: ['hooks', 'Stop'], match: ours, entry: { hooks: [{ type: 'command', command: cmd('Stop') }] } };
    await install(ctx, [change]);
    expect(read(file)).toBe([
      '{',
      '  "hooks": {',
      '    "Stop": [',
      '      {',
      '        "hooks": [',
      '          {',
      '            "type": "command",',
      `            "command": ${JSON.stringify(cmd('Stop'))}`,
      '          }',
      '        ]',
      '      },',
      '      { "hooks": [{ "type": "command", "command": "other" }] }',
      '    ]',
      '  }',
      '}',
      '',
    ].join('\n'));
    // Entries found by our marker are ours: uninstall removes them rather than restoring the stale one.
    await uninstall(ctx);
    expect(read(file)).toBe('{\n  "hooks": {\n    "Stop": [\n      { "hooks": [{ "type": "command", "command": "other" }] }\n    ]\n  }\n}\n');
  });

  it('follows a one-line file\'s compact style (Cursor hooks.json)', async () => {
    const ctx = setup();
    const original = '{"version":1,"hooks":{"postToolUse":[{"command":"./other.sh"}]}}';
    const file = write(join(ctx.dir, 'hooks.json'), original);
    const c = (event: string): Change => ({ kind: 'json-array-upsert', file, host: 'cursor', path: ['hooks', event], match: ours, entry: { command: cmd(event) } });
    const q = (event: string) => JSON.stringify(cmd(event));
    await lifeCycle(ctx, file, original, [c('postToolUse'), c('sessionStart')],
      `{"version":1,"hooks":{"postToolUse":[{"command":"./other.sh"},{"command":${q('postToolUse')}}],"sessionStart":[{"command":${q('sessionStart')}}]}}`);
  });

  it('keeps a BOM, CRLF line ends and tab indentation (Windsurf hooks.json)', async () => {
    const ctx = setup();
    const original = '\uFEFF{\r\n\t"hooks": {\r\n\t\t"post_run_command": [\r\n\t\t\t{ "command": "other", "show_output": true }\r\n\t\t]\r\n\t}\r\n}\r\n';
    const file = write(join(ctx.dir, 'hooks.json'), original);
    const change: Change = { kind: 'json-array-upsert', file, host: 'windsurf', path: ['hooks', 'post_run_command'], match: ours, entry: { command: cmd('x'), show_output: false } };
    await lifeCycle(ctx, file, original, [change],
      `\uFEFF{\r\n\t"hooks": {\r\n\t\t"post_run_command": [\r\n\t\t\t{ "command": "other", "show_output": true },\r\n\t\t\t{\r\n\t\t\t\t"command": ${JSON.stringify(cmd('x'))},\r\n\t\t\t\t"show_output": false\r\n\t\t\t}\r\n\t\t]\r\n\t}\r\n}\r\n`);
  });

  it('upserts a plain string entry (OpenCode plugin list) and fills an empty {} that comes back on revert', async () => {
    const ctx = setup();
    const original = '{\n  "$schema": "https://opencode.ai/config.json",\n  // plugins\n  "plugin": ["opencode-other"],\n  "mcp": {}\n}\n';
    const file = write(join(ctx.dir, 'opencode.jsonc'), original);
    const plugin = "/Users/Jane O'Neil/.claude-mem/opencode/claude-mem.js";
    await lifeCycle(ctx, file, original, [
      { kind: 'json-array-upsert', file, host: 'opencode', path: ['plugin'], match: [{ contains: 'claude-mem' }], entry: plugin },
      { kind: 'json-set', file, host: 'opencode', path: ['mcp', 'claude-mem'], value: { type: 'local', command: ['node', 'x'], enabled: true } },
    ], [
      '{',
      '  "$schema": "https://opencode.ai/config.json",',
      '  // plugins',
      `  "plugin": ["opencode-other",${JSON.stringify(plugin)}],`,
      '  "mcp": {',
      '    "claude-mem": {',
      '      "type": "local",',
      '      "command": [',
      '        "node",',
      '        "x"',
      '      ],',
      '      "enabled": true',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n'));
  });
});

describe('json-set', () => {
  const MCP = '{\n  "numStartups": 12,\n  "mcpServers": {\n    "other": { "command": "other-mcp" },\n    "claude-mem": { "command": "old" }   // stale\n  }\n}\n';

  it('replaces a value in place and restores its exact old text on uninstall', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, '.claude.json'), MCP);
    const change: Change = { kind: 'json-set', file, host: 'claude-code', path: ['mcpServers', 'claude-mem'], value: { command: 'node', args: ['mcp'] } };
    await lifeCycle(ctx, file, MCP, [change],
      '{\n  "numStartups": 12,\n  "mcpServers": {\n    "other": { "command": "other-mcp" },\n    "claude-mem": {\n      "command": "node",\n      "args": [\n        "mcp"\n      ]\n    }   // stale\n  }\n}\n');
  });

  it('records the replaced value in the manifest, and keeps it across re-installs and upgrades', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, '.claude.json'), MCP);
    const v1: Change = { kind: 'json-set', file, host: 'claude-code', path: ['mcpServers', 'claude-mem'], value: { command: 'node', args: ['v1'] } };
    await install(ctx, [v1]);
    await install(ctx, [{ ...v1, value: { command: 'node', args: ['v2'] } }]);
    const rec = loadManifest(ctx.manifestPath).hosts['claude-code'].files[file].changes[0];
    expect(rec.previous).toEqual({ present: true, value: { command: 'old' }, raw: '{ "command": "old" }' });
    await uninstall(ctx);
    expect(read(file)).toBe(MCP);
  });

  it('leaves a value the user changed after install, and says so', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'settings.json'), '{\n  "a": 1\n}\n');
    await install(ctx, [{ kind: 'json-set', file, host: 'h', path: ['flag'], value: true }]);
    write(file, read(file).replace('"flag": true', '"flag": false'));
    const r = await uninstall(ctx);
    expect(read(file)).toBe('{\n  "a": 1,\n  "flag": false\n}\n');
    expect(r.files[0].notes).toEqual(['flag was changed after install; left as is']);
  });

  it('creates a missing file and its folders, and removes them again', async () => {
    const ctx = setup();
    const file = join(ctx.dir, 'new', 'deeper', 'mcp.json');
    await lifeCycle(ctx, file, null, [{ kind: 'json-set', file, host: 'warp', path: ['mcpServers', 'claude-mem'], value: { command: 'node' } }],
      '{\n  "mcpServers": {\n    "claude-mem": {\n      "command": "node"\n    }\n  }\n}\n');
    expect(existsSync(join(ctx.dir, 'new'))).toBe(false);
    expect(existsSync(ctx.dir)).toBe(true);
  });

  it('gives a blank existing file back as it was', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'mcp.json'), '\n');
    await lifeCycle(ctx, file, '\n', [{ kind: 'json-set', file, host: 'h', path: ['a'], value: 1 }], '{\n  "a": 1\n}\n');
  });

  it('refuses an unparseable file with line and column, touches nothing, and lets other hosts go on', async () => {
    const ctx = setup();
    const bad = write(join(ctx.dir, 'bad.json'), '{\n  "a": 1,,\n}\n');
    const good = write(join(ctx.dir, 'good.json'), '{}\n');
    const badOther = write(join(ctx.dir, 'bad-host-other.json'), '{}\n');
    const before = stamp(bad);
    const { plan, summary } = await install(ctx, [
      { kind: 'json-set', file: badOther, host: 'broken', path: ['x'], value: 1 },
      { kind: 'json-set', file: bad, host: 'broken', path: ['x'], value: 1 },
      { kind: 'json-set', file: good, host: 'fine', path: ['x'], value: 1 },
    ]);
    const err = plan.find((f) => f.path === bad)!.error as ConfigParseError;
    expect(err).toBeInstanceOf(ConfigParseError);
    expect([err.file, err.line, err.column]).toEqual([bad, 2, 10]);
    expect(err.message).toContain('bad.json:2:10');
    expect(err.fix).toContain('trailing commas are fine');
    expect(stamp(bad)).toBe(before);
    expect(read(badOther)).toBe('{}\n'); // the failed host's other file is not half-installed
    expect(read(good)).toBe('{\n  "x": 1\n}\n');
    expect(summary.written).toEqual([good]);
    expect(Object.keys(loadManifest(ctx.manifestPath).hosts)).toEqual(['fine']);
  });

  it('refuses to overwrite a value of the wrong type', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'settings.json'), '{ "hooks": "none" }\n');
    const [plan] = await planChanges(claudeChanges(file));
    expect(plan.error).toBeInstanceOf(ConfigConflictError);
    expect(plan.error!.message).toContain('"hooks" is a string');
    expect(statSync(file).size).toBe(20);
  });

  it('refuses a duplicate key: names the file, the key, both lines, and how to fix it', async () => {
    const ctx = setup();
    const text = '{\n  "model": "opus",\n  "hooks": {},\n  "theme": "dark",\n  "hooks": { "Stop": [] }\n}\n';
    const file = write(join(ctx.dir, 'settings.json'), text);
    const [plan] = await planChanges(claudeChanges(file));
    expect(plan.error).toBeInstanceOf(ConfigParseError);
    const err = plan.error as ConfigParseError;
    expect(err.message).toBe(`${file}:5:3: the key "hooks" appears twice in this object (lines 3 and 5)`);
    expect(err.fix).toMatch(/Keep one "hooks" \(merge the two if both hold settings you want\), then run the command again/);
    expect(err.message).not.toMatch(/Report this/);
    expect(read(file)).toBe(text);
    // Nested objects too, by their full key path.
    const nested = write(join(ctx.dir, 'nested.json'), '{ "mcpServers": {\n  "a": {},\n  "a": {} } }\n');
    const [p2] = await planChanges([{ kind: 'json-set', file: nested, host: 'h', path: ['mcpServers', 'claude-mem'], value: {} }]);
    expect(p2.error!.message).toBe(`${nested}:3:3: the key "mcpServers.a" appears twice in this object (lines 2 and 3)`);
  });
});
