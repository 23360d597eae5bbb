import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileInfo, type FileState } from '../../src/transcripts/engine.js';
import { FIXTURES, tempDir } from '../helpers/temp.js';
import { drain, rows, shipped, testStore } from './helpers.js';

const SESSIONS = join(FIXTURES, 'codex', 'sessions');
const ROLLOUT = join(SESSIONS, readdirSync(SESSIONS).find((f) => f.startsWith('rollout-'))!);
const SESSION_ID = '01a22c17-4ed4-7561-9d59-b934c4f76f3a';
const TURN_ID = '01a22c17-4f6a-7341-be49-284462e907a7';

function evaluateAll(path = ROLLOUT) {
  const schema = shipped('codex');
  const state: FileState = { context: {}, pending: {} };
  const events = readFileSync(path, 'utf8').split('\n').filter(Boolean)
    .flatMap((line) => { const o = schema.evaluate(JSON.parse(line), state, fileInfo(path)); expect(o.error).toBeUndefined(); return o.events; });
  return { events, state };
}

describe('codex schema against the real 0.171 rollout, as it is', () => {
  it('starts the session with its own id and cwd', () => {
    const { events } = evaluateAll();
    expect(events[0]).toMatchObject({ host: 'codex', source: 'transcript', kind: 'session_start', sessionId: SESSION_ID, cwd: '/home/dev/projects/demo', at: '2026-11-30T10:54:15.002Z', reason: 'exec' });
    expect(events.every((e) => e.sessionId === SESSION_ID && e.transcriptPath === ROLLOUT)).toBe(true);
    expect(events.some((e) => e.isSubagent)).toBe(false);
  });

  it('records the real prompt once, with the host turn id, and none of the injected preambles', () => {
    const { events } = evaluateAll();
    const prompts = events.filter((e) => e.kind === 'prompt');
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toMatchObject({ prompt: 'say hello using the shell', promptId: TURN_ID });
    const all = JSON.stringify(events);
    for (const preamble of ['<skills_instructions>', '# AGENTS.md instructions for', '<environment_context>', '<permissions instructions>']) {
      expect(all).not.toContain(preamble);
    }
  });

  it('pairs the shell call with its output under one call id, normalised to Bash', () => {
    const { events, state } = evaluateAll();
    const use = events.find((e) => e.kind === 'tool_use');
    const result = events.find((e) => e.kind === 'tool_result');
    expect(use).toMatchObject({ toolUseId: 'call_qjosbisoer', toolName: 'Bash', rawToolName: 'exec_command', toolInput: { command: 'echo hello-from-mock' }, promptId: TURN_ID });
    expect(result).toMatchObject({ toolUseId: 'call_qjosbisoer', toolName: 'Bash', toolInput: { command: 'echo hello-from-mock' }, promptId: TURN_ID });
    expect(String(result!.toolResponse)).toContain('hello-from-mock');
    expect(state.pending).toEqual({});
    expect(state.context).toMatchObject({ promptId: TURN_ID, model: 'mock-model', cwd: '/home/dev/projects/demo' });
  });

  it('records the final assistant message in its turn', () => {
    const { events } = evaluateAll();
    expect(events.filter((e) => e.kind === 'assistant_message')).toEqual([expect.objectContaining({ message: 'All done.', promptId: TURN_ID })]);
    expect(events.map((e) => e.kind)).toEqual(['session_start', 'prompt', 'tool_use', 'tool_result', 'assistant_message']);
  });

  it('lands in the store as one session, one prompt and one merged Bash observation', async () => {
    const dir = tempDir('codex');
    mkdirSync(join(dir, '2026', '11', '30'), { recursive: true });
    const file = join(dir, '2026', '11', '30', 'rollout.jsonl');
    copyFileSync(ROLLOUT, file);
    const store = testStore();
    const r = await drain(store, { path: file, schema: shipped('codex') });
    expect(r).toMatchObject({ status: 'idle', deadLetters: 0, lines: 19 });
    const got = rows(store.dbPath);
    expect(got.sessions).toEqual([expect.objectContaining({ host: 'codex', id: SESSION_ID, isSubagent: 0 })]);
    expect(got.prompts).toEqual([{ session: SESSION_ID, nativeId: TURN_ID, text: 'say hello using the shell' }]);
    expect(got.observations).toHaveLength(1);
    expect(got.observations[0]).toMatchObject({ toolUseId: 'call_qjosbisoer', toolName: 'Bash' });
    expect(got.observations[0].title).toContain('echo hello-from-mock');
    store.close();
  });
});

describe('codex preamble exclusion is by prefix only', () => {
  const msg = (role: string, text: string, turn: string) => ({ timestamp: '2026-11-30T11:00:00.000Z', type: 'response_item', payload: { type: 'message', role, content: [{ type: 'input_text', text }], internal_chat_message_metadata_passthrough: { turn_id: turn } } });
  it('keeps a real question that mentions the preamble words mid-text, drops injected blocks and developer messages', () => {
    const schema = shipped('codex');
    const state: FileState = { context: {}, pending: {} };
    const file = fileInfo(ROLLOUT);
    const first = readFileSync(ROLLOUT, 'utf8').split('\n')[0];
    schema.evaluate(JSON.parse(first), state, file);
    const lines = [
      msg('user', 'Why does my prompt show <environment_context> and "# AGENTS.md instructions for" text?', 't-real'),
      msg('user', '<plugins_instructions>\n## Plugins\n- github</plugins_instructions>', 't-plug'),
      msg('user', '<plugin_recommendations>try the github plugin</plugin_recommendations>', 't-rec'),
      msg('user', '<user_instructions>be terse</user_instructions>', 't-ui'),
      msg('developer', 'You may use the following hooks context: CONTEXT-MARKER', 't-dev'),
      msg('user', '<b>bold</b> is not a preamble', 't-html'),
      { timestamp: '2026-11-30T11:00:01.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'older rollouts log the prompt here', turn_id: 't-old' } },
    ];
    const prompts = lines.flatMap((l) => schema.evaluate(l, state, file).events).filter((e) => e.kind === 'prompt');
    expect(prompts.map((p) => [p.promptId, p.prompt])).toEqual([
      ['t-real', 'Why does my prompt show <environment_context> and "# AGENTS.md instructions for" text?'],
      ['t-html', '<b>bold</b> is not a preamble'],
      ['t-old', 'older rollouts log the prompt here'],
    ]);
  });
});
