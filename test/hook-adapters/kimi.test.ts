// Kimi Code 2.1.0 payloads as captured (test/fixtures/hosts/kimi-code), and kimi-cli's shape
// (the Python generation, no `client_type`), through the adapter.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getAdapter } from './loaded.js';
import { FIXTURES, tempDir } from '../helpers/temp.js';
import { fixture, run, runFixture } from './fixtures.js';

const DIR = 'kimi-code/hooks';
const SESSION = 'session_9645a1f8-f1bc-4488-ac24-51f2eca09e4b';
const cli = { session_id: 'a1b2c3', cwd: '/home/dev/projects/demo' };
const at = (event: string, p: Record<string, unknown>) => run('kimi', event, { hook_event_name: event, ...p }, { HOME: '/home/dev' });

/** A Kimi Code home holding the captured session's wire.jsonl where the host writes it. */
function homeWithWire(): string {
  const home = tempDir('kimi-wire');
  const dir = join(home, '.kimi-code', 'sessions', 'wd_demo_b5d9bd27fb6a', SESSION, 'agents', 'main');
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(FIXTURES, 'kimi-code', 'sessions', 'agents', 'main', 'wire.jsonl'), join(dir, 'wire.jsonl'));
  return home;
}

describe('kimi adapter: Kimi Code 2.1.0 as captured', () => {
  it('SessionStart is stored; no context asked (Kimi Code drops SessionStart output)', () => {
    const r = runFixture('kimi', fixture(DIR, 'SessionStart'));
    expect(r.events).toEqual([expect.objectContaining({ host: 'kimi', kind: 'session_start', reason: 'startup', sessionId: SESSION })]);
    expect(r.wantsContext).toBe(false);
  });

  it('UserPromptSubmit (content parts) stores nothing but asks context for the session', () => {
    const r = runFixture('kimi', fixture(DIR, 'UserPromptSubmit'));
    expect(r.events).toEqual([]);
    expect(r.wantsContext).toBe(true);
    expect(r.session).toEqual({ host: 'kimi', sessionId: SESSION, cwd: '/home/dev/projects/demo' });
  });

  it("TurnStarted writes the prompt with the host's turn id (0 for the first turn)", () => {
    const r = runFixture('kimi', fixture(DIR, 'TurnStarted'));
    expect(r.events).toEqual([expect.objectContaining({ kind: 'prompt', prompt: 'say hello using bash', promptId: '0' })]);
    expect(r.wantsContext).toBe(false);
  });

  it('a steer (a prompt added to a running turn) is written by UserPromptSubmit: it starts no turn', () => {
    const f = fixture(DIR, 'UserPromptSubmit');
    const r = run('kimi', 'UserPromptSubmit', { ...f.payload, is_steer: true, prompt: [{ type: 'text', text: 'also add a test' }] });
    expect(r.events).toEqual([expect.objectContaining({ kind: 'prompt', prompt: 'also add a test' })]);
    expect(r.events[0].promptId).toBeUndefined();
  });

  it('a turn started by something else than the user (a Stop hook continuing) stores no prompt', () => {
    const f = fixture(DIR, 'TurnStarted');
    expect(run('kimi', 'TurnStarted', { ...f.payload, origin_kind: 'system_trigger', prompt: undefined }).events).toEqual([]);
  });

  it('PostToolUse → tool_result with the output string and tool_call_id', () => {
    const r = runFixture('kimi', fixture(DIR, 'PostToolUse'));
    expect(r.events).toEqual([expect.objectContaining({
      kind: 'tool_result', toolName: 'Bash', rawToolName: 'Bash', toolUseId: 'call_sr1i3ibzwv',
      toolInput: { command: 'echo hello-from-mock' }, toolResponse: 'hello-from-mock\n',
    })]);
  });

  it("Stop reads the turn from the session's wire.jsonl: tool results again, the answer, the turn end", () => {
    const r = runFixture('kimi', fixture(DIR, 'Stop'), { HOME: homeWithWire() });
    expect(r.events.map((e) => e.kind)).toEqual(['tool_result', 'assistant_message', 'turn_end']);
    expect(r.events[0]).toMatchObject({ toolName: 'Bash', toolUseId: 'call_sr1i3ibzwv', toolInput: { command: 'echo hello-from-mock' }, toolResponse: 'hello-from-mock\n' });
    expect(r.events[1]).toMatchObject({ message: 'All done.', promptId: '0' });
    expect(r.events[2]).toMatchObject({ kind: 'turn_end', promptId: '0', sessionId: SESSION });
  });

  it('Stop without a session log still ends the turn (and says why there is no answer)', () => {
    const r = runFixture('kimi', fixture(DIR, 'Stop'), { HOME: tempDir('kimi-nolog') });
    expect(r.events.map((e) => e.kind)).toEqual(['turn_end']);
    expect(r.notes.join(' ')).toMatch(/no session log/);
  });

  it('a session id that is a path step is never looked up', () => {
    const f = fixture(DIR, 'Stop');
    const r = run('kimi', 'Stop', { ...f.payload, session_id: '..' }, { HOME: homeWithWire() });
    expect(r.events.filter((e) => e.kind === 'tool_result')).toEqual([]);
  });
});

describe('kimi adapter: kimi-cli (no client_type)', () => {
  it('SessionStart wants context; UserPromptSubmit writes the prompt (string) and wants context', () => {
    expect(at('SessionStart', { ...cli, source: 'startup' }).wantsContext).toBe(true);
    const r = at('UserPromptSubmit', { ...cli, prompt: 'write tests' });
    expect(r.events).toEqual([expect.objectContaining({ kind: 'prompt', prompt: 'write tests' })]);
    expect(r.wantsContext).toBe(true);
  });

  it('PostToolUse names normalize; PostToolUseFailure keeps the error', () => {
    expect(at('PostToolUse', { ...cli, tool_name: 'Shell', tool_input: { command: 'ls' }, tool_output: 'a', tool_call_id: 'c1' }).events[0])
      .toMatchObject({ kind: 'tool_result', toolName: 'Bash', rawToolName: 'Shell', toolUseId: 'c1', toolResponse: 'a' });
    expect(at('PostToolUseFailure', { ...cli, tool_name: 'WriteFile', tool_input: {}, error: 'denied', tool_call_id: 'c4' }).events[0])
      .toMatchObject({ toolName: 'Write', toolFailed: true, toolResponse: 'denied' });
  });

  it('Stop stores its message when it has one; SessionEnd / PreCompact captured', () => {
    expect(at('Stop', { ...cli, stop_hook_active: false }).events).toEqual([]);
    expect(at('Stop', { ...cli, last_assistant_message: 'ok' }).events[0]).toMatchObject({ kind: 'assistant_message', message: 'ok' });
    expect(at('SessionEnd', { ...cli, reason: 'archive' }).events[0]).toMatchObject({ kind: 'session_end', reason: 'archive' });
    expect(at('PreCompact', { ...cli, trigger: 'auto' }).events[0]).toMatchObject({ kind: 'compact', reason: 'auto' });
  });
});

describe('kimi output', () => {
  it('prints context as plain text, only for the context events', () => {
    const a = getAdapter('kimi');
    expect(a.formatOutput('UserPromptSubmit', 'memory says hi')).toBe('memory says hi');
    expect(a.formatOutput('SessionStart', 'memory says hi')).toBe('memory says hi');
    expect(a.formatOutput('PostToolUse', 'memory says hi')).toBe('');
    expect(a.formatOutput('TurnStarted', 'memory says hi')).toBe('');
  });
});
