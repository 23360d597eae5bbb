import { describe, expect, it } from 'vitest';
import { fixture, hookFixtures, NOW, run, runFixture } from './fixtures.js';

const DIR = 'codex/hooks';
const SESSION = '01a22c17-4ed4-7561-9d59-b934c4f76f3a';
const TURN = '01a22c17-4f6a-7341-be49-284462e907a7';
const CWD = '/home/dev/projects/demo';
const TRANSCRIPT = `/home/dev/.codex/sessions/2026/11/30/rollout-2026-11-30T10-54-14-${SESSION}.jsonl`;
const base = { host: 'codex', source: 'hook', sessionId: SESSION, cwd: CWD, at: NOW, transcriptPath: TRANSCRIPT };

describe('codex adapter on the captured payloads', () => {
  it('SessionStart → session_start (model kept), wants context', () => {
    const r = runFixture('codex', fixture(DIR, 'SessionStart'));
    expect(r.events).toEqual([{ ...base, model: 'mock-model', kind: 'session_start', reason: 'startup' }]);
    expect(r.wantsContext).toBe(true);
  });

  it('UserPromptSubmit → prompt whose promptId is the turn_id', () => {
    const r = runFixture('codex', fixture(DIR, 'UserPromptSubmit'));
    expect(r.events).toEqual([{ ...base, model: 'mock-model', kind: 'prompt', prompt: 'say hello using the shell', promptId: TURN }]);
    expect(r.wantsContext).toBe(true);
  });

  it('PostToolUse → tool_result with the plain-string response, call id and turn id', () => {
    const r = runFixture('codex', fixture(DIR, 'PostToolUse'));
    expect(r.events).toEqual([{
      ...base, model: 'mock-model', kind: 'tool_result', toolName: 'Bash', rawToolName: 'Bash', toolUseId: 'call_qjosbisoer',
      promptId: TURN, toolInput: { command: 'echo hello-from-mock' }, toolResponse: 'hello-from-mock\n',
    }]);
  });

  it('Stop → assistant_message of the turn; SessionEnd → session_end', () => {
    expect(runFixture('codex', fixture(DIR, 'Stop')).events)
      .toEqual([{ ...base, model: 'mock-model', kind: 'assistant_message', message: 'All done.', promptId: TURN }]);
    expect(runFixture('codex', fixture(DIR, 'SessionEnd')).events).toEqual([{ ...base, kind: 'session_end', reason: 'other' }]);
  });

  it('PreToolUse stores nothing; no event is dropped as foreign', () => {
    for (const f of hookFixtures(DIR)) expect(runFixture('codex', f).dropReason, f.file).toBeUndefined();
    expect(runFixture('codex', fixture(DIR, 'PreToolUse')).events).toEqual([]);
  });

  it('Stop re-entry (stop_hook_active) is never captured twice', () => {
    const f = fixture(DIR, 'Stop');
    const r = run('codex', 'Stop', { ...f.payload, stop_hook_active: true }, f.env);
    expect(r.events).toEqual([]);
  });

  it('a null last_assistant_message stores nothing', () => {
    const f = fixture(DIR, 'Stop');
    expect(run('codex', 'Stop', { ...f.payload, last_assistant_message: null }, f.env).events).toEqual([]);
  });

  it('apply_patch normalizes to ApplyPatch; MCP names stay mcp__server__tool', () => {
    const f = fixture(DIR, 'PostToolUse');
    expect(run('codex', 'PostToolUse', { ...f.payload, tool_name: 'apply_patch' }, f.env).events[0].toolName).toBe('ApplyPatch');
    expect(run('codex', 'PostToolUse', { ...f.payload, tool_name: 'mcp__github__search_issues' }, f.env).events[0].toolName)
      .toBe('mcp__github__search_issues');
  });
});
