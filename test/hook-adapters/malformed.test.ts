// What every adapter does with payloads it cannot trust: never throws, stores nothing it cannot
// attribute, bounds sizes with a visible marker, keeps only confined transcripts.
import { describe, expect, it } from 'vitest';
import { MAX_FIELD_CHARS, TRUNCATION_MARKER, type CaptureEvent } from '../../src/shared/capture-event.js';
import type { HookHostId } from '../../src/shared/hosts.js';
import type { Env } from '../../src/shared/paths.js';
import { getAdapter } from './loaded.js';
import { input, run } from './fixtures.js';

type P = Record<string, unknown>;
interface Sample {
  host: HookHostId;
  event: string;
  env: Env;
  payload(): P;
  sessionKey: string;
  setCwd(p: P, cwd: unknown): void;
  /** Puts a huge text in a free-form field and reads it back from the event. */
  big(p: P, text: string): void;
  read(e: CaptureEvent): unknown;
  transcript?: { key: string; root: string };
}

const CWD = '/home/dev/projects/demo';
const HOME = { HOME: '/home/dev' };
const set = (key: string) => (p: P, v: unknown) => { p[key] = v; };

const SAMPLES: Sample[] = [
  { host: 'claude-code', event: 'UserPromptSubmit', env: HOME, sessionKey: 'session_id',
    payload: () => ({ session_id: 's-1', cwd: CWD, hook_event_name: 'UserPromptSubmit', prompt: 'hi', transcript_path: '/home/dev/.claude/projects/x/s-1.jsonl' }),
    setCwd: set('cwd'), big: set('prompt'), read: (e) => e.prompt, transcript: { key: 'transcript_path', root: '/home/dev/.claude' } },
  { host: 'codex', event: 'PostToolUse', env: { ...HOME, CODEX_HOME: '/home/dev/.codex' }, sessionKey: 'session_id',
    payload: () => ({ session_id: 's-1', turn_id: 't-1', cwd: CWD, hook_event_name: 'PostToolUse', model: 'm', tool_name: 'Bash',
      tool_input: { command: 'ls' }, tool_response: 'a', tool_use_id: 'call_1', transcript_path: '/home/dev/.codex/sessions/r.jsonl' }),
    setCwd: set('cwd'), big: set('tool_response'), read: (e) => e.toolResponse, transcript: { key: 'transcript_path', root: '/home/dev/.codex' } },
  { host: 'cursor', event: 'beforeSubmitPrompt', env: HOME, sessionKey: 'conversation_id',
    payload: () => ({ conversation_id: 'c-1', generation_id: 'g-1', workspace_roots: [CWD], hook_event_name: 'beforeSubmitPrompt', prompt: 'hi',
      transcript_path: '/home/dev/.cursor/projects/x/t.jsonl' }),
    setCwd: (p, v) => { p.workspace_roots = [v]; }, big: set('prompt'), read: (e) => e.prompt,
    transcript: { key: 'transcript_path', root: '/home/dev/.cursor' } },
  { host: 'windsurf', event: 'post_run_command', env: HOME, sessionKey: 'trajectory_id',
    payload: () => ({ agent_action_name: 'post_run_command', trajectory_id: 'tr-1', execution_id: 'e-1', tool_info: { command_line: 'ls', cwd: CWD } }),
    setCwd: (p, v) => { (p.tool_info as P).cwd = v; }, big: (p, t) => { (p.tool_info as P).command_line = t; },
    read: (e) => (e.toolInput as P).command },
  { host: 'kimi', event: 'UserPromptSubmit', env: HOME, sessionKey: 'session_id',
    payload: () => ({ hook_event_name: 'UserPromptSubmit', session_id: 'k-1', cwd: CWD, prompt: 'hi' }),
    setCwd: set('cwd'), big: set('prompt'), read: (e) => e.prompt },
  { host: 'antigravity', event: 'PostToolUse', env: HOME, sessionKey: 'conversationId',
    payload: () => ({ conversationId: 'a-1', invocationNum: 1, workspacePaths: [CWD], transcriptPath: '/home/dev/.gemini/antigravity-cli/brain/a-1/t.jsonl',
      toolCall: { name: 'run_command', args: { CommandLine: 'ls' } } }),
    setCwd: (p, v) => { p.workspacePaths = [v]; }, big: (p, t) => { p.toolCall = { name: 'run_command', args: { CommandLine: t } }; },
    read: (e) => (e.toolInput as P).CommandLine, transcript: { key: 'transcriptPath', root: '/home/dev/.gemini' } },
  { host: 'grok', event: 'UserPromptSubmit', env: HOME, sessionKey: 'sessionId',
    payload: () => ({ hookEventName: 'user_prompt_submit', sessionId: 'g-1', cwd: CWD, prompt: 'hi', promptId: 'p-1' }),
    setCwd: set('cwd'), big: set('prompt'), read: (e) => e.prompt },
  { host: 'copilot', event: 'userPromptSubmitted', env: HOME, sessionKey: 'sessionId',
    payload: () => ({ sessionId: 'cp-1', timestamp: 1796036343767, cwd: CWD, prompt: 'hi' }),
    setCwd: set('cwd'), big: set('prompt'), read: (e) => e.prompt },
  { host: 'gemini', event: 'BeforeAgent', env: HOME, sessionKey: 'session_id',
    payload: () => ({ session_id: 'ge-1', transcript_path: '/home/dev/.gemini/tmp/demo/chats/s.jsonl', cwd: CWD, hook_event_name: 'BeforeAgent', prompt: 'hi' }),
    setCwd: set('cwd'), big: set('prompt'), read: (e) => e.prompt, transcript: { key: 'transcript_path', root: '/home/dev/.gemini' } },
  { host: 'goose', event: 'UserPromptSubmit', env: HOME, sessionKey: 'session_id',
    payload: () => ({ event: 'UserPromptSubmit', session_id: '20261130_1', working_dir: CWD, prompt: 'hi' }),
    setCwd: set('working_dir'), big: set('prompt'), read: (e) => e.prompt },
  { host: 'raw', event: 'prompt', env: HOME, sessionKey: 'sessionId',
    payload: () => ({ host: 'opencode', sessionId: 'r-1', cwd: CWD, prompt: 'hi' }),
    setCwd: set('cwd'), big: set('prompt'), read: (e) => e.prompt },
];

describe.each(SAMPLES.map((s) => [s.host, s] as const))('%s adapter with malformed input', (_h, s) => {
  const go = (p: unknown, env: Env = s.env) => run(s.host, s.event, p, env);

  it('stores the well-formed sample (sanity)', () => {
    const r = go(s.payload());
    expect(r.events).toHaveLength(1);
    expect(r.events[0]).toMatchObject({ cwd: CWD, source: 'hook' });
  });

  it('a non-object payload stores nothing and does not throw', () => {
    for (const bad of [['a'], 'plain text', 42, null, undefined, true]) {
      const r = go(bad);
      expect(r.events).toEqual([]);
      expect(r.notes.length).toBeGreaterThan(0);
    }
  });

  it('a missing session id stores nothing, with a note', () => {
    const p = s.payload();
    delete p[s.sessionKey];
    const r = go(p);
    expect(r.events).toEqual([]);
    expect(r.notes.join(' ')).toMatch(/session id/);
  });

  it('a session id with bad characters or length stores nothing', () => {
    for (const bad of ['../../etc', 'a b', 'x'.repeat(129), 'semi;colon', 42, '']) {
      const p = s.payload();
      p[s.sessionKey] = bad;
      expect(go(p).events, String(bad)).toEqual([]);
    }
  });

  it('a relative cwd falls back to PWD, or drops the event with a note', () => {
    const p = s.payload();
    s.setCwd(p, 'projects/demo');
    const dropped = go(p);
    expect(dropped.events).toEqual([]);
    expect(dropped.notes.join(' ')).toMatch(/working directory/);
    const fallback = go(p, { ...s.env, PWD: '/home/dev/elsewhere' });
    expect(fallback.events[0]?.cwd).toBe('/home/dev/elsewhere');
  });

  it('a huge field is truncated with the marker, not dropped', () => {
    const p = s.payload();
    s.big(p, 'A'.repeat(MAX_FIELD_CHARS * 3));
    const r = go(p);
    expect(r.events).toHaveLength(1);
    const value = s.read(r.events[0]) as string;
    expect(typeof value).toBe('string');
    expect(value.length).toBeLessThanOrEqual(MAX_FIELD_CHARS);
    expect(value.endsWith(TRUNCATION_MARKER)).toBe(true);
  });

  it('deeply nested or oddly typed fields never make it throw', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200; i++) deep = { d: deep, list: [i] };
    const base = s.payload();
    for (const key of Object.keys(base)) {
      for (const v of [null, 7, false, [], {}, deep, 'x'.repeat(10)]) {
        const p = { ...s.payload(), [key]: v };
        expect(() => getAdapter(s.host).normalize(input(s.host, s.event, p, s.env)), `${key}=${JSON.stringify(v)?.slice(0, 20)}`).not.toThrow();
      }
    }
  });

  if (s.transcript) {
    const t = s.transcript;
    it('a transcript path escaping the host directory with .. is removed, a confined one kept', () => {
      const escape = s.payload();
      escape[t.key] = `${t.root}/projects/../../.ssh/id_rsa`;
      const r = go(escape);
      expect(r.events[0].transcriptPath).toBeUndefined();
      expect(r.notes.join(' ')).toMatch(/transcriptPath removed/);
      const relative = s.payload();
      relative[t.key] = '.claude/projects/x.jsonl';
      expect(go(relative).events[0].transcriptPath).toBeUndefined();
      const dotted = s.payload();
      dotted[t.key] = `${t.root}/a/../b/t.jsonl`;
      expect(go(dotted).events[0].transcriptPath).toBe(`${t.root}/b/t.jsonl`);
    });
  }
});

describe('event-name mismatch: the payload wins and a note says so', () => {
  it('claude-code hook_event_name', () => {
    const r = run('claude-code', 'UserPromptSubmit', { session_id: 's', cwd: CWD, hook_event_name: 'SessionEnd', reason: 'exit' }, HOME);
    expect(r.resolvedEvent).toBe('SessionEnd');
    expect(r.events[0].kind).toBe('session_end');
    expect(r.wantsContext).toBe(false);
    expect(r.notes.join(' ')).toMatch(/mismatch.*UserPromptSubmit.*SessionEnd/);
  });

  it('windsurf agent_action_name and goose event', () => {
    const w = run('windsurf', 'post_run_command', { agent_action_name: 'pre_user_prompt', trajectory_id: 't', tool_info: { user_prompt: 'hi' } },
      { ...HOME, PWD: CWD });
    expect(w.events[0].kind).toBe('prompt');
    expect(w.notes.join(' ')).toMatch(/mismatch/);
    const g = run('goose', 'SessionStart', { event: 'SessionEnd', session_id: 'g', working_dir: CWD }, HOME);
    expect(g.events[0].kind).toBe('session_end');
  });

  it('a payload naming an unknown event stores nothing, without error', () => {
    const r = run('claude-code', 'PostToolUse', { session_id: 's', cwd: CWD, hook_event_name: 'BrandNewEvent' }, HOME);
    expect(r.events).toEqual([]);
    expect(r.resolvedEvent).toBe('BrandNewEvent');
  });

  it('only spelling differs (PostToolUse / post_tool_use / posttooluse): no mismatch', () => {
    const r = run('claude-code', 'posttooluse', { session_id: 's', cwd: CWD, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: {} }, HOME);
    expect(r.resolvedEvent).toBe('PostToolUse');
    expect(r.notes.join(' ')).not.toMatch(/mismatch/);
  });
});
