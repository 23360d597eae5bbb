/**
 * Cursor hooks (`~/.cursor/hooks.json`, camelCase event names, snake_case fields): conversation_id
 * is the session, generation_id the turn, workspace_roots[0] the project. Context goes back as
 * `additional_context` on sessionStart. before* events must be answered: beforeSubmitPrompt with
 * `{"continue":true}`, the permission events with `{"permission":"allow"}`; every other answer is
 * an empty object. Never a deny, never a stop follow-up.
 */
import { messageDraft, one, parseMaybeJson, pick, pickStr, str, toEdits, toolDraft, type Draft, type Payload } from './common.js';
import { defineAdapter } from './define.js';

const PERMISSION_EVENTS = new Set(['beforeShellExecution', 'beforeMCPExecution', 'beforeReadFile']);

const turn = (p: Payload): Partial<Draft> => ({ promptId: str(p.generation_id) });

/** Cursor names MCP tools by their bare name (sometimes `MCP:<name>`); the server is separate. */
function mcpName(p: Payload): string | undefined {
  const raw = pickStr(p, 'tool_name');
  if (!raw) return undefined;
  const tool = raw.replace(/^MCP:\s*/i, '');
  if (tool.startsWith('mcp__')) return tool;
  const server = pickStr(p, 'server_name', 'mcp_server_name', 'server') ?? 'unknown';
  return `mcp__${server}__${tool}`;
}

function exitFailed(p: Payload): true | undefined {
  const code = pick(p, 'exit_code', 'exitCode');
  return typeof code === 'number' && code !== 0 ? true : undefined;
}

export const cursorAdapter = defineAdapter({
  host: 'cursor',
  events: ['sessionStart', 'beforeSubmitPrompt', 'afterShellExecution', 'afterMCPExecution', 'afterFileEdit',
    'beforeReadFile', 'postToolUse', 'postToolUseFailure', 'afterAgentResponse', 'stop', 'preCompact', 'sessionEnd',
    'beforeShellExecution', 'beforeMCPExecution'],
  contextEvents: ['sessionStart'],
  handlers: {
    sessionstart: ({ p }) => [{ kind: 'session_start', reason: str(p.source) }],
    beforesubmitprompt: ({ p, notes }) => {
      const prompt = str(p.prompt);
      if (!prompt) notes.push('empty prompt; nothing stored');
      return prompt ? [{ kind: 'prompt', prompt, ...turn(p) }] : [];
    },
    aftershellexecution: ({ p, notes }) => one(toolDraft('cursor', 'Shell', {
      toolInput: { command: p.command, cwd: p.cwd },
      toolResponse: pick(p, 'output'),
      toolFailed: exitFailed(p),
      ...turn(p),
    }), notes),
    aftermcpexecution: ({ p, notes }) => {
      const name = mcpName(p);
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

