import { describe, expect, it } from 'vitest';
import { getAdapter } from './loaded.js';
import { fixture, hookFixtures, NOW, run, runFixture } from './fixtures.js';

const CAMEL = 'copilot-cli/hooks-camel';
const PASCAL = 'copilot-cli/hooks-pascal';
const SESSION = '988f3697-e22e-45f2-954a-2f8ffde54791';
const CWD = '/home/dev/projects/demo';
const base = { host: 'copilot', source: 'hook', sessionId: SESSION, cwd: CWD, at: NOW };
const INPUT = { command: 'echo hello-from-mock', description: 'Print a greeting' };
const OUTPUT = 'hello-from-mock\n<shellId: 0 completed with exit code 0>';

describe('copilot adapter, camelCase dialect (captured payloads)', () => {
  it('sessionStart and userPromptSubmitted capture and ask for context', () => {
    const start = runFixture('copilot', fixture(CAMEL, 'sessionStart'));
    expect(start.events).toEqual([{ ...base, kind: 'session_start', reason: 'new' }]);
    expect(start.wantsContext).toBe(true);
    const prompt = runFixture('copilot', fixture(CAMEL, 'userPromptSubmitted'));
    expect(prompt.events).toEqual([{ ...base, kind: 'prompt', prompt: 'say hello using bash' }]);
    expect(prompt.wantsContext).toBe(true);
  });

  it('postToolUse → tool_result (bash → Bash) with toolArgs and toolResult', () => {
    const r = runFixture('copilot', fixture(CAMEL, 'postToolUse'));
    expect(r.events).toEqual([{
      ...base, kind: 'tool_result', toolName: 'Bash', rawToolName: 'bash', toolInput: INPUT,
      toolResponse: { resultType: 'success', textResultForLlm: OUTPUT },
    }]);
  });

  it('toolArgs sent as a JSON string is parsed; a failed resultType marks the call failed', () => {
    const f = fixture(CAMEL, 'postToolUse');
    const r = run('copilot', 'postToolUse', {
      ...f.payload, toolArgs: JSON.stringify(INPUT), toolResult: { resultType: 'failure', textResultForLlm: 'boom' },
    }, f.env);
    expect(r.events[0]).toMatchObject({ toolInput: INPUT, toolFailed: true });
  });

  it('agentStop carries no message (nothing stored); sessionEnd → session_end', () => {
    expect(runFixture('copilot', fixture(CAMEL, 'agentStop')).events).toEqual([]);
    expect(runFixture('copilot', fixture(CAMEL, 'sessionEnd')).events).toEqual([{ ...base, kind: 'session_end', reason: 'complete' }]);
  });

  it('preToolUse and permissionRequest store nothing', () => {
    expect(runFixture('copilot', fixture(CAMEL, 'preToolUse')).events).toEqual([]);
    expect(runFixture('copilot', fixture(CAMEL, 'permissionRequest')).events).toEqual([]);
  });
});

describe('copilot adapter, PascalCase dialect (captured payloads)', () => {
  it('SessionStart / UserPromptSubmit / SessionEnd', () => {
    expect(runFixture('copilot', fixture(PASCAL, 'SessionStart')).events).toEqual([{ ...base, kind: 'session_start', reason: 'new' }]);
    const prompt = runFixture('copilot', fixture(PASCAL, 'UserPromptSubmit'));
    expect(prompt.events).toEqual([{ ...base, kind: 'prompt', prompt: 'say hello using bash' }]);
    expect(prompt.wantsContext).toBe(true);
    expect(runFixture('copilot', fixture(PASCAL, 'SessionEnd')).events).toEqual([{ ...base, kind: 'session_end', reason: 'complete' }]);
  });

  it('PostToolUse → tool_result from tool_input and tool_result', () => {
    expect(runFixture('copilot', fixture(PASCAL, 'PostToolUse')).events).toEqual([{
      ...base, kind: 'tool_result', toolName: 'Bash', rawToolName: 'Bash', toolInput: INPUT,
      toolResponse: { result_type: 'success', text_result_for_llm: OUTPUT },
    }]);
  });

  it('PermissionRequest arrives with the camelCase payload (hookName) — same event, no mismatch note', () => {
    const r = runFixture('copilot', fixture(PASCAL, 'PermissionRequest'));
    expect(r.events).toEqual([]);
    expect(r.notes.join(' ')).not.toMatch(/mismatch/);
  });

  it('Stop has a transcript inside ~/.copilot but no message: nothing stored', () => {
    expect(runFixture('copilot', fixture(PASCAL, 'Stop')).events).toEqual([]);
  });

  it('both dialects capture the same exchange', () => {
    const kinds = (dir: string) => hookFixtures(dir).flatMap((f) => runFixture('copilot', f).events.map((e) => e.kind));
    expect(kinds(CAMEL)).toEqual(['session_start', 'prompt', 'tool_result', 'session_end']);
    expect(kinds(PASCAL)).toEqual(kinds(CAMEL));
  });

  it('answers with a top-level additionalContext only, in both dialects', () => {
    const a = getAdapter('copilot');
    for (const event of ['sessionStart', 'SessionStart', 'userPromptSubmitted', 'UserPromptSubmit']) {
      expect(JSON.parse(a.formatOutput(event, 'ctx')), event).toEqual({ additionalContext: 'ctx' });
    }
    expect(a.formatOutput('postToolUse', 'ctx')).toBe('');
    expect(a.formatOutput('agentStop', '')).toBe('');
  });
});
