// Windsurf payloads with the fields of the Cascade hooks docs (docs.windsurf.com/windsurf/cascade/hooks):
// agent_action_name, trajectory_id, execution_id, timestamp, tool_info.
import { describe, expect, it } from 'vitest';
import { getAdapter } from './loaded.js';
import { run } from './fixtures.js';

const env = { HOME: '/home/dev', PWD: '/home/dev/projects/demo' };
const at = (event: string, toolInfo: Record<string, unknown>, extra: Record<string, unknown> = {}) => run('windsurf', event, {
  agent_action_name: event, trajectory_id: 'traj-5f2c', execution_id: 'exec-1', timestamp: '2026-11-30T10:00:00Z', tool_info: toolInfo, ...extra,
}, env);

describe('windsurf adapter', () => {
  it('pre_user_prompt → prompt (no prompt id: execution_id is not one); cwd falls back to PWD', () => {
    const r = at('pre_user_prompt', { user_prompt: 'refactor auth' });
    expect(r.events).toEqual([expect.objectContaining({
      host: 'windsurf', kind: 'prompt', prompt: 'refactor auth', sessionId: 'traj-5f2c', cwd: '/home/dev/projects/demo',
    })]);
    expect(r.events[0].promptId).toBeUndefined();
    expect(r.wantsContext).toBe(false);
  });

  it('post_run_command → Bash tool_result on the command cwd, with what Windsurf sends: the command line (no output)', () => {
    const r = at('post_run_command', { command_line: 'git status', cwd: '/home/dev/projects/demo/sub' });
    expect(r.events).toEqual([expect.objectContaining({
      kind: 'tool_result', toolName: 'Bash', cwd: '/home/dev/projects/demo/sub',
      toolInput: { command: 'git status', cwd: '/home/dev/projects/demo/sub' },
    })]);
    expect(r.events[0].toolResponse).toBeUndefined();
    expect(r.events[0].toolFailed).toBeUndefined();
    expect(at('post_run_command', { cwd: '/home/dev/projects/demo' }).events).toEqual([]);
  });

  it('post_read_code → Read of the path (Windsurf sends no content); post_write_code → file_edit', () => {
    const read = at('post_read_code', { file_path: '/home/dev/projects/demo/a.py' }).events[0];
    expect(read).toMatchObject({ kind: 'tool_result', toolName: 'Read', filePath: '/home/dev/projects/demo/a.py', toolInput: { file_path: '/home/dev/projects/demo/a.py' } });
    expect(read.toolResponse).toBeUndefined();
    expect(at('post_write_code', { file_path: '/home/dev/projects/demo/a.py', edits: [{ old_string: 'x = 1', new_string: 'x = 2' }] }).events[0])
      .toMatchObject({ kind: 'file_edit', filePath: '/home/dev/projects/demo/a.py', edits: [{ oldText: 'x = 1', newText: 'x = 2' }] });
  });

  it('post_mcp_tool_use → mcp__server__tool with parsed arguments', () => {
    const r = at('post_mcp_tool_use', { mcp_server_name: 'github', mcp_tool_name: 'create_issue', mcp_tool_arguments: { title: 't' }, mcp_result: 'ok' });
    expect(r.events[0]).toMatchObject({ toolName: 'mcp__github__create_issue', toolInput: { title: 't' }, toolResponse: 'ok' });
  });

  it('post_cascade_response → assistant_message; the transcript variant keeps a transcript only inside Windsurf dirs', () => {
    expect(at('post_cascade_response', { response: 'Done.' }).events[0]).toMatchObject({ kind: 'assistant_message', message: 'Done.' });
    const t = at('post_cascade_response_with_transcript', { transcript_path: '/home/dev/.windsurf/transcripts/traj-5f2c.jsonl' });
    expect(t.events[0]).toMatchObject({ kind: 'assistant_message', transcriptPath: '/home/dev/.windsurf/transcripts/traj-5f2c.jsonl' });
    const bad = at('post_cascade_response_with_transcript', { transcript_path: '/tmp/evil.jsonl' });
    expect(bad.events).toEqual([]);
    expect(bad.notes.join(' ')).toMatch(/transcriptPath removed/);
  });

  it('pre_* hooks store nothing and print nothing (exit 0 allows)', () => {
    expect(at('pre_run_command', { command_line: 'rm -rf /', cwd: '/' }).events).toEqual([]);
    for (const e of ['pre_user_prompt', 'pre_run_command', 'post_cascade_response']) expect(getAdapter('windsurf').formatOutput(e, 'ctx')).toBe('');
  });
});
