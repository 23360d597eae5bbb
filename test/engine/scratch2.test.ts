import { test } from 'vitest';
import { yamlEditor } from '../../src/npx-cli/engine/yaml.js';
import type { Change } from '../../src/npx-cli/engine/types.js';

function rt(ed: any, src: string, c: Change) {
  const a = ed.apply(src, c, '/x');
  const again = ed.apply(a.text, c, '/x');
  const r = ed.revert(a.text, a.record, '/x');
  console.log(`--- ${c.kind} noop2=${again.noop} same2=${again.text === a.text} revertOK=${r.text === src}\n${JSON.stringify(a.text)}\n${a.text}` + (r.text === src ? '' : `\n>>> reverted:\n${JSON.stringify(r.text)}\n>>> orig:\n${JSON.stringify(src)}`));
}
const v = { enabled: true, type: 'stdio', name: 'claude-mem', cmd: "/Users/o'brien/My Files/node", args: ['/x/mcp.js', 'a: b'], envs: {}, timeout: 300 };
test('scratch', () => {
  const goose = `# Goose config\r\nGOOSE_PROVIDER: openai   # provider\r\nGOOSE_MODEL:    gpt-4o\r\nextensions:\r\n  developer:\r\n    enabled: true\r\n    args:\r\n    - a\r\n\r\n  # memory thing\r\n  memory: {enabled: false}\r\nlast: 1`;
  rt(yamlEditor, goose, { kind: 'yaml-set', file: '/x', host: 'goose', path: ['extensions', 'claude-mem'], value: v });
  rt(yamlEditor, goose, { kind: 'yaml-set', file: '/x', host: 'goose', path: ['extensions', 'memory'], value: v });
  rt(yamlEditor, 'GOOSE_MODEL: x\nextensions:\n', { kind: 'yaml-set', file: '/x', host: 'goose', path: ['extensions', 'claude-mem'], value: v });
  rt(yamlEditor, 'GOOSE_MODEL: x\nextensions: {}\n', { kind: 'yaml-set', file: '/x', host: 'goose', path: ['extensions', 'claude-mem'], value: v });
  rt(yamlEditor, 'GOOSE_MODEL: x\n', { kind: 'yaml-set', file: '/x', host: 'goose', path: ['extensions', 'claude-mem'], value: v });
  rt(yamlEditor, '', { kind: 'yaml-set', file: '/x', host: 'goose', path: ['extensions', 'claude-mem'], value: v });
  rt(yamlEditor, '# only comment\n', { kind: 'yaml-set', file: '/x', host: 'goose', path: ['extensions', 'claude-mem'], value: v });
  rt(yamlEditor, '{}\n', { kind: 'yaml-set', file: '/x', host: 'goose', path: ['extensions', 'claude-mem'], value: v });
});
