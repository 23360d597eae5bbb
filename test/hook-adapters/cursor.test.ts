// Cursor payloads with the fields of Cursor's hooks reference (cursor.com/docs/hooks); no captured fixtures yet.
import { describe, expect, it } from 'vitest';
import { MAX_FIELD_CHARS, TRUNCATION_MARKER } from '../../src/shared/capture-event.js';
import { getAdapter } from './loaded.js';
import { run } from './fixtures.js';

const env = { HOME: '/home/dev', CURSOR_VERSION: '2.4.1' };
const common = {
  conversation_id: 'c0nv-1234', generation_id: 'gen-42', workspace_roots: ['/home/dev/projects/demo'],
  model: 'claude-4-sonnet', cursor_version: '2.4.1', user_email: 'dev@example.com',
};
const at = (event: string, extra: Record<string, unknown>) => run('cursor', event, { ...common, hook_event_name: event, ...extra }, env);

describe('cursor adapter', () => {
  it('sessionStart → session_start on workspace_roots[0], wants context', () => {
    const r = at('sessionStart', { session_id: 'c0nv-1234', is_background_agent: false, composer_mode: 'agent' });
    expect(r.events).toEqual([expect.objectContaining({
      host: 'cursor', kind: 'session_start', sessionId: 'c0nv-1234', cwd: '/home/dev/projects/demo', model: 'claude-4-sonnet',
    })]);
    expect(r.wantsContext).toBe(true);
  });

  it('beforeSubmitPrompt → prompt whose promptId is generation_id; no context (Cursor cannot take it there)', () => {
    const r = at('beforeSubmitPrompt', { prompt: 'add a test', attachments: [] });
    expect(r.events).toEqual([expect.objectContaining({ kind: 'prompt', prompt: 'add a test', promptId: 'gen-42' })]);
    expect(r.wantsContext).toBe(false);
  });

  it('afterShellExecution → Bash tool_result with the command and its output (Cursor sends no exit code)', () => {
    const r = at('afterShellExecution', { command: 'npm test', output: '1 failing', duration: 812, sandbox: false });
    expect(r.events).toEqual([expect.objectContaining({
      kind: 'tool_result', toolName: 'Bash', toolInput: { command: 'npm test' }, toolResponse: '1 failing', promptId: 'gen-42',
    })]);
    expect(r.events[0].toolFailed).toBeUndefined();
  });

  it('afterMCPExecution → mcp__<mcp_server_name>__<tool>, tool_input and result_json parsed from JSON strings', () => {
    const r = at('afterMCPExecution', { tool_name: 'search_issues', tool_input: '{"query":"auth"}', mcp_server_name: 'github', result_json: '{"hits":2}', duration: 30 });
    expect(r.events[0]).toMatchObject({
      kind: 'tool_result', toolName: 'mcp__github__search_issues', rawToolName: 'search_issues', toolInput: { query: 'auth' }, toolResponse: { hits: 2 },
    });
    // HTTP servers add their URL; the name still comes from mcp.json's key.
    expect(at('afterMCPExecution', { tool_name: 'list', mcp_server_name: 'linear', mcp_server_url: 'https://mcp.linear.app/sse', tool_input: '{}', result_json: '{}' }).events[0].toolName).toBe('mcp__linear__list');
    // A tool name of the MCP:<server>:<tool> form names its server; with neither, the server is unknown.
    expect(at('afterMCPExecution', { tool_name: 'MCP:github:create_issue', tool_input: '{}', result_json: '{}' }).events[0].toolName).toBe('mcp__github__create_issue');
    expect(at('afterMCPExecution', { tool_name: 'search_issues', tool_input: '{}', result_json: '{}' }).events[0].toolName).toBe('mcp__unknown__search_issues');
    // Our own recall tool is not work worth remembering, whichever way the server is named.
    expect(at('afterMCPExecution', { tool_name: 'mem_search', mcp_server_name: 'claude-mem', tool_input: '{}', result_json: '{}' }).events).toEqual([]);
    expect(at('afterMCPExecution', { tool_name: 'mem_search', tool_input: '{}', result_json: '{}' }).events).toEqual([]);
  });

  it('afterFileEdit → file_edit with edits', () => {
    const r = at('afterFileEdit', { file_path: '/home/dev/projects/demo/a.ts', edits: [{ old_string: 'a', new_string: 'b' }] });
    expect(r.events).toEqual([expect.objectContaining({
      kind: 'file_edit', filePath: '/home/dev/projects/demo/a.ts', toolName: 'Edit', edits: [{ oldText: 'a', newText: 'b' }],
    })]);
  });

  it('huge edit texts are truncated with the marker, edits stay objects', () => {
    const r = at('afterFileEdit', { file_path: '/home/dev/projects/demo/a.ts', edits: [{ old_string: 'a', new_string: 'N'.repeat(MAX_FIELD_CHARS * 5) }] });
    const edit = r.events[0].edits?.[0];
    expect(edit?.oldText).toBe('a');
    expect(edit?.newText?.length).toBeLessThanOrEqual(MAX_FIELD_CHARS);
    expect(edit?.newText?.endsWith(TRUNCATION_MARKER)).toBe(true);
  });

  it('beforeReadFile → a Read (content left out); afterAgentResponse → assistant_message', () => {
    const read = at('beforeReadFile', { file_path: '/home/dev/projects/demo/README.md', content: 'secret body' });
    expect(read.events).toEqual([expect.objectContaining({ kind: 'tool_use', toolName: 'Read', filePath: '/home/dev/projects/demo/README.md' })]);
    expect(JSON.stringify(read.events)).not.toContain('secret body');
    expect(at('afterAgentResponse', { text: 'Done.' }).events).toEqual([expect.objectContaining({ kind: 'assistant_message', message: 'Done.' })]);
  });

  it('postToolUse (generic) → tool_result with Cursor tool names normalized', () => {
    const r = at('postToolUse', { tool_name: 'Shell', tool_input: { command: 'ls' }, tool_output: 'a\nb', tool_use_id: 'tu-9' });
    expect(r.events[0]).toMatchObject({ toolName: 'Bash', rawToolName: 'Shell', toolUseId: 'tu-9', toolResponse: 'a\nb' });
  });

  it('stop stores nothing; sessionEnd → session_end', () => {
    expect(at('stop', { status: 'completed', loop_count: 0 }).events).toEqual([]);
    expect(at('sessionEnd', { reason: 'user_close' }).events).toEqual([expect.objectContaining({ kind: 'session_end', reason: 'user_close' })]);
  });

  it('a Cursor transcript is kept only inside ~/.cursor', () => {
    const inside = at('sessionStart', { transcript_path: '/home/dev/.cursor/projects/home-dev-projects-demo/agent-transcripts/c0nv-1234.jsonl' });
    expect(inside.events[0].transcriptPath).toBe('/home/dev/.cursor/projects/home-dev-projects-demo/agent-transcripts/c0nv-1234.jsonl');
    const outside = at('sessionStart', { transcript_path: '/home/dev/.cursor/../.ssh/id_rsa' });
    expect(outside.events[0].transcriptPath).toBeUndefined();
  });

  it('answers every event with valid JSON; permissive answers for the before* events, never a block', () => {
    const a = getAdapter('cursor');
    expect(JSON.parse(a.formatOutput('sessionStart', 'ctx'))).toEqual({ additional_context: 'ctx' });
    expect(JSON.parse(a.formatOutput('sessionStart', ''))).toEqual({});
    expect(JSON.parse(a.formatOutput('beforeSubmitPrompt', 'ctx'))).toEqual({ continue: true });
    for (const e of ['beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile']) {
      expect(JSON.parse(a.formatOutput(e, '')), e).toEqual({ permission: 'allow' });
    }
    for (const e of ['stop', 'afterShellExecution', 'afterFileEdit', 'sessionEnd']) {
      expect(JSON.parse(a.formatOutput(e, '')), e).toEqual({});
    }
  });
});
