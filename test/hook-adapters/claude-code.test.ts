import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempHome } from '../helpers/temp.js';
import { fixture, hookFixtures, NOW, run, runFixture } from './fixtures.js';

const DIR = 'claude-code/hooks';
const SESSION = '3a198a8b-7eab-4cb5-a69e-e6477faacf11';
const PROMPT_ID = '64162777-60c7-4933-a462-396be60bfee1';
const CWD = '/home/dev/projects/demo';
const TRANSCRIPT = `/home/dev/.claude/projects/-home-dev-projects-demo/${SESSION}.jsonl`;
const base = { host: 'claude-code', source: 'hook', sessionId: SESSION, cwd: CWD, at: NOW, transcriptPath: TRANSCRIPT };

describe('claude-code adapter on the captured payloads', () => {
  it('SessionStart → session_start with its source, and asks for context', () => {
    const r = runFixture('claude-code', fixture(DIR, 'SessionStart'));
    expect(r.events).toEqual([{ ...base, kind: 'session_start', reason: 'startup' }]);
    expect(r.wantsContext).toBe(true);
    expect(r.dropReason).toBeUndefined();
  });

  it('UserPromptSubmit → prompt with the host prompt_id', () => {
    const r = runFixture('claude-code', fixture(DIR, 'UserPromptSubmit'));
    expect(r.events).toEqual([{ ...base, kind: 'prompt', prompt: 'say hello using bash', promptId: PROMPT_ID }]);
    expect(r.wantsContext).toBe(true);
  });

  it('PostToolUse → one tool_result with input, response, tool_use_id and the turn', () => {
    const r = runFixture('claude-code', fixture(DIR, 'PostToolUse'));
    expect(r.events).toEqual([{
      ...base, kind: 'tool_result', toolName: 'Bash', rawToolName: 'Bash', toolUseId: 'toolu_gmwiv4i6td',
      promptId: PROMPT_ID, toolInput: { command: 'echo hello-from-mock' },
      toolResponse: { stdout: 'hello-from-mock', stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
    }]);
    expect(r.wantsContext).toBe(false);
  });

  it('Stop → assistant_message from last_assistant_message', () => {
    const r = runFixture('claude-code', fixture(DIR, 'Stop'));
    expect(r.events).toEqual([{ ...base, kind: 'assistant_message', message: 'All done.', promptId: PROMPT_ID }]);
  });

  it('SessionEnd → session_end with its reason', () => {
    const r = runFixture('claude-code', fixture(DIR, 'SessionEnd'));
    expect(r.events).toEqual([{ ...base, kind: 'session_end', reason: 'other' }]);
  });

  it('stores nothing for the events it does not capture (PreToolUse, PostToolBatch, …), without error', () => {
    for (const event of ['InstructionsLoaded', 'PreToolUse', 'PostToolBatch', 'MessageDisplay']) {
      const r = runFixture('claude-code', fixture(DIR, event));
      expect(r.events, event).toEqual([]);
      expect(r.dropReason, event).toBeUndefined();
      expect(r.notes.join(' '), event).toMatch(/not captured/);
    }
  });

  it('every captured payload yields events stamped with the fixture session, cwd and capture time', () => {
    const all = hookFixtures(DIR).flatMap((f) => runFixture('claude-code', f).events);
    expect(all.map((e) => e.kind)).toEqual(['session_start', 'prompt', 'tool_result', 'assistant_message', 'session_end']);
    for (const e of all) expect(e).toMatchObject({ sessionId: SESSION, cwd: CWD, at: NOW });
  });
});

describe('claude-code adapter on hand-made payloads', () => {
  const env = { HOME: '/home/dev', CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: SESSION };
  const common = { session_id: SESSION, cwd: CWD, transcript_path: TRANSCRIPT, prompt_id: PROMPT_ID };

  it('PostToolUseFailure → failed tool_result carrying the error', () => {
    const r = run('claude-code', 'PostToolUseFailure', {
      ...common, hook_event_name: 'PostToolUseFailure', tool_name: 'Read', tool_input: { file_path: '/x' },
      tool_use_id: 'toolu_1', error: 'ENOENT',
    }, env);
    expect(r.events).toEqual([expect.objectContaining({
      kind: 'tool_result', toolName: 'Read', toolUseId: 'toolu_1', toolFailed: true, toolResponse: 'ENOENT', promptId: PROMPT_ID,
    })]);
  });

  it('subagent events carry agentId, isSubagent and the parent session', () => {
    const r = run('claude-code', 'PostToolUse', {
      ...common, hook_event_name: 'PostToolUse', agent_id: 'agent-7', agent_type: 'Explore',
      tool_name: 'Grep', tool_input: { pattern: 'x' }, tool_response: 'a.ts', tool_use_id: 'toolu_2',
    }, env);
    expect(r.events[0]).toMatchObject({ agentId: 'agent-7', isSubagent: true, parentSessionId: SESSION, sessionId: SESSION });
  });

  it('SubagentStop → subagent assistant_message; its own transcript when inside ~/.claude', () => {
    const agentTranscript = `/home/dev/.claude/projects/-home-dev-projects-demo/${SESSION}/subagents/agent-7.jsonl`;
    const r = run('claude-code', 'SubagentStop', {
      ...common, hook_event_name: 'SubagentStop', agent_id: 'agent-7', stop_hook_active: false,
      last_assistant_message: 'found it', agent_transcript_path: agentTranscript,
    }, env);
    expect(r.events).toEqual([expect.objectContaining({
      kind: 'assistant_message', message: 'found it', isSubagent: true, agentId: 'agent-7', transcriptPath: agentTranscript,
    })]);
  });

  it('Stop re-entry (stop_hook_active) is not captured again', () => {
    const r = run('claude-code', 'Stop', { ...common, hook_event_name: 'Stop', stop_hook_active: true, last_assistant_message: 'x' }, env);
    expect(r.events).toEqual([]);
    expect(r.notes.join(' ')).toMatch(/re-entry/);
  });

  it('PreCompact → compact with its trigger', () => {
    const r = run('claude-code', 'PreCompact', { ...common, hook_event_name: 'PreCompact', trigger: 'manual' }, env);
    expect(r.events).toEqual([expect.objectContaining({ kind: 'compact', reason: 'manual' })]);
  });

  it('a prompt without prompt_id gets no invented id', () => {
    const r = run('claude-code', 'UserPromptSubmit', { session_id: SESSION, cwd: CWD, hook_event_name: 'UserPromptSubmit', prompt: 'hi' }, env);
    expect(r.events[0].promptId).toBeUndefined();
    expect(r.events[0]).not.toHaveProperty('promptId');
  });

  it('honours CLAUDE_CONFIG_DIR for the transcript location', () => {
    const p = { ...common, hook_event_name: 'SessionStart', source: 'resume', transcript_path: '/cfg/claude/projects/x/s.jsonl' };
    expect(run('claude-code', 'SessionStart', p, { ...env, CLAUDE_CONFIG_DIR: '/cfg/claude' }).events[0].transcriptPath)
      .toBe('/cfg/claude/projects/x/s.jsonl');
    const r = run('claude-code', 'SessionStart', p, env);
    expect(r.events[0].transcriptPath).toBeUndefined();
    expect(r.notes.join(' ')).toMatch(/transcriptPath removed/);
  });

  it('Stop → every reply of the turn from the transcript, then the last one, each once', () => {
    const { home } = tempHome();
    const file = join(home, '.claude', 'projects', '-home-dev-projects-demo', `${SESSION}.jsonl`);
    mkdirSync(dirname(file), { recursive: true });
    const rec = (r: object) => JSON.stringify(r) + '\n';
    const user = (content: unknown) => rec({ type: 'user', isSidechain: false, message: { role: 'user', content } });
    const said = (...blocks: object[]) => rec({ type: 'assistant', isSidechain: false, message: { role: 'assistant', content: blocks } });
    // The captured session (an earlier turn: prompt, tool call, reply), then a turn with three replies.
    const captured = readFileSync(new URL('../fixtures/hosts/claude-code/sessions/3a198a8b-7eab-4cb5-a69e-e6477faacf11.jsonl', import.meta.url), 'utf8');
    writeFileSync(file, captured + [
      user('why does the build fail on the new runners?'),
      said({ type: 'text', text: 'The runners are arm64 and the image pins an amd64 binary: that is the cause.' }, { type: 'tool_use', id: 't1', name: 'Bash', input: {} }),
      user([{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }]),
      rec({ type: 'user', isMeta: true, message: { role: 'user', content: 'caveat' } }),
      rec({ type: 'assistant', isSidechain: true, message: { role: 'assistant', content: [{ type: 'text', text: 'a subagent talking' }] } }),
      said({ type: 'tool_use', id: 't2', name: 'Edit', input: {} }),
      said({ type: 'text', text: 'Switched the image to the multi-arch tag.' }),
      said({ type: 'text', text: 'Fixed: the build passes on arm64.' }),
    ].join(''));
    const r = run('claude-code', 'Stop', {
      ...common, transcript_path: file, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'Fixed: the build passes on arm64.',
    }, { ...env, HOME: home });
    expect(r.events.map((e) => e.message)).toEqual([
      'The runners are arm64 and the image pins an amd64 binary: that is the cause.',
      'Switched the image to the multi-arch tag.',
      'Fixed: the build passes on arm64.',
    ]);
    expect(r.events.every((e) => e.kind === 'assistant_message' && e.promptId === PROMPT_ID)).toBe(true);
  });

  it('Stop → the last reply alone when the transcript cannot be read', () => {
    const r = run('claude-code', 'Stop', { ...common, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'done' }, env);
    expect(r.events.map((e) => e.message)).toEqual(['done']);
  });
});
