// Kimi payloads built from the kimi-cli hook payload builders and Kimi Code's hook docs (HOSTS.md §5).
import { describe, expect, it } from 'vitest';
import { getAdapter } from '../../src/hook/adapters/index.js';
import { run } from './fixtures.js';

const env = { HOME: '/home/dev' };
const cli = { session_id: 'a1b2c3', cwd: '/home/dev/projects/demo' };
const code = { ...cli, session_title: 'Fix login', client_type: 'kimi_code_cli' };
const at = (event: string, p: Record<string, unknown>) => run('kimi', event, { hook_event_name: event, ...p }, env);

describe('kimi adapter (kimi-cli and Kimi Code)', () => {
  it('SessionStart wants context in kimi-cli, not in Kimi Code (which ignores its output)', () => {
    const old = at('SessionStart', { ...cli, source: 'startup' });
    expect(old.events).toEqual([expect.objectContaining({ host: 'kimi', kind: 'session_start', reason: 'startup', sessionId: 'a1b2c3' })]);
    expect(old.wantsContext).toBe(true);
    expect(at('SessionStart', { ...code, source: 'resume', model: 'kimi-k3' }).wantsContext).toBe(false);
  });

  it('UserPromptSubmit → prompt, wants context in both generations', () => {
    for (const p of [cli, code]) {
      const r = at('UserPromptSubmit', { ...p, prompt: 'write tests' });
      expect(r.events).toEqual([expect.objectContaining({ kind: 'prompt', prompt: 'write tests' })]);
      expect(r.wantsContext).toBe(true);
    }
  });

  it('PostToolUse → tool_result from tool_output and tool_call_id; kimi-cli and Kimi Code names normalize', () => {
    const a = at('PostToolUse', { ...cli, tool_name: 'Shell', tool_input: { command: 'ls' }, tool_output: 'a', tool_call_id: 'call_1' });
    expect(a.events[0]).toMatchObject({ kind: 'tool_result', toolName: 'Bash', rawToolName: 'Shell', toolUseId: 'call_1', toolResponse: 'a' });
    const b = at('PostToolUse', { ...code, tool_name: 'StrReplaceFile', tool_input: { path: 'x' }, tool_output: 'ok', tool_call_id: 'c2' });
    expect(b.events[0].toolName).toBe('Edit');
    expect(at('PostToolUse', { ...code, tool_name: 'FetchURL', tool_input: {}, tool_call_id: 'c3' }).events[0].toolName).toBe('WebFetch');
  });

  it('PostToolUseFailure → failed tool_result with the error', () => {
    const r = at('PostToolUseFailure', { ...cli, tool_name: 'WriteFile', tool_input: {}, error: 'denied', tool_call_id: 'c4' });
    expect(r.events[0]).toMatchObject({ toolName: 'Write', toolFailed: true, toolResponse: 'denied' });
  });

  it('Stop has no message (nothing stored); SessionEnd / PreCompact captured', () => {
    expect(at('Stop', { ...cli, stop_hook_active: false }).events).toEqual([]);
    expect(at('SessionEnd', { ...code, reason: 'archive' }).events[0]).toMatchObject({ kind: 'session_end', reason: 'archive' });
    expect(at('PreCompact', { ...cli, trigger: 'auto', token_count: 9000 }).events[0]).toMatchObject({ kind: 'compact', reason: 'auto' });
  });

  it('prints context as plain text, only for the context events', () => {
    const a = getAdapter('kimi');
    expect(a.formatOutput('UserPromptSubmit', 'memory says hi')).toBe('memory says hi');
    expect(a.formatOutput('SessionStart', 'memory says hi')).toBe('memory says hi');
    expect(a.formatOutput('PostToolUse', 'memory says hi')).toBe('');
    expect(a.formatOutput('Stop', '')).toBe('');
  });
});
