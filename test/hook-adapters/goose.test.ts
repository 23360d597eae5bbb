// Goose plugin-hook payloads built from HOSTS.md §15 and Goose's hooks guide.
import { describe, expect, it } from 'vitest';
import { getAdapter } from '../../src/hook/adapters/index.js';
import { run } from './fixtures.js';

const env = { HOME: '/home/dev', PLUGIN_ROOT: '/home/dev/.agents/plugins/claude-mem' };
const at = (event: string, extra: Record<string, unknown>) =>
  run('goose', event, { event, session_id: '20261130_3', working_dir: '/home/dev/projects/demo', ...extra }, env);

describe('goose adapter', () => {
  it('SessionStart / UserPromptSubmit (prompt in matcher_context) / SessionEnd', () => {
    expect(at('SessionStart', {}).events).toEqual([expect.objectContaining({ host: 'goose', kind: 'session_start', sessionId: '20261130_3', cwd: '/home/dev/projects/demo' })]);
    expect(at('UserPromptSubmit', { matcher_context: 'fix the build' }).events[0]).toMatchObject({ kind: 'prompt', prompt: 'fix the build' });
    expect(at('SessionEnd', {}).events[0]).toMatchObject({ kind: 'session_end' });
  });

  it('PostToolUse: developer__shell → Bash; text_editor by command; other extensions → mcp__ext__tool', () => {
    const shell = at('PostToolUse', { matcher_context: 'developer__shell', tool_name: 'developer__shell', tool_input: { command: 'rg TODO' }, tool_output: 'x' });
    expect(shell.events[0]).toMatchObject({ kind: 'tool_result', toolName: 'Bash', rawToolName: 'developer__shell', toolResponse: 'x' });
    expect(at('PostToolUse', { tool_name: 'developer__text_editor', tool_input: { command: 'view', path: '/a' } }).events[0].toolName).toBe('Read');
    expect(at('PostToolUse', { tool_name: 'developer__text_editor', tool_input: { command: 'write', path: '/a' } }).events[0].toolName).toBe('Write');
    expect(at('PostToolUse', { tool_name: 'developer__text_editor', tool_input: { command: 'str_replace', path: '/a' } }).events[0].toolName).toBe('Edit');
    expect(at('PostToolUse', { tool_name: 'github__search_issues', tool_input: {} }).events[0].toolName).toBe('mcp__github__search_issues');
    expect(at('PostToolUse', { tool_name: 'claude-mem__mem_search', tool_input: {} }).events).toEqual([]); // our own recall tool
  });

  it('AfterShellExecution and AfterFileEdit', () => {
    expect(at('AfterShellExecution', { matcher_context: 'cargo test' }).events[0]).toMatchObject({ toolName: 'Bash', toolInput: { command: 'cargo test' } });
    expect(at('AfterFileEdit', { matcher_context: '/home/dev/projects/demo/src/main.rs' }).events[0])
      .toMatchObject({ kind: 'file_edit', filePath: '/home/dev/projects/demo/src/main.rs' });
  });

  it('is observe-only: never asks for context, prints nothing', () => {
    expect(at('SessionStart', {}).wantsContext).toBe(false);
    expect(getAdapter('goose').formatOutput('SessionStart', 'ctx')).toBe('');
  });
});
