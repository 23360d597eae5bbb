import { describe, expect, it } from 'vitest';
import type { ObservationDraft } from '../../src/observer/types.js';
import { observe } from '../../src/observer/index.js';
import { CWD, toolEvent } from './events.js';

/** The bounds a draft breaks (empty when it keeps them all). */
function broken(o: ObservationDraft): string[] {
  const checks: Array<[boolean, string]> = [
    [typeof o.title === 'string' && o.title.length > 0 && o.title.length <= 120 && !o.title.includes('\n'), 'title'],
    [(o.subtitle ?? '').length <= 200, 'subtitle'],
    [o.narrative.length <= 2000, 'narrative'],
    [o.facts.length <= 10 && o.facts.every((f) => f.length <= 200), 'facts'],
    [o.filesRead.length <= 50, 'filesRead'],
    [o.filesModified.length <= 50, 'filesModified'],
    [o.concepts.length <= 8, 'concepts'],
  ];
  return checks.filter(([ok]) => !ok).map(([, name]) => name);
}

function checkBounds(d: ObservationDraft | null): void {
  expect(d).not.toBeNull();
  expect(broken(d!)).toEqual([]);
}

const huge = 'z'.repeat(200_000);
const hugeLines = Array.from({ length: 20_000 }, (_, i) => `line ${i} ${'w'.repeat(20)}`).join('\n');

describe('observer bounds', () => {
  it('every family stays within its limits on huge inputs', () => {
    const manyFiles = Array.from({ length: 300 }, (_, i) => `*** Add File: f${i}.ts\n+x`).join('\n');
    const events = [
      toolEvent('Bash', { command: huge, description: huge }, { stdout: hugeLines, stderr: hugeLines }),
      toolEvent('Read', { file_path: `${CWD}/${huge}` }, { file: { content: hugeLines } }),
      toolEvent('Edit', { file_path: `${CWD}/a.ts`, old_string: hugeLines, new_string: huge }, {}),
      toolEvent('Write', { file_path: `${CWD}/a.ts`, content: hugeLines }, { type: 'create' }),
      toolEvent('ApplyPatch', `*** Begin Patch\n${manyFiles}\n*** End Patch`, 'ok'),
      toolEvent('Grep', { pattern: huge }, hugeLines),
      toolEvent('Glob', { pattern: '*' }, { filenames: hugeLines.split('\n') }),
      toolEvent('WebFetch', { url: `https://x.dev/${huge}`, prompt: huge }, { result: hugeLines, code: 200 }),
      toolEvent('WebSearch', { query: huge }, hugeLines.replace(/line/g, 'https://r.dev/')),
      toolEvent(`mcp__s__${huge.slice(0, 500)}`, { a: huge, b: [huge] }, hugeLines),
      toolEvent('Task', { prompt: huge, description: huge, subagent_type: huge }, hugeLines),
      toolEvent('TodoWrite', { todos: Array.from({ length: 500 }, (_, i) => ({ content: `${i} ${huge}`, status: 'pending' })) }, {}),
      toolEvent('Unknown', { x: huge }, hugeLines),
      { ...toolEvent('', undefined), kind: 'observation' as const, title: huge, message: hugeLines },
    ];
    for (const e of events) checkBounds(observe(e));
    const patch = observe(events[4])!;
    expect(patch.filesModified.length).toBe(50);
    expect(patch.title).toBe('Patched 300 files (+300 \u22120)');
  });

  it('never throws on odd input shapes', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const odd: unknown[] = [undefined, null, 42, true, [], [1, 2], 'str', '{not json', cyclic, { content: [null, 3, { type: 'image' }] },
      { stdout: 5, exit_code: 'x' }, { file: null }, { filenames: [1, null] }, { todos: 'no' }, { edits: [null, 1] }];
    const tools = ['Bash', 'Read', 'Write', 'Edit', 'ApplyPatch', 'Grep', 'Glob', 'LS', 'WebFetch', 'WebSearch', 'Task', 'TodoWrite',
      'NotebookEdit', 'mcp__x__y', 'mcp__', 'Other', ''];
    const problems: string[] = [];
    for (const t of tools) {
      odd.forEach((input, i) => {
        odd.forEach((resp, j) => {
          const d = observe(toolEvent(t, input, resp));
          if (!d) problems.push(`${t} ${i}/${j}: null`);
          else for (const b of broken(d)) problems.push(`${t} ${i}/${j}: ${b}`);
        });
      });
    }
    expect(problems).toEqual([]);
  });

  it('paths inside cwd become relative; outside stay absolute; ./ is dropped', () => {
    const d = observe(toolEvent('ApplyPatch', [
      '*** Begin Patch', `*** Update File: ${CWD}/in/a.ts`, '-a', '+b', '*** Update File: /other/b.ts', '-a', '+b',
      '*** Update File: ./c.ts', '-a', '+b', `*** Update File: ${CWD}-sibling/d.ts`, '-a', '+b', '*** End Patch',
    ].join('\n'), 'ok'))!;
    expect(d.filesModified).toEqual(['in/a.ts', '/other/b.ts', 'c.ts', `${CWD}-sibling/d.ts`]);
  });

  it('is deterministic', () => {
    const e = toolEvent('Bash', { command: 'npm run build' }, { stdout: hugeLines, stderr: '' });
    expect(observe(e)).toEqual(observe(e));
  });
});
