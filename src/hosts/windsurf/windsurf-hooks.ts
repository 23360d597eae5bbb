/**
 * Windsurf Cascade hooks (docs.windsurf.com, Cascade hooks): `agent_action_name` names the event,
 * `trajectory_id` is the conversation (the session), the event's details sit in `tool_info`:
 * pre_user_prompt `user_prompt`; post_run_command `command_line` and `cwd` (no output, no exit
 * code); post_read_code `file_path` (no content; it may be a directory); post_write_code
 * `file_path` and `edits`; post_mcp_tool_use `mcp_server_name`, `mcp_tool_name`,
 * `mcp_tool_arguments`, `mcp_result`; post_cascade_response `response`. Hooks cannot inject
 * context (stdout is only shown to the user), so nothing is ever printed; pre_* hooks are allowed
 * by exiting 0. `execution_id` names one agent turn, shared by every call in it, so it is no
 * tool-call id (the content hash deduplicates redeliveries).
 */
import { messageDraft, one, parseMaybeJson, pick, pickStr, rec, str, toEdits, toolDraft, type Payload } from '../../hook/adapters/common.js';
import { defineAdapter } from '../../hook/adapters/define.js';

const info = (p: Payload): Payload => rec(p.tool_info) ?? {};

export const windsurfAdapter = defineAdapter({
  host: 'windsurf',
  events: ['pre_user_prompt', 'post_run_command', 'post_read_code', 'post_write_code', 'post_mcp_tool_use',
    'post_cascade_response', 'post_cascade_response_with_transcript'],
  contextEvents: [],
  handlers: {
    preuserprompt: ({ p, notes }) => {
      const prompt = pickStr(info(p), 'user_prompt', 'prompt');
      if (!prompt) notes.push('empty prompt; nothing stored');
      return prompt ? [{ kind: 'prompt', prompt }] : [];
    },
    postruncommand: ({ p, notes }) => {
      const t = info(p);
      const command = str(t.command_line);
      return one(command ? toolDraft('windsurf', 'run_command', { toolInput: { command, cwd: str(t.cwd) } }) : undefined,
        notes, 'no command_line in tool_info');
    },
    postreadcode: ({ p, notes }) => {
      const filePath = str(info(p).file_path);
      return one(filePath ? { kind: 'tool_result', toolName: 'Read', rawToolName: 'read_code', filePath, toolInput: { file_path: filePath } }
        : undefined, notes, 'no file_path in tool_info');
    },
    postwritecode: ({ p, notes }) => {
      const t = info(p);
      const filePath = str(t.file_path);
      return one(filePath ? { kind: 'file_edit', filePath, edits: toEdits(t.edits), toolName: 'Edit', rawToolName: 'write_code' }
        : undefined, notes, 'no file_path in tool_info');
    },
    postmcptooluse: ({ p, notes }) => {
      const t = info(p);
      const server = str(t.mcp_server_name);
      const tool = str(t.mcp_tool_name);
      return one(tool ? {
        kind: 'tool_result', toolName: `mcp__${server ?? 'unknown'}__${tool}`, rawToolName: tool,
        toolInput: parseMaybeJson(t.mcp_tool_arguments), toolResponse: parseMaybeJson(t.mcp_result),
      } : undefined, notes, 'no mcp_tool_name in tool_info');
    },
    postcascaderesponse: ({ p }) => messageDraft(pickStr(info(p), 'response')),
    postcascaderesponsewithtranscript: ({ p, notes, transcript }) => {
      const transcriptPath = transcript(pick(info(p), 'transcript_path', 'transcript'));
      const message = pickStr(info(p), 'response');
      if (!message && !transcriptPath) notes.push('no response text or usable transcript; nothing stored');
      return message || transcriptPath ? [{ kind: 'assistant_message', message, transcriptPath }] : [];
    },
  },
  payloadEvent: (p) => (p ? str(p.agent_action_name) : undefined),
  sessionId: (p) => p.trajectory_id,
  cwd: (p) => [info(p).cwd, p.cwd, Array.isArray(p.workspace_roots) ? p.workspace_roots[0] : undefined],
  transcript: (p) => p.transcript_path,
  formatOutput: () => '',
});
