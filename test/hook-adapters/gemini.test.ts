import { describe, expect, it } from 'vitest';
import { fixture, hookFixtures, NOW, run, runFixture } from './fixtures.js';

const DIR = 'gemini-cli/hooks';
const SESSION = 'cb86408f-c3e4-47f5-b0bd-b6c762ed585e';
const CWD = '/home/dev/projects/demo';
const TRANSCRIPT = '/home/dev/.gemini/tmp/demo/chats/session-2026-11-30T10-55-cb86408f.jsonl';
const base = { host: 'gemini', source: 'hook', sessionId: SESSION, cwd: CWD, at: NOW, transcriptPath: TRANSCRIPT };

describe('gemini adapter on the captured payloads', () => {
  it('SessionStart and BeforeAgent capture and ask for context', () => {
    const start = runFixture('gemini', fixture(DIR, 'SessionStart'));
    expect(start.events).toEqual([{ ...base, kind: 'session_start', reason: 'startup' }]);
    expect(start.wantsContext).toBe(true);
    const prompt = runFixture('gemini', fixture(DIR, 'BeforeAgent'));
    expect(prompt.events).toEqual([{ ...base, kind: 'prompt', prompt: 'say hello using the shell' }]);
    expect(prompt.wantsContext).toBe(true);
  });

  it('BeforeAgent leaves out the hook context Gemini puts in front of the user turn', () => {
    const payload = { ...fixture(DIR, 'BeforeAgent').payload as Record<string, unknown>,
      prompt: '<hook_context># claude-mem: memory of /home/dev/projects/demo\n- earlier work\n</hook_context>\n\nrun it once more' };
    expect(run('gemini', 'BeforeAgent', payload).events).toEqual([{ ...base, kind: 'prompt', prompt: 'run it once more' }]);
  });

  it('AfterTool → tool_result (run_shell_command → Bash) with llmContent/returnDisplay', () => {
    expect(runFixture('gemini', fixture(DIR, 'AfterTool')).events).toEqual([{
      ...base, kind: 'tool_result', toolName: 'Bash', rawToolName: 'run_shell_command', toolInput: { command: 'echo hello-from-mock' },
      toolResponse: {
        llmContent: '<untrusted_context>\nOutput: hello-from-mock\nProcess Group PGID: 31254\n</untrusted_context>',
        returnDisplay: 'hello-from-mock',
      },
    }]);
  });

  it('AfterAgent → assistant_message; SessionEnd → session_end', () => {
    expect(runFixture('gemini', fixture(DIR, 'AfterAgent')).events).toEqual([{ ...base, kind: 'assistant_message', message: 'All done.' }]);
    expect(runFixture('gemini', fixture(DIR, 'SessionEnd')).events).toEqual([{ ...base, kind: 'session_end', reason: 'exit' }]);
  });

  it('PreCompress (fires before every model call) and the model/tool-selection events store nothing', () => {
    const kinds = hookFixtures(DIR).flatMap((f) => runFixture('gemini', f).events.map((e) => e.kind));
    expect(kinds).toEqual(['session_start', 'prompt', 'tool_result', 'assistant_message', 'session_end']);
  });

  it('AfterAgent re-entry (stop_hook_active) is not captured again', () => {
    const f = fixture(DIR, 'AfterAgent');
    expect(run('gemini', 'AfterAgent', { ...f.payload, stop_hook_active: true }, f.env).events).toEqual([]);
  });

  it('a tool_response with an error marks the call failed', () => {
    const f = fixture(DIR, 'AfterTool');
    const r = run('gemini', 'AfterTool', { ...f.payload, tool_response: { llmContent: 'x', error: { message: 'denied' } } }, f.env);
    expect(r.events[0].toolFailed).toBe(true);
  });
});
