// Caller identification with the real payloads and the real hook environments of each host.
import { describe, expect, it } from 'vitest';
import { identifyCaller } from '../../src/hook/caller.js';
import type { HookHostId } from '../../src/shared/hosts.js';
import { hookFixtures, run, runFixture } from './fixtures.js';

const OWN: [HookHostId, string][] = [
  ['claude-code', 'claude-code/hooks'], ['codex', 'codex/hooks'], ['copilot', 'copilot-cli/hooks-camel'],
  ['copilot', 'copilot-cli/hooks-pascal'], ['gemini', 'gemini-cli/hooks'],
];

describe('each host is recognised as itself in its own environment', () => {
  it.each(OWN)('%s (%s)', (host, dir) => {
    for (const f of hookFixtures(dir)) {
      expect(identifyCaller(host, f.payload, f.env), f.file).toEqual({ host });
      expect(runFixture(host, f).dropReason, f.file).toBeUndefined();
    }
  });
});

describe('another host running a Claude Code hook file is dropped: its own writer stores the event', () => {
  it.each([
    ['copilot', 'copilot-cli/hooks-pascal'], ['copilot', 'copilot-cli/hooks-camel'], ['gemini', 'gemini-cli/hooks'], ['codex', 'codex/hooks'],
  ] as [HookHostId, string][])('%s payloads on `hook claude-code …`', (owner, dir) => {
    for (const f of hookFixtures(dir)) {
      const who = identifyCaller('claude-code', f.payload, f.env);
      expect(who.drop, f.file).toBe(`owned by ${owner}`);
      const r = runFixture('claude-code', f);
      expect(r.events, f.file).toEqual([]);
      expect(r.dropReason, f.file).toBe(`owned by ${owner}`);
      expect(r.wantsContext, f.file).toBe(false);
    }
  });

  it('Copilot PascalCase payloads are recognised by their dialect alone (no env)', () => {
    for (const f of hookFixtures('copilot-cli/hooks-pascal')) {
      expect(identifyCaller('claude-code', f.payload, { HOME: '/home/dev' }).host, f.file).toBe('copilot');
    }
  });

  it('Claude Code payloads on another host\'s command line belong to Claude Code', () => {
    for (const f of hookFixtures('claude-code/hooks')) {
      expect(identifyCaller('codex', f.payload, f.env).drop, f.file).toBe('owned by claude-code');
    }
  });
});

describe('double fire: Grok Build runs ~/.claude/settings.json and ~/.cursor/hooks.json', () => {
  const grokEnv = { HOME: '/home/dev', GROK_HOOK_EVENT: 'post_tool_use', GROK_HOOK_NAME: 'claude-mem', GROK_SESSION_ID: 'grok-s1',
    GROK_WORKSPACE_ROOT: '/home/dev/projects/demo', CLAUDE_PROJECT_DIR: '/home/dev/projects/demo' };
  const grokPayload = { hookEventName: 'post_tool_use', sessionId: 'grok-s1', cwd: '/home/dev/projects/demo', workspaceRoot: '/home/dev/projects/demo',
    toolName: 'run_terminal_command', toolInput: { command: 'ls' }, toolUseId: 'tu-1', toolResult: 'a', promptId: 'p-1' };

  it('a Grok payload on `hook claude-code PostToolUse` is dropped with the reason', () => {
    const r = run('claude-code', 'PostToolUse', grokPayload, grokEnv);
    expect(r.events).toEqual([]);
    expect(r.dropReason).toBe('owned by grok');
    expect(r.notes.join(' ')).toMatch(/caller identified as grok/);
  });

  it('…and on `hook cursor afterShellExecution`; while `hook grok PostToolUse` stores it once', () => {
    expect(run('cursor', 'afterShellExecution', grokPayload, grokEnv).dropReason).toBe('owned by grok');
    const own = run('grok', 'PostToolUse', grokPayload, grokEnv);
    expect(own.dropReason).toBeUndefined();
    expect(own.events).toHaveLength(1);
  });

  it('GROK_HOOK_EVENT alone identifies Grok even with a Claude-looking payload', () => {
    const r = run('claude-code', 'SessionStart', { session_id: 'x1', cwd: '/home/dev/projects/demo', hook_event_name: 'SessionStart' },
      { HOME: '/home/dev', GROK_HOOK_EVENT: 'session_start' });
    expect(r.dropReason).toBe('owned by grok');
  });
});

describe('Cursor third-party hooks and inherited environments', () => {
  const claudeEnv = { HOME: '/home/dev', CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: 's-claude', CLAUDE_PROJECT_DIR: '/p' };
  const claudePayload = { session_id: 's-claude', cwd: '/p', hook_event_name: 'UserPromptSubmit', prompt: 'hi', prompt_id: 'q1' };

  it('a Cursor payload on `hook claude-code …` is Cursor\'s', () => {
    const p = { conversation_id: 'c1', generation_id: 'g1', workspace_roots: ['/p'], hook_event_name: 'beforeSubmitPrompt', prompt: 'hi', cursor_version: '2.4' };
    expect(identifyCaller('claude-code', p, { HOME: '/home/dev' })).toMatchObject({ host: 'cursor', drop: 'owned by cursor' });
  });

  it('CURSOR_VERSION in the hook env marks Cursor when the payload is Claude-shaped and Claude is not confirmed', () => {
    expect(identifyCaller('claude-code', { session_id: 's', cwd: '/p', hook_event_name: 'SessionStart' }, { CURSOR_VERSION: '2.4.1' }).drop)
      .toBe('owned by cursor');
  });

  it('Claude Code started from a Cursor or Copilot terminal stays Claude Code (its session marker matches)', () => {
    expect(identifyCaller('claude-code', claudePayload, { ...claudeEnv, CURSOR_TRACE_ID: 'abc', COPILOT_CLI: '1' })).toEqual({ host: 'claude-code' });
    expect(identifyCaller('claude-code', claudePayload, { HOME: '/home/dev', CLAUDECODE: '1', CURSOR_TRACE_ID: 'abc' })).toEqual({ host: 'claude-code' });
  });

  it('an inherited Claude session marker does not hide Copilot running the hook', () => {
    const copilotEnv = { HOME: '/home/dev', CLAUDECODE: '1', CLAUDE_CODE_SESSION_ID: 'outer-claude', COPILOT_HOOK_DIR: '/home/dev/.copilot/hooks', COPILOT_CLI: '1' };
    const p = { hook_event_name: 'SessionEnd', session_id: 'copilot-s', cwd: '/p', reason: 'complete' };
    expect(identifyCaller('claude-code', p, copilotEnv).drop).toBe('owned by copilot');
  });

  it('with no markers at all the command line is trusted; raw is never reassigned', () => {
    expect(identifyCaller('claude-code', claudePayload, {})).toEqual({ host: 'claude-code' });
    expect(identifyCaller('raw', { hookEventName: 'x', sessionId: 's' }, { GROK_HOOK_EVENT: 'x' })).toEqual({ host: 'raw' });
  });

  it('a DeepSeek Harness bridge (transcript in ~/.dsh) is DeepSeek Harness\'s', () => {
    const p = { session_id: 'd1', cwd: '/p', hook_event_name: 'PostToolUse', tool_name: 'Bash', transcript_path: '/home/dev/.dsh/sessions/--p--/d1/session.jsonl.zstd' };
    expect(identifyCaller('claude-code', p, { HOME: '/home/dev' }).drop).toBe('owned by dsh');
  });
});
