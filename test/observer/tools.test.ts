import { describe, expect, it } from 'vitest';
import { observe } from '../../src/observer/index.js';
import { CWD, toolEvent } from './events.js';

describe('observe: search', () => {
  it('Claude Grep files_with_matches', () => {
    const d = observe(toolEvent('Grep', { pattern: 'TODO', path: `${CWD}/src`, glob: '*.ts' }, {
      mode: 'files_with_matches', filenames: [`${CWD}/src/a.ts`, `${CWD}/src/b.ts`], numFiles: 2,
    }))!;
    expect(d.type).toBe('search');
    expect(d.title).toBe('Searched for "TODO" in src (2 files)');
    expect(d.subtitle).toBe('filter: *.ts');
    expect(d.narrative).toContain('Files: src/a.ts, src/b.ts');
    expect(d.facts).toEqual(expect.arrayContaining(['files: 2', 'found: src/a.ts']));
  });

  it('Grep content mode and plain ripgrep output', () => {
    const d = observe(toolEvent('Grep', { pattern: 'foo', output_mode: 'content' }, {
      mode: 'content', content: 'src/a.ts:1:foo\nsrc/a.ts:9:foo()\nlib/b.ts:3:foo', numLines: 3,
    }))!;
    expect(d.title).toBe('Searched for "foo" (3 matches in 2 files)');
    const plain = observe(toolEvent('Grep', { pattern: 'x' }, 'a.py:1:x\nb.py:2:x\n'))!;
    expect(plain.title).toBe('Searched for "x" (2 matches in 2 files)');
  });

  it('Gemini search_file_content text', () => {
    const d = observe(toolEvent('Grep', { pattern: 'hello' }, { llmContent: 'Found 4 matches for pattern "hello" in path ".":\n---\nFile: a.txt\nL1: hello', returnDisplay: 'Found 4 matches' }))!;
    expect(d.title).toBe('Searched for "hello" (4 matches)');
  });

  it('Glob and LS', () => {
    const g = observe(toolEvent('Glob', { pattern: '**/*.md' }, { filenames: ['README.md', 'docs/x.md', 'docs/y.md'], numFiles: 3, truncated: false }))!;
    expect(g.title).toBe('Found 3 files matching **/*.md');
    const ls = observe(toolEvent('LS', { path: `${CWD}/src` }, '- src/\n  - a.ts\n  - b.ts\n'))!;
    expect(ls.title).toBe('Listed src (3 entries)');
  });

  it('lists of found files are bounded', () => {
    const files = Array.from({ length: 5000 }, (_, i) => `f${i}.ts`);
    const d = observe(toolEvent('Glob', { pattern: '*.ts' }, { filenames: files, numFiles: 5000 }))!;
    expect(d.title).toBe('Found 5000 files matching *.ts');
    expect(d.narrative).toContain('(+4980 more)');
    expect(d.facts.length).toBeLessThanOrEqual(10);
  });
});

describe('observe: web', () => {
  it('WebFetch', () => {
    const d = observe(toolEvent('WebFetch', { url: 'https://docs.example.com/guide/intro?x=1', prompt: 'What is the install command?' }, {
      bytes: 1000, code: 200, codeText: 'OK', result: 'Run npm i example.', durationMs: 300, url: 'https://docs.example.com/guide/intro?x=1',
    }))!;
    expect(d.type).toBe('web');
    expect(d.title).toBe('Fetched docs.example.com/guide/intro');
    expect(d.subtitle).toBe('What is the install command?');
    expect(d.narrative).toContain('Run npm i example.');
    expect(d.facts).toContain('status: HTTP 200 OK');
  });

  it('Gemini web_fetch: the URL comes from the prompt', () => {
    const d = observe(toolEvent('WebFetch', { prompt: 'Summarize https://example.org/post/1 please' }, { llmContent: 'A post.' }))!;
    expect(d.title).toBe('Fetched example.org/post/1');
  });

  it('a 404 fetch is a failure', () => {
    const d = observe(toolEvent('WebFetch', { url: 'https://x.dev/missing' }, { code: 404, codeText: 'Not Found', result: '' }))!;
    expect(d.title).toBe('Failed to fetch x.dev/missing (404)');
    expect(d.concepts).toContain('error');
  });

  it('WebSearch collects result URLs', () => {
    const d = observe(toolEvent('WebSearch', { query: 'vitest fake timers' }, {
      query: 'vitest fake timers',
      results: [{ tool_use_id: 'srv', content: [{ title: 'Timers', url: 'https://vitest.dev/guide/mocking' }, { title: 'API', url: 'https://vitest.dev/api/vi' }] }],
    }))!;
    expect(d.title).toBe('Searched the web for "vitest fake timers"');
    expect(d.narrative).toContain('https://vitest.dev/guide/mocking');
    expect(d.facts).toContain('result: https://vitest.dev/api/vi');
  });
});

describe('observe: MCP, Task, TodoWrite, generic, notes', () => {
  it('MCP tools: server, tool, bounded args', () => {
    const d = observe(toolEvent('mcp__github__create_issue', { owner: 'o', repo: 'r', title: 'Bug', body: 'x'.repeat(5000) }, {
      content: [{ type: 'text', text: 'Created issue #12' }],
    }))!;
    expect(d.type).toBe('mcp');
    expect(d.title.startsWith('Called github.create_issue (owner=o, repo=r, title=Bug')).toBe(true);
    expect(d.title.length).toBeLessThanOrEqual(120);
    expect(d.narrative).toContain('Created issue #12');
    expect(d.narrative.length).toBeLessThan(2000);
    expect(d.concepts).toEqual(['mcp', 'github']);
  });

  it('a failed MCP call', () => {
    const d = observe(toolEvent('mcp__db__query', { sql: 'select 1' }, { isError: true, content: [{ type: 'text', text: 'permission denied' }] }))!;
    expect(d.title).toBe('Failed db.query (sql=select 1)');
    expect(d.concepts).toContain('error');
  });

  it('Task spawns an agent', () => {
    const d = observe(toolEvent('Task', { description: 'Find the config loader', prompt: 'Search the repo for where settings are read', subagent_type: 'Explore' }, {
      content: [{ type: 'text', text: 'It is in src/settings.ts' }], totalDurationMs: 4200, totalTokens: 900,
    }))!;
    expect(d.type).toBe('agent');
    expect(d.title).toBe('Delegated to Explore: Find the config loader');
    expect(d.narrative).toContain('It is in src/settings.ts');
    expect(d.facts).toEqual(expect.arrayContaining(['agent: Explore', 'duration: 4.2 s', 'tokens: 900']));
  });

  it('TodoWrite lists the plan', () => {
    const d = observe(toolEvent('TodoWrite', { todos: [
      { content: 'Write tests', status: 'completed', activeForm: 'Writing tests' },
      { content: 'Fix bug', status: 'in_progress', activeForm: 'Fixing bug' },
      { content: 'Ship', status: 'pending', activeForm: 'Shipping' },
    ] }, { oldTodos: [], newTodos: [] }))!;
    expect(d.type).toBe('tool');
    expect(d.title).toBe('Updated the plan (3 items, 1 done)');
    expect(d.subtitle).toBe('now: Fix bug');
    expect(d.narrative).toBe('[x] Write tests\n[~] Fix bug\n[ ] Ship');
  });

  it('unknown tools fall back to a generic observation', () => {
    const d = observe(toolEvent('SomethingNew', { a: 1 }, 'result text', { rawToolName: 'something_new' }))!;
    expect(d.type).toBe('tool');
    expect(d.title).toBe('Used SomethingNew ({"a":1})');
    expect(d.narrative).toContain('result text');
    expect(d.subtitle).toBe('something_new');
  });

  it('observation events become notes', () => {
    const d = observe({ ...toolEvent('', undefined), kind: 'observation', toolName: undefined, toolUseId: undefined,
      title: 'Decided to use SQLite', message: 'FTS5 is enough for search.\nNo server needed.' })!;
    expect(d.type).toBe('note');
    expect(d.title).toBe('Decided to use SQLite');
    expect(d.narrative).toContain('FTS5');
    const untitled = observe({ ...toolEvent('', undefined), kind: 'observation', message: 'First line\nsecond' })!;
    expect(untitled.title).toBe('First line');
    expect(observe({ ...toolEvent('', undefined), kind: 'observation' })).toBeNull();
  });

  it('other kinds give null', () => {
    for (const kind of ['session_start', 'prompt', 'assistant_message', 'compact', 'session_end'] as const) {
      expect(observe({ ...toolEvent('Bash', { command: 'x' }, 'y'), kind })).toBeNull();
    }
  });
});
