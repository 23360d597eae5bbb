/**
 * Cursor hooks (`~/.cursor/hooks.json`, camelCase event names, snake_case fields), as listed in
 * Cursor's hooks reference (cursor.com/docs/hooks): conversation_id is the session,
 * generation_id the turn, workspace_roots[0] the project. Context goes back as
 * `additional_context` on sessionStart (honoured by the CLI; the IDE is reported to drop it, so
 * there memory arrives through MCP). before* events must be answered: beforeSubmitPrompt with
 * `{"continue":true}`, the permission events with `{"permission":"allow"}`; every other answer is
 * an empty object. Never a deny, never a stop follow-up.
 * No Cursor event carries an exit code (afterShellExecution has command, output, duration,
 * sandbox), so a shell call is never marked failed; sessionStart has no start reason.
 */
import { messageDraft, one, parseMaybeJson, pick, pickStr, str, toEdits, toolDraft, type Draft, type Payload } from '../../hook/adapters/common.js';
import { defineAdapter } from '../../hook/adapters/define.js';

const PERMISSION_EVENTS = new Set(['beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile']);

const turn = (p: Payload): Partial<Draft> => ({ promptId: str(p.generation_id) });

/**
 * `mcp__<server>__<tool>`. The server is `mcp_server_name` (its key in mcp.json, sent by current
 * Cursor), else the `MCP:<server>:<tool>` form some releases give the tool name; releases that
 * send neither leave the server unknown.
 */
function cursorMcpName(p: Payload): string | undefined {
  const raw = pickStr(p, 'tool_name');
  if (!raw) return undefined;
  const tool = raw.replace(/^MCP:\s*/i, '');
  if (tool.startsWith('mcp__')) return tool;
  const server = pickStr(p, 'mcp_server_name');
  if (server) return `mcp__${server}__${tool}`;
  const split = /^([^:\s]+):(.+)$/.exec(tool);
  return split ? `mcp__${split[1]}__${split[2]}` : `mcp__unknown__${tool}`;
}

export const cursorAdapter = defineAdapter({
  host: 'cursor',
  events: ['sessionStart', 'beforeSubmitPrompt', 'afterShellExecution', 'afterMCPExecution', 'afterFileEdit',
    'beforeReadFile', 'postToolUse', 'postToolUseFailure', 'afterAgentResponse', 'stop', 'preCompact', 'sessionEnd',
    'beforeShellExecution', 'beforeMCPExecution'],
  contextEvents: ['sessionStart'],
  handlers: {
    sessionstart: () => [{ kind: 'session_start' }],
    beforesubmitprompt: ({ p, notes }) => {
      const prompt = str(p.prompt);
      if (!prompt) notes.push('empty prompt; nothing stored');
      return prompt ? [{ kind: 'prompt', prompt, ...turn(p) }] : [];
    },
    aftershellexecution: ({ p, notes }) => one(toolDraft('cursor', 'Shell', {
      toolInput: { command: p.command },
      toolResponse: pick(p, 'output'),
      ...turn(p),
    }), notes),
    aftermcpexecution: ({ p, notes }) => {
      const name = cursorMcpName(p);
      return one(name ? {
        kind: 'tool_result', toolName: name, rawToolName: str(p.tool_name),
        toolInput: parseMaybeJson(p.tool_input), toolResponse: parseMaybeJson(p.result_json), ...turn(p),
      } : undefined, notes);
    },
    afterfileedit: ({ p, notes }) => {
      const filePath = str(p.file_path);
      return one(filePath ? { kind: 'file_edit', filePath, edits: toEdits(p.edits), toolName: 'Edit', ...turn(p) } : undefined,
        notes, 'no file_path in the payload');
    },
    // Cursor has no after-read event: the read is recorded when it is allowed (content left out).
    beforereadfile: ({ p, notes }) => {
      const filePath = str(p.file_path);
      return one(filePath ? { kind: 'tool_use', toolName: 'Read', rawToolName: 'beforeReadFile', filePath,
        toolInput: { file_path: filePath }, ...turn(p) } : undefined, notes, 'no file_path in the payload');
    },
    posttooluse: ({ p, notes }) => one(toolDraft('cursor', pickStr(p, 'tool_name'), {
      toolUseId: str(p.tool_use_id),
      toolInput: parseMaybeJson(p.tool_input),
      toolResponse: parseMaybeJson(pick(p, 'tool_output', 'tool_response', 'result_json', 'output')),
      ...turn(p),
    }), notes),
    posttoolusefailure: ({ p, notes }) => one(toolDraft('cursor', pickStr(p, 'tool_name'), {
      toolUseId: str(p.tool_use_id),
      toolInput: parseMaybeJson(p.tool_input),
      toolResponse: pick(p, 'error_message', 'error', 'tool_output'),
      toolFailed: true,
      ...turn(p),
    }), notes),
    afteragentresponse: ({ p }) => messageDraft(pickStr(p, 'text', 'response'), turn(p)),
    stop: ({ notes }) => {
      notes.push('stop carries no message; nothing stored');
      return [];
    },
    precompact: ({ p }) => [{ kind: 'compact', reason: pickStr(p, 'trigger', 'reason') }],
    sessionend: ({ p }) => [{ kind: 'session_end', reason: pickStr(p, 'reason', 'status') }],
  },
  sessionId: (p) => p.conversation_id ?? p.session_id,
  cwd: (p) => [Array.isArray(p.workspace_roots) ? p.workspace_roots[0] : undefined, p.cwd],
  envCwd: ['CURSOR_PROJECT_DIR'],
  transcript: (p) => p.transcript_path,
  formatOutput: (event, context) => {
    if (event === 'sessionStart') return JSON.stringify(context ? { additional_context: context } : {});
    if (event === 'beforeSubmitPrompt') return JSON.stringify({ continue: true });
    if (PERMISSION_EVENTS.has(event)) return JSON.stringify({ permission: 'allow' });
    return '{}';
  },
});

