// Antigravity payloads built from HOSTS.md §6 (camelCase, named hooks; secondary sources).
import { describe, expect, it } from 'vitest';
import { getAdapter } from './loaded.js';
import { run } from './fixtures.js';

const env = { HOME: '/home/dev' };
const common = {
  conversationId: '6f1e2d3c-aaaa-bbbb-cccc-000000000001', invocationNum: 3, workspacePaths: ['/home/dev/projects/demo'],
  transcriptPath: '/home/dev/.gemini/antigravity-cli/brain/6f1e2d3c-aaaa-bbbb-cccc-000000000001/.system_generated/logs/transcript_full.jsonl',
};

describe('antigravity adapter', () => {
  it('SessionStart → session_start with the transcript inside ~/.gemini; wants context', () => {
    const r = run('antigravity', 'SessionStart', common, env);
    expect(r.events).toEqual([expect.objectContaining({
      host: 'antigravity', kind: 'session_start', sessionId: common.conversationId, cwd: '/home/dev/projects/demo',
      transcriptPath: common.transcriptPath,
    })]);
    expect(r.wantsContext).toBe(true);
  });

  it('PreInvocation wants context and captures no invented prompt (invocationNum is not an id)', () => {
    const r = run('antigravity', 'PreInvocation', common, env);
    expect(r.wantsContext).toBe(true);
    expect(r.events).toEqual([]);
    const withPrompt = run('antigravity', 'PreInvocation', { ...common, prompt: 'hello' }, env);
    expect(withPrompt.events).toEqual([expect.objectContaining({ kind: 'prompt', prompt: 'hello' })]);
    expect(withPrompt.events[0].promptId).toBeUndefined();
  });

  it('PostToolUse → tool_result from toolCall{name,args}; agy tool names normalize', () => {
    const r = run('antigravity', 'PostToolUse', { ...common, toolCall: { name: 'run_command', args: { CommandLine: 'ls' } }, toolResult: 'a' }, env);
    expect(r.events[0]).toMatchObject({ kind: 'tool_result', toolName: 'Bash', rawToolName: 'run_command', toolInput: { CommandLine: 'ls' }, toolResponse: 'a' });
    const edit = run('antigravity', 'PostToolUse', { ...common, toolCall: { name: 'replace_file_content', args: {} } }, env);
    expect(edit.events[0].toolName).toBe('Edit');
  });

  it('Stop without text stores nothing; PreToolUse is not captured', () => {
    expect(run('antigravity', 'Stop', { ...common, terminationReason: 'done' }, env).events).toEqual([]);
    expect(run('antigravity', 'PreToolUse', { ...common, toolCall: { name: 'view_file', args: {} } }, env).events).toEqual([]);
  });

  it('answers context as injectSteps; nothing for other events (no decision)', () => {
    const a = getAdapter('antigravity');
    expect(JSON.parse(a.formatOutput('PreInvocation', 'ctx'))).toEqual({ injectSteps: [{ ephemeralMessage: 'ctx' }] });
    expect(a.formatOutput('PreInvocation', '')).toBe('');
    expect(a.formatOutput('PreToolUse', 'ctx')).toBe('');
  });
});
