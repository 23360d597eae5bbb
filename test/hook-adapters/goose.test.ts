// Goose plugin-hook payloads in the shape of goose's HookContext (block/goose
// crates/goose/src/hooks/mod.rs): event, session_id, matcher_context, tool_call_id, tool_name,
// tool_input, tool_output, message, last_assistant_message, working_dir.
import { describe, expect, it } from 'vitest';
import { getAdapter } from './loaded.js';
import { eventKey } from '../../src/shared/event-key.js';
import { input, run } from './fixtures.js';

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

  it("tool_call_id is the tool-use id: a redelivered call is one event, two equal calls stay two", () => {
    const call = { event: 'PostToolUse', session_id: '20261130_3', working_dir: '/home/dev/projects/demo', matcher_context: 'developer__shell',
      tool_call_id: 'toolu_01ABC', tool_name: 'developer__shell', tool_input: { command: 'cargo test' }, tool_output: { content: 'ok' } };
    const at = (payload: Record<string, unknown>, now: string) =>
      getAdapter('goose').normalize({ ...input('goose', 'PostToolUse', payload, env), now }).events[0];
    const first = at(call, '2026-11-30T11:00:00.000Z');
    const again = at(call, '2026-11-30T11:00:04.000Z');
    expect(first).toMatchObject({ kind: 'tool_result', toolUseId: 'toolu_01ABC', toolName: 'Bash', toolResponse: { content: 'ok' } });
    expect(eventKey(again)).toBe(eventKey(first));
    const other = at({ ...call, tool_call_id: 'toolu_02DEF' }, '2026-11-30T11:00:04.000Z');
    expect(eventKey(other)).not.toBe(eventKey(first));
    expect(at({ ...call, event: 'PostToolUseFailure' }, '2026-11-30T11:00:05.000Z')).toMatchObject({ toolUseId: 'toolu_01ABC', toolFailed: true });
  });

  it('the prompt comes from message; Stop carries last_assistant_message', () => {
    expect(at('UserPromptSubmit', { message: 'fix the build', matcher_context: 'fix the build' }).events[0]).toMatchObject({ kind: 'prompt', prompt: 'fix the build' });
    expect(at('Stop', { last_assistant_message: 'Done: the build passes.' }).events[0]).toMatchObject({ kind: 'assistant_message', message: 'Done: the build passes.' });
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
