import { test } from 'vitest';
import { tomlEditor } from '../../src/npx-cli/engine/toml.js';
import { jsonEditor } from '../../src/npx-cli/engine/json.js';
import type { Change } from '../../src/npx-cli/engine/types.js';

function rt(ed: any, src: string, c: Change) {
  const a = ed.apply(src, c, '/x');
  const again = ed.apply(a.text, c, '/x');
  const r = ed.revert(a.text, a.record, '/x');
  console.log(`--- ${c.kind} noop2=${again.noop} same2=${again.text === a.text} revertOK=${r.text === src}\n${a.text}` + (r.text === src ? '' : `\n>>> reverted:\n${JSON.stringify(r.text)}\n>>> orig:\n${JSON.stringify(src)}`));
}
test('scratch', () => {
  const codex = `# Codex config\r\nmodel = "gpt-5"   # chosen\r\n\r\n[features]   # feature flags\r\nweb_search = true # on\r\n\r\n[mcp_servers.other]\r\ncommand = 'x'\r\n\r\n# trailing note\r\n[hooks.state."/Users/o'brien/My Files/hooks.json:PostToolUse:0:0"]\r\ntrusted = true\r\n`;
  rt(tomlEditor, codex, { kind: 'toml-set', file: '/x', host: 'codex', table: ['features'], key: 'hooks', value: true });
  rt(tomlEditor, codex, { kind: 'toml-table', file: '/x', host: 'codex', table: ['mcp_servers', 'claude-mem'], value: { command: "/Users/o'brien/My Files/node", args: ['a'], env: { A: '1' } } });
  rt(tomlEditor, codex, { kind: 'toml-table', file: '/x', host: 'codex', table: ['hooks', 'state', "/Users/o'brien/My Files/claude-mem/hooks.json:SessionStart:0:0"], value: { trusted: true } });
  rt(tomlEditor, 'features.web = true # c\nmodel = "x"', { kind: 'toml-set', file: '/x', host: 'codex', table: ['features'], key: 'hooks', value: true });
  rt(tomlEditor, 'features = { web = true }   # c\n', { kind: 'toml-set', file: '/x', host: 'codex', table: ['features'], key: 'hooks', value: true });
  rt(tomlEditor, 'model = "x"', { kind: 'toml-set', file: '/x', host: 'codex', table: ['features'], key: 'hooks', value: true });
  rt(tomlEditor, '', { kind: 'toml-set', file: '/x', host: 'codex', table: ['features'], key: 'hooks', value: true });
  const kimi = `# kimi\n[[hooks]]\nevent = "Stop"\ncommand = "other" # theirs\n\n[ui]\nx = 1\n`;
  rt(tomlEditor, kimi, { kind: 'toml-array-entry', file: '/x', host: 'kimi', array: ['hooks'], match: [{ path: ['command'], contains: 'claude-mem' }, { path: ['event'], equals: 'Stop' }], entry: { event: 'Stop', command: 'claude-mem hook kimi Stop', timeout: 30 } });
  const claude = `{\n  // user comment\n  "theme": "dark", // trailing\n  "hooks": {\n    "PostToolUse": [\n      { "matcher": "*", "hooks": [ { "type": "command", "command": "other-tool" } ] },\n    ],\n  },\n}\n`;
  rt(jsonEditor, claude, { kind: 'json-array-upsert', file: '/x', host: 'c', path: ['hooks', 'PostToolUse'], match: [{ contains: 'claude-mem' }], entry: { matcher: '*', hooks: [{ type: 'command', command: 'claude-mem hook claude-code PostToolUse' }] } });
  rt(jsonEditor, claude, { kind: 'json-array-upsert', file: '/x', host: 'c', path: ['hooks', 'SessionStart'], match: [{ contains: 'claude-mem' }], entry: { hooks: [{ type: 'command', command: 'claude-mem hook' }] } });
  rt(jsonEditor, claude, { kind: 'json-set', file: '/x', host: 'c', path: ['mcpServers', 'claude-mem'], value: { command: 'node' } });
  rt(jsonEditor, claude, { kind: 'json-set', file: '/x', host: 'c', path: ['theme'], value: 'light' });
  rt(jsonEditor, '{}', { kind: 'json-set', file: '/x', host: 'c', path: ['a', 'b'], value: 1 });
  rt(jsonEditor, '{ }\n', { kind: 'json-set', file: '/x', host: 'c', path: ['a'], value: 1 });
  rt(jsonEditor, '', { kind: 'json-set', file: '/x', host: 'c', path: ['a'], value: 1 });
  rt(jsonEditor, '{"a":1,"b":[1,2]}', { kind: 'json-set', file: '/x', host: 'c', path: ['c'], value: { d: [1] } });
  rt(jsonEditor, '\uFEFF{\r\n\t"a": 1,\r\n\t"hooks": {}\r\n}', { kind: 'json-array-upsert', file: '/x', host: 'c', path: ['hooks', 'Stop'], match: [{ contains: 'cm' }], entry: { command: 'cm' } });
});
