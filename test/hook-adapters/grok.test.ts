// Grok Build payloads built from HOSTS.md §13 (camelCase stdin, GROK_* env).
import { describe, expect, it } from 'vitest';
import { getAdapter } from '../../src/hook/adapters/index.js';
import { run } from './fixtures.js';

const env = (event: string) => ({ HOME: '/home/dev', GROK_HOOK_EVENT: event, GROK_HOOK_NAME: 'claude-mem', GROK_SESSION_ID: 'grok-s1',
  GROK_WORKSPACE_ROOT: '/home/dev/projects/demo', CLAUDE_PROJECT_DIR: '/home/dev/projects/demo' });
const common = { sessionId: 'grok-s1', cwd: '/home/dev/projects/demo', workspaceRoot: '/home/dev/projects/demo',
  timestamp: '2026-11-30T10:00:00Z', permissionMode: 'default', promptId: 'p-77' };

describe('grok adapter', () => {
  it('PostToolUse (hookEventName post_tool_use) → tool_result; snake and Pascal spellings are one event', () => {
    const r = run('grok', 'PostToolUse', { ...common, hookEventName: 'post_tool_use', toolName: 'run_terminal_command',
      toolInput: { command: 'ls' }, toolUseId: 'tu-1', toolResult: { output: 'a' } }, env('post_tool_use'));
    expect(r.events).toEqual([expect.objectContaining({
      host: 'grok', kind: 'tool_result', toolName: 'Bash', rawToolName: 'run_terminal_command', toolUseId: 'tu-1',
      promptId: 'p-77', toolInput: { command: 'ls' }, toolResponse: { output: 'a' },
    })]);
    expect(r.notes.join(' ')).not.toMatch(/mismatch/);
    expect(r.resolvedEvent).toBe('PostToolUse');
  });

  it('SessionStart wants context; UserPromptSubmit (observe-only in Grok) does not', () => {
    expect(run('grok', 'SessionStart', { ...common, hookEventName: 'session_start' }, env('session_start')).wantsContext).toBe(true);
    const p = run('grok', 'UserPromptSubmit', { ...common, hookEventName: 'user_prompt_submit', prompt: 'hi' }, env('user_prompt_submit'));
    expect(p.wantsContext).toBe(false);
    expect(p.events).toEqual([expect.objectContaining({ kind: 'prompt', prompt: 'hi', promptId: 'p-77' })]);
  });

  it('Stop → assistant_message, not on re-entry', () => {
    expect(run('grok', 'Stop', { ...common, hookEventName: 'stop', lastAssistantMessage: 'done', stopHookActive: false }, env('stop')).events)
      .toEqual([expect.objectContaining({ kind: 'assistant_message', message: 'done' })]);
    expect(run('grok', 'Stop', { ...common, hookEventName: 'stop', lastAssistantMessage: 'done', stopHookActive: true }, env('stop')).events).toEqual([]);
  });

  it('GROK_HOOK_EVENT names the event when the payload does not', () => {
    const r = run('grok', 'SessionEnd', { ...common, reason: 'exit' }, env('session_end'));
    expect(r.events[0]).toMatchObject({ kind: 'session_end', reason: 'exit' });
    const mismatch = run('grok', 'SessionStart', { ...common, reason: 'exit' }, env('session_end'));
    expect(mismatch.resolvedEvent).toBe('SessionEnd');
    expect(mismatch.notes.join(' ')).toMatch(/mismatch/);
  });

  it('Claude-style output for SessionStart only', () => {
    const a = getAdapter('grok');
    expect(JSON.parse(a.formatOutput('SessionStart', 'ctx'))).toEqual({ hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'ctx' } });
    expect(a.formatOutput('UserPromptSubmit', 'ctx')).toBe('');
    expect(a.formatOutput('Stop', 'ctx')).toBe('');
  });
});
