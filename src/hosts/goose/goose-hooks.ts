/**
 * Goose plugin hooks (`~/.agents/plugins/<name>/hooks/hooks.json`, Open Plugins format). stdin is
 * goose's `HookContext` (block/goose `crates/goose/src/hooks/mod.rs`): `event`, `session_id`,
 * `matcher_context` (the matcher's target: tool name, prompt text, file path or shell command),
 * `tool_call_id` (goose's id of one tool call, the same on its pre and post events), `tool_name`,
 * `tool_input`, `tool_output`, `message` (the prompt), `last_assistant_message`, `working_dir`.
 * Output is not read (observe-only). Register either PostToolUse or the After* events, not both,
 * or a tool call is stored twice.
 */
import { messageDraft, one, pickStr, rec, str, toolDraft, type Draft, type Payload } from '../../hook/adapters/common.js';
import { defineAdapter } from '../../hook/adapters/define.js';

/** The text editor tool does several things; its `command` says which. */
function editorName(raw: string | undefined, input: unknown): string | undefined {
  if (!raw || !/(^|__)text_editor$/.test(raw)) return undefined;
  const command = str(rec(input)?.command);
  if (command === 'view') return 'Read';
  if (command === 'write') return 'Write';
  return command ? 'Edit' : undefined;
}

function tool(p: Payload, notes: string[], failed: boolean): Draft[] {
  const raw = pickStr(p, 'tool_name');
  const d = toolDraft('goose', raw, {
    toolUseId: str(p.tool_call_id),
    toolInput: p.tool_input,
    toolResponse: p.tool_output,
    toolFailed: failed || undefined,
  });
  const refined = editorName(raw, p.tool_input);
  return one(d && refined ? { ...d, toolName: refined } : d, notes);
}

export const gooseAdapter = defineAdapter({
  host: 'goose',
  events: ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'AfterShellExecution',
    'AfterFileEdit', 'Stop', 'SessionEnd'],
  contextEvents: [],
  handlers: {
    sessionstart: () => [{ kind: 'session_start' }],
    userpromptsubmit: ({ p, notes }) => {
      const prompt = pickStr(p, 'message', 'matcher_context', 'prompt');
      if (!prompt) notes.push('empty prompt; nothing stored');
      return prompt ? [{ kind: 'prompt', prompt }] : [];
    },
    posttooluse: ({ p, notes }) => tool(p, notes, false),
    posttoolusefailure: ({ p, notes }) => tool(p, notes, true),
    aftershellexecution: ({ p, notes }) => {
      const command = str(rec(p.tool_input)?.command) ?? pickStr(p, 'command', 'matcher_context');
      return one(command ? toolDraft('goose', 'shell', {
        toolUseId: str(p.tool_call_id),
        toolInput: { command },
        toolResponse: p.tool_output,
      }) : undefined, notes, 'no command in the payload');
    },
    afterfileedit: ({ p, notes }) => {
      const filePath = pickStr(p, 'file_path', 'path') ?? str(rec(p.tool_input)?.path) ?? pickStr(p, 'matcher_context');
      return one(filePath ? { kind: 'file_edit', filePath, toolName: 'Edit', rawToolName: pickStr(p, 'tool_name'), toolUseId: str(p.tool_call_id) }
        : undefined, notes, 'no file path in the payload');
    },
    stop: ({ p }) => messageDraft(pickStr(p, 'last_assistant_message', 'response', 'message')),
    sessionend: ({ p }) => [{ kind: 'session_end', reason: str(p.reason) }],
  },
  payloadEvent: (p) => (p ? pickStr(p, 'event', 'hook_event_name') : undefined),
  sessionId: (p) => p.session_id,
  cwd: (p) => [p.working_dir, p.cwd],
  formatOutput: () => '',
});
