import { describe, expect, it } from 'vitest';
import { observe } from '../../src/observer/index.js';
import { joinArgv } from '../../src/observer/shell.js';
import { toolEvent } from './events.js';

describe('observe: shell commands', () => {
  it('a failing test run: exit code in the title, facts, concepts', () => {
    const d = observe(toolEvent('Bash', { command: 'npm test', description: 'Run the tests' },
      { stdout: 'FAIL src/a.test.ts\n1 failed', stderr: 'npm ERR! Test failed.', interrupted: false, exit_code: 1, duration_ms: 2500 }))!;
    expect(d.type).toBe('command');
    expect(d.title).toBe('Ran `npm test` (exit 1)');
    expect(d.subtitle).toBe('Run the tests');
    expect(d.narrative).toContain('Exit code: 1');
    expect(d.narrative).toContain('Output:\nFAIL src/a.test.ts');
    expect(d.narrative).toContain('Stderr:\nnpm ERR! Test failed.');
    expect(d.facts).toEqual(expect.arrayContaining(['exit code: 1', 'duration: 2.5 s', 'failed']));
    expect(d.concepts).toEqual(expect.arrayContaining(['test', 'error']));
  });

  it('toolFailed without an exit code says failed', () => {
    const d = observe(toolEvent('Bash', { command: 'ls /nope' }, 'ls: cannot access', { toolFailed: true }))!;
    expect(d.title).toBe('Ran `ls /nope` (failed)');
    expect(d.narrative).toContain('Failed.');
    expect(d.concepts).toContain('error');
  });

  it('interrupted commands are marked', () => {
    const d = observe(toolEvent('Bash', { command: 'sleep 100' }, { stdout: '', stderr: '', interrupted: true }))!;
    expect(d.title).toBe('Ran `sleep 100` (interrupted)');
    expect(d.facts).toContain('interrupted');
  });

  it('Codex argv commands unwrap the shell', () => {
    const d = observe(toolEvent('Bash', { command: ['bash', '-lc', 'git status --short'], workdir: '/home/dev/projects/demo/pkg' }, 'M a.ts\n'))!;
    expect(d.title).toBe('Ran `git status --short`');
    expect(d.concepts).toContain('git');
    expect(d.facts).toContain('workdir: pkg');
    expect(joinArgv(['rg', '-n', 'two words', 'src'])).toBe("rg -n 'two words' src");
  });

  it('Codex `cmd` input and JSON-encoded output with metadata', () => {
    const resp = JSON.stringify({ output: 'error TS2322: bad type\n', metadata: { exit_code: 2, duration_seconds: 1.25 } });
    const d = observe(toolEvent('Bash', { cmd: 'npx tsc --noEmit' }, resp))!;
    expect(d.title).toBe('Ran `npx tsc --noEmit` (exit 2)');
    expect(d.narrative).toContain('error TS2322');
    expect(d.facts).toEqual(expect.arrayContaining(['exit code: 2', 'duration: 1.3 s']));
    expect(d.concepts).toEqual(expect.arrayContaining(['typecheck', 'build', 'error']));
  });

  it('Codex unified exec text with a non-zero exit', () => {
    const text = 'Chunk ID: 1\nWall time: 0.5000 seconds\nProcess exited with code 127\nOriginal token count: 3\nOutput:\nfoo: not found\n';
    const d = observe(toolEvent('Bash', { cmd: 'foo' }, text))!;
    expect(d.title).toBe('Ran `foo` (exit 127)');
    expect(d.narrative).toContain('Output:\nfoo: not found');
    expect(d.facts).toContain('duration: 500 ms');
  });

  it('Gemini llmContent with an exit code and error', () => {
    const d = observe(toolEvent('Bash', { command: 'make' }, {
      llmContent: 'Command: make\nDirectory: (root)\nOutput: make: *** No targets.  Stop.\nError: (none)\nExit Code: 2\nSignal: (none)\nProcess Group PGID: 1',
      returnDisplay: 'make: *** No targets.  Stop.',
    }))!;
    expect(d.title).toBe('Ran `make` (exit 2)');
    expect(d.narrative).toContain('No targets');
  });

  it('Copilot failure result type', () => {
    const d = observe(toolEvent('Bash', { command: 'false' }, { resultType: 'failure', textResultForLlm: 'boom\n<shellId: 3 completed with exit code 1>' }))!;
    expect(d.title).toBe('Ran `false` (exit 1)');
    expect(d.narrative).toContain('Output:\nboom');
    expect(d.narrative).not.toContain('shellId');
  });

  it('Cursor shape: command plus plain output', () => {
    const d = observe(toolEvent('Bash', { command: 'npm install left-pad', cwd: '/home/dev/projects/demo' }, 'added 1 package'))!;
    expect(d.concepts).toContain('install');
    expect(d.narrative).toContain('added 1 package');
  });

  it('Cursor shape with exitCode / exit_code fields', () => {
    expect(observe(toolEvent('Bash', { command: 'x' }, { output: 'o', exitCode: 3 }))!.title).toBe('Ran `x` (exit 3)');
    expect(observe(toolEvent('Bash', { command: 'x' }, { output: 'o', exit_code: 0 }))!.title).toBe('Ran `x`');
  });

  it('an empty command (its text was private) still gives a sane title', () => {
    expect(observe(toolEvent('Bash', { command: '', description: 'secret' }, { stdout: '' }))!.title).toBe('Ran a shell command');
  });

  it('long output: head and tail kept, bounded', () => {
    const lines = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
    const d = observe(toolEvent('Bash', { command: 'seq 2000' }, { stdout: lines, stderr: '' }))!;
    expect(d.narrative).toContain('line 0');
    expect(d.narrative).toContain('line 1999');
    expect(d.narrative).toMatch(/chars omitted/);
    const out = d.narrative.slice(d.narrative.indexOf('Output:\n') + 8);
    expect(out.length).toBeLessThanOrEqual(600);
  });

  it('long commands are bounded in the title', () => {
    const cmd = `echo ${'x'.repeat(500)}`;
    const d = observe(toolEvent('Bash', { command: cmd }, { stdout: '' }))!;
    expect(d.title.length).toBeLessThanOrEqual(120);
    expect(d.title).toMatch(/^Ran `echo x+…`$/);
  });

  it('ANSI colours are stripped from output', () => {
    const d = observe(toolEvent('Bash', { command: 'ls' }, { stdout: '\x1b[31mred\x1b[0m file' }))!;
    expect(d.narrative).toContain('red file');
  });
});
