// Grok Build 1.0.41 payloads as captured (test/fixtures/hosts/grok-build): camelCase keys with
// snake_case twins, GROK_* environment, the shell result as a byte array.
import { describe, expect, it } from 'vitest';
import { getAdapter } from './loaded.js';
import { fixture, hookFixtures, run, runFixture } from './fixtures.js';

const DIR = 'grok-build/hooks';
const SESSION = '01a232f0-7f40-70a0-86fa-278d4e1f0343';
const TRANSCRIPT = `/home/dev/.grok/sessions/%2Fhome%2Fdev%2Fprojects%2Fdemo/${SESSION}/updates.jsonl`;

/** The payload with only one spelling of each field: the camelCase one, or the snake_case twin. */
function only(p: Record<string, unknown>, spelling: 'camel' | 'snake'): Record<string, unknown> {
  const twins: [string, string][] = [['hookEventName', 'hook_event_name'], ['sessionId', 'session_id'], ['toolName', 'tool_name'],
    ['toolInput', 'tool_input'], ['toolResult', 'tool_response'], ['toolUseId', 'tool_use_id'], ['transcriptPath', 'transcript_path'],
    ['permissionMode', 'permission_mode'], ['durationMs', 'duration_ms']];
  const out = { ...p };
  for (const [camel, snake] of twins) delete out[spelling === 'camel' ? snake : camel];
  return out;
}

describe('grok adapter: Grok Build 1.0.41 as captured', () => {
  it('the run stores session_start, prompt, tool_result, assistant_message, session_end; the shutdown Stop nothing', () => {
    const kinds = hookFixtures(DIR).filter((f) => f.event !== 'PreToolUse').map((f) => runFixture('grok', f).events.map((e) => e.kind));
    expect(kinds).toEqual([['session_start'], ['prompt'], ['tool_result'], ['assistant_message'], ['session_end'], []]);
  });

  it('PostToolUse: the shell output decoded from output_for_prompt, the exit code kept, the byte array gone', () => {
    const r = runFixture('grok', fixture(DIR, 'PostToolUse'));
    expect(r.events).toHaveLength(1);
    const e = r.events[0];
    expect(e).toMatchObject({ kind: 'tool_result', toolName: 'Bash', rawToolName: 'run_terminal_command', toolUseId: 'call_sag408g9iv',
      toolInput: { command: 'echo hello-from-mock', description: 'Print a greeting' }, transcriptPath: TRANSCRIPT, sessionId: SESSION });
    expect(e.toolResponse).toMatchObject({ type: 'Bash', output: 'hello-from-mock\n', exit_code: 0, command: 'echo hello-from-mock' });
    expect(JSON.stringify(e.toolResponse)).not.toContain('104,101');
    expect(e.toolResponse).not.toHaveProperty('output_for_prompt');
  });

  it('without output_for_prompt the byte array is decoded', () => {
    const p = { ...fixture(DIR, 'PostToolUse').payload } as Record<string, any>;
    const result = { ...p.toolResult, output_for_prompt: undefined, exit_code: 3 };
    delete result.output_for_prompt;
    const r = run('grok', 'PostToolUse', { ...p, toolResult: result, tool_response: result });
    expect(r.events[0].toolResponse).toMatchObject({ output: 'hello-from-mock\n', exit_code: 3 });
  });

  it('each field is read once: camelCase alone and snake_case alone give the same event', () => {
    const f = fixture(DIR, 'PostToolUse');
    const camel = run('grok', 'PostToolUse', only(f.payload, 'camel'), f.env).events;
    const snake = run('grok', 'PostToolUse', only(f.payload, 'snake'), f.env).events;
    expect(camel).toEqual(runFixture('grok', f).events);
    expect(snake).toEqual(camel);
  });

  it('the prompt keeps Grok promptId; SessionStart and UserPromptSubmit ask no context (Grok drops their output)', () => {
    const s = runFixture('grok', fixture(DIR, 'SessionStart'));
    const p = runFixture('grok', fixture(DIR, 'UserPromptSubmit'));
    expect(p.events[0]).toMatchObject({ kind: 'prompt', prompt: 'say hello using bash', promptId: '9ddb3522-12a7-4f82-a49c-5d7c878dc700' });
    expect(s.wantsContext).toBe(false);
    expect(p.wantsContext).toBe(false);
    expect(p.events[0].transcriptPath).toBeUndefined(); // Grok sends it from PreToolUse on
  });

  it('PostToolUse asks for context once per session, and answers in additionalContext', () => {
    const r = runFixture('grok', fixture(DIR, 'PostToolUse'));
    expect(r.wantsContext).toBe(true);
    expect(r.contextOnce).toBe(true);
    const a = getAdapter('grok');
    expect(JSON.parse(a.formatOutput('PostToolUse', 'ctx'))).toEqual({ hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'ctx' } });
    expect(a.formatOutput('PostToolUse', '')).toBe('');
    expect(a.formatOutput('SessionStart', 'ctx')).toBe('');
  });

  it('our MCP tool, as Grok names a call routed through use_tool, is not stored but still gets the context', () => {
    const f = fixture(DIR, 'PostToolUse');
    const r = run('grok', 'PostToolUse', { ...f.payload, toolName: 'claude-mem__mem_search', tool_name: 'claude-mem__mem_search',
      toolInput: { query: 'x' }, tool_input: { query: 'x' } }, f.env);
    expect(r.events).toEqual([]);
    expect(r.wantsContext).toBe(true);
    expect(r.session?.sessionId).toBe(SESSION);
  });

  it('Stop re-entry stores nothing; GROK_HOOK_EVENT names the event when the payload does not', () => {
    const stop = fixture(DIR, 'Stop');
    expect(run('grok', 'Stop', { ...stop.payload, stopHookActive: true }, stop.env).events).toEqual([]);
    const end = fixture(DIR, 'SessionEnd');
    const bare = only(end.payload, 'camel');
    delete bare.hookEventName;
    expect(run('grok', 'SessionEnd', bare, end.env).events[0]).toMatchObject({ kind: 'session_end', reason: 'shutdown' });
  });
});
