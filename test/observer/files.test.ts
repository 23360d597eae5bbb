import { describe, expect, it } from 'vitest';
import { observe } from '../../src/observer/index.js';
import { lineDelta, parsePatch } from '../../src/observer/patch.js';
import { CWD, toolEvent } from './events.js';

describe('observe: Read', () => {
  it('Claude Code Read with offset/limit and a {file} response', () => {
    const d = observe(toolEvent('Read', { file_path: `${CWD}/src/app.ts`, offset: 10, limit: 51 }, {
      type: 'text', file: { filePath: `${CWD}/src/app.ts`, content: 'export const x = 1;\n', numLines: 51, startLine: 10, totalLines: 300 },
    }))!;
    expect(d.type).toBe('read');
    expect(d.title).toBe('Read src/app.ts (lines 10\u201360)');
    expect(d.filesRead).toEqual(['src/app.ts']);
    expect(d.filesModified).toEqual([]);
    expect(d.narrative).toContain('export const x = 1;');
    expect(d.facts).toContain('total lines: 300');
    expect(d.concepts).toContain('typescript');
  });

  it('a partial read without input range takes it from the response', () => {
    const d = observe(toolEvent('Read', { file_path: `${CWD}/README.md` }, {
      type: 'text', file: { content: 'x', numLines: 20, startLine: 1, totalLines: 90 },
    }))!;
    expect(d.title).toBe('Read README.md (lines 1\u201320)');
  });

  it('a whole-file read, string response, path outside cwd stays absolute', () => {
    const d = observe(toolEvent('Read', { path: '/etc/hosts' }, '127.0.0.1 localhost'))!;
    expect(d.title).toBe('Read /etc/hosts');
    expect(d.filesRead).toEqual(['/etc/hosts']);
  });

  it('Cursor read_file line range and Gemini read_many_files', () => {
    const c = observe(toolEvent('Read', { target_file: 'src/a.ts', start_line_one_indexed: 5, end_line_one_indexed_inclusive: 9 }, 'x'))!;
    expect(c.title).toBe('Read src/a.ts (lines 5\u20139)');
    const g = observe(toolEvent('Read', { paths: [`${CWD}/a.md`, `${CWD}/b.md`, 'c.md', 'd.md'] }, { llmContent: '...' }))!;
    expect(g.title).toBe('Read 4 files: a.md, b.md, c.md (+1 more)');
    expect(g.filesRead).toEqual(['a.md', 'b.md', 'c.md', 'd.md']);
  });

  it('Gemini read_file (absolute_path) and a failed read', () => {
    const d = observe(toolEvent('Read', { absolute_path: `${CWD}/missing.ts` }, { error: 'File not found' }))!;
    expect(d.title).toBe('Failed to read missing.ts');
    expect(d.narrative).toContain('File not found');
    expect(d.concepts).toContain('error');
  });
});

describe('observe: Edit, Write, NotebookEdit', () => {
  it('Claude Code Edit counts lines from old/new', () => {
    const d = observe(toolEvent('Edit', {
      file_path: `${CWD}/src/app.ts`, old_string: 'a\nb\nc', new_string: 'a\nB\nB2\nB3\nc', replace_all: false,
    }, { filePath: `${CWD}/src/app.ts` }))!;
    expect(d.type).toBe('edit');
    expect(d.title).toBe('Edited src/app.ts (+3 \u22121)');
    expect(d.filesModified).toEqual(['src/app.ts']);
    expect(d.narrative).toContain('- b');
    expect(d.narrative).toContain('+ B2');
  });

  it('structuredPatch in the response wins over a recount', () => {
    const d = observe(toolEvent('Edit', { file_path: `${CWD}/a.py`, old_string: 'x', new_string: 'y' }, {
      structuredPatch: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 3, lines: [' ctx', '-x', '+y', '+z'] }],
    }))!;
    expect(d.title).toBe('Edited a.py (+2 \u22121)');
    expect(d.concepts).toContain('python');
  });

  it('MultiEdit and Pi-style edits arrays', () => {
    const multi = observe(toolEvent('Edit', { file_path: `${CWD}/m.ts`, edits: [
      { old_string: 'a', new_string: 'b' }, { old_string: 'c', new_string: 'd\ne' },
    ] }, {}))!;
    expect(multi.title).toBe('Edited m.ts (+3 \u22122)');
    expect(multi.subtitle).toBe('2 edits');
    const pi = observe(toolEvent('Edit', { path: 'rel/p.go', edits: [{ oldText: 'x', newText: '' }] }, {}))!;
    expect(pi.title).toBe('Edited rel/p.go (+0 \u22121)');
    expect(pi.filesModified).toEqual(['rel/p.go']);
  });

  it('OpenCode edit (filePath, oldString, newString, replaceAll)', () => {
    const d = observe(toolEvent('Edit', { filePath: `${CWD}/x.ts`, oldString: 'a', newString: 'b', replaceAll: true }, { output: '' }))!;
    expect(d.title).toBe('Edited x.ts (+1 \u22121)');
    expect(d.facts).toContain('replace all');
  });

  it('Write: created vs overwritten', () => {
    const created = observe(toolEvent('Write', { file_path: `${CWD}/src/new.ts`, content: 'a\nb\nc\n' }, { type: 'create', filePath: `${CWD}/src/new.ts` }))!;
    expect(created.title).toBe('Created src/new.ts (+3)');
    expect(created.facts).toContain('new file');
    const over = observe(toolEvent('Write', { file_path: `${CWD}/x.md`, content: 'one' }, {
      type: 'update', structuredPatch: [{ lines: ['-old', '+one'] }],
    }))!;
    expect(over.title).toBe('Wrote x.md (+1 \u22121)');
  });

  it('a failed edit modifies nothing', () => {
    const d = observe(toolEvent('Edit', { file_path: `${CWD}/a.ts`, old_string: 'zz', new_string: 'y' }, 'String to replace not found', { toolFailed: true }))!;
    expect(d.title).toMatch(/^Failed to edit a\.ts/);
    expect(d.filesModified).toEqual([]);
    expect(d.concepts).toContain('error');
  });

  it('NotebookEdit names the cell', () => {
    const d = observe(toolEvent('NotebookEdit', { notebook_path: `${CWD}/nb.ipynb`, cell_id: 'c3', new_source: 'print(1)', edit_mode: 'replace' }, {}))!;
    expect(d.title).toBe('Edited nb.ipynb (cell c3, replace)');
    expect(d.concepts).toContain('notebook');
  });

  it('file_edit events (Cursor afterFileEdit) use filePath and edits', () => {
    const d = observe({ ...toolEvent('', undefined), kind: 'file_edit', toolName: undefined, toolUseId: undefined,
      filePath: `${CWD}/lib/x.rs`, edits: [{ oldText: 'fn a() {}', newText: 'fn a() {}\nfn b() {}' }] })!;
    expect(d.type).toBe('edit');
    expect(d.title).toBe('Edited lib/x.rs (+1 \u22120)');
    expect(d.filesModified).toEqual(['lib/x.rs']);
    expect(d.toolName).toBeNull();
  });
});

const CODEX_PATCH = [
  '*** Begin Patch',
  '*** Update File: src/app.ts',
  '@@ function main() {',
  '-  console.log("old");',
  '+  console.log("new");',
  '+  return 0;',
  '*** Add File: src/util.ts',
  '+export const one = 1;',
  '+export const two = 2;',
  '*** Delete File: old.txt',
  '*** Update File: src/a.ts',
  '*** Move to: src/b.ts',
  '@@',
  '-x',
  '+y',
  '*** End Patch',
].join('\n');

describe('ApplyPatch', () => {
  it('parses Codex patches: files, operations, moves, counts', () => {
    expect(parsePatch(CODEX_PATCH)).toEqual([
      { path: 'src/app.ts', op: 'update', added: 2, removed: 1 },
      { path: 'src/util.ts', op: 'add', added: 2, removed: 0 },
      { path: 'old.txt', op: 'delete', added: 0, removed: 0 },
      { path: 'src/a.ts', op: 'update', movedTo: 'src/b.ts', added: 1, removed: 1 },
    ]);
  });

  it('parses unified diffs', () => {
    const diff = [
      'diff --git a/src/x.ts b/src/x.ts', 'index 1..2 100644', '--- a/src/x.ts', '+++ b/src/x.ts', '@@ -1,3 +1,3 @@', ' a', '-b', '+c',
      'diff --git a/n.md b/n.md', 'new file mode 100644', '--- /dev/null', '+++ b/n.md', '@@ -0,0 +1,2 @@', '+# T', '+body',
    ].join('\n');
    expect(parsePatch(diff)).toEqual([
      { path: 'src/x.ts', op: 'update', added: 1, removed: 1 },
      { path: 'n.md', op: 'add', added: 2, removed: 0 },
    ]);
  });

  it('observes a Codex apply_patch given as raw input text', () => {
    const d = observe(toolEvent('ApplyPatch', CODEX_PATCH, 'Success. Updated the following files:\nM src/app.ts', { host: 'codex' }))!;
    expect(d.type).toBe('edit');
    expect(d.title).toBe('Patched 4 files (+5 \u22122)');
    expect(d.filesModified).toEqual(['src/app.ts', 'src/util.ts', 'old.txt', 'src/a.ts', 'src/b.ts']);
    expect(d.narrative).toContain('added src/util.ts (+2 \u22120)');
    expect(d.narrative).toContain('updated src/a.ts \u2192 src/b.ts');
    expect(d.facts).toEqual(expect.arrayContaining(['files: 4', 'new files: 1', 'deleted files: 1']));
  });

  it('observes apply_patch in {input}, {command: [apply_patch, patch]} and absolute paths', () => {
    const one = `*** Begin Patch\n*** Update File: ${CWD}/src/app.ts\n@@\n-a\n+b\n*** End Patch`;
    expect(observe(toolEvent('ApplyPatch', { input: one }, 'ok'))!.title).toBe('Edited src/app.ts (+1 \u22121)');
    expect(observe(toolEvent('ApplyPatch', { command: ['apply_patch', one] }, 'ok'))!.filesModified).toEqual(['src/app.ts']);
  });

  it('a raw apply_patch name and a failed patch', () => {
    const d = observe(toolEvent('apply_patch', { input: CODEX_PATCH }, { output: 'error: context not found', metadata: { exit_code: 1 } }, { host: 'codex' }))!;
    expect(d.title).toBe('Failed to patch 4 files (+5 \u22122)');
    expect(d.filesModified).toEqual([]);
    expect(d.narrative).toContain('context not found');
  });

  it('lineDelta ignores the common head and tail', () => {
    expect(lineDelta('a\nb\nc', 'a\nx\nc')).toEqual({ added: 1, removed: 1 });
    expect(lineDelta('', 'a\nb')).toEqual({ added: 2, removed: 0 });
    expect(lineDelta('a', 'a')).toEqual({ added: 0, removed: 0 });
  });
});
