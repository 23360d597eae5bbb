import { describe, expect, it } from 'vitest';
import { getAdapter } from './loaded.js';
import { run } from './fixtures.js';

const env = { HOME: '/home/dev' };
const common = { host: 'opencode', sessionId: 'ses_01', cwd: '/home/dev/projects/demo' };

describe('raw dialect', () => {
  it('camelCase and snake_case fields give the same event', () => {
    const camel = run('raw', 'tool_result', { ...common, toolName: 'bash', toolInput: { command: 'ls' }, toolResponse: 'a', toolUseId: 't1', promptId: 'p1' }, env);
    const snake = run('raw', 'tool_result', { host: 'opencode', session_id: 'ses_01', cwd: '/home/dev/projects/demo',
      tool_name: 'bash', tool_input: { command: 'ls' }, tool_response: 'a', tool_use_id: 't1', prompt_id: 'p1' }, env);
    expect(camel.events).toEqual(snake.events);
    expect(camel.events[0]).toMatchObject({ host: 'opencode', kind: 'tool_result', toolName: 'Bash', toolUseId: 't1', promptId: 'p1' });
  });

  it('accepts kind names and Claude-style names; the payload event wins on mismatch', () => {
    expect(run('raw', 'UserPromptSubmit', { ...common, prompt: 'hi' }, env).events[0]).toMatchObject({ kind: 'prompt', prompt: 'hi' });
    const same = run('raw', 'PostToolUse', { ...common, kind: 'tool_result', toolName: 'Read' }, env);
    expect(same.notes.join(' ')).not.toMatch(/mismatch/);
    const r = run('raw', 'prompt', { ...common, event: 'session_end', reason: 'exit' }, env);
    expect(r.resolvedEvent).toBe('session_end');
    expect(r.events[0]).toMatchObject({ kind: 'session_end', reason: 'exit' });
    expect(r.notes.join(' ')).toMatch(/mismatch/);
  });

  it('needs a known host; aliases resolve', () => {
    expect(run('raw', 'prompt', { sessionId: 's', cwd: '/x', prompt: 'hi' }, env).events).toEqual([]);
    expect(run('raw', 'prompt', { host: 'pi-mono', sessionId: 's', cwd: '/x', prompt: 'hi' }, env).events[0].host).toBe('pi');
  });

  it('serves hosts without a dialect of their own, host defaulting to that host', () => {
    const r = getAdapter('openclaw').normalize({ host: 'openclaw', event: 'prompt', payload: { sessionId: 'agent:main', cwd: '/w', prompt: 'go' },
      rawStdin: '', env, now: '2026-01-01T00:00:00.000Z' });
    expect(r.events[0]).toMatchObject({ host: 'openclaw', kind: 'prompt', sessionId: 'agent:main' });
  });

  it('file_edit, observation, tool_failure, subagent fields; transcripts are not accepted', () => {
    expect(run('raw', 'file_edit', { ...common, filePath: '/a', edits: [{ oldText: 'x', newText: 'y' }] }, env).events[0])
      .toMatchObject({ kind: 'file_edit', edits: [{ oldText: 'x', newText: 'y' }] });
    expect(run('raw', 'observation', { ...common, title: 'T', message: 'M' }, env).events[0]).toMatchObject({ kind: 'observation', title: 'T', message: 'M' });
    expect(run('raw', 'tool_failure', { ...common, toolName: 'Edit', error: 'nope' }, env).events[0]).toMatchObject({ toolFailed: true, toolResponse: 'nope' });
    const sub = run('raw', 'prompt', { ...common, prompt: 'p', agentId: 'a1', parentSessionId: 'root' }, env);
    expect(sub.events[0]).toMatchObject({ agentId: 'a1', isSubagent: true, parentSessionId: 'root' });
    const t = run('raw', 'prompt', { ...common, prompt: 'p', transcriptPath: '/home/dev/.claude/x.jsonl' }, env);
    expect(t.events[0].transcriptPath).toBeUndefined();
  });

  it('answers additionalContext for session_start and prompt only', () => {
    const a = getAdapter('raw');
    expect(JSON.parse(a.formatOutput('session_start', 'ctx'))).toEqual({ additionalContext: 'ctx' });
    expect(JSON.parse(a.formatOutput('UserPromptSubmit', 'ctx'))).toEqual({ additionalContext: 'ctx' });
    expect(a.formatOutput('tool_result', 'ctx')).toBe('');
  });
});
