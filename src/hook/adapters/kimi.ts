/**
 * Kimi hooks, both generations (`[[hooks]]` in `~/.kimi/config.toml` for the Python kimi-cli,
 * `~/.kimi-code/config.toml` for the TypeScript Kimi Code). Both send snake_case JSON with
 * hook_event_name, session_id and cwd; tool events carry tool_name, tool_input, tool_call_id and
 * tool_output (PostToolUse) or error (PostToolUseFailure). There is no transcript path.
 * Context is plain text on stdout: UserPromptSubmit's stdout is added to the context in both
 * generations; SessionStart's only in kimi-cli (Kimi Code, which sends `client_type`, ignores it).
 */
import { messageDraft, one, pick, pickStr, str, toolDraft, type Draft, type Payload } from './common.js';
import { defineAdapter } from './define.js';

const turn = (p: Payload): Partial<Draft> => ({ promptId: pickStr(p, 'prompt_id', 'turn_id') });

function tool(p: Payload, notes: string[], failed: boolean): Draft[] {
  return one(toolDraft('kimi', pickStr(p, 'tool_name'), {
    toolUseId: str(p.tool_call_id),
    toolInput: p.tool_input,
    toolResponse: failed ? pick(p, 'error', 'tool_output') : pick(p, 'tool_output', 'tool_response'),
    toolFailed: failed || undefined,
    ...turn(p),
  }), notes);
}

export const kimiAdapter = defineAdapter({
  host: 'kimi',
  events: ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop',
    'PreCompact', 'SessionEnd'],
  contextEvents: ['SessionStart', 'UserPromptSubmit'],
  // Kimi Code (it sends `client_type`) ignores SessionStart output; only kimi-cli reads it.
  wantsContext: (event, p) => event === 'UserPromptSubmit' || (event === 'SessionStart' && !(p && 'client_type' in p)),
  handlers: {
    sessionstart: ({ p }) => [{ kind: 'session_start', reason: str(p.source) }],
    userpromptsubmit: ({ p, notes }) => {
      const prompt = str(p.prompt);
      if (!prompt) notes.push('empty prompt; nothing stored');
      return prompt ? [{ kind: 'prompt', prompt, ...turn(p) }] : [];
    },
    posttooluse: ({ p, notes }) => tool(p, notes, false),
    posttoolusefailure: ({ p, notes }) => tool(p, notes, true),
    stop: ({ p, notes }) => {
      if (p.stop_hook_active === true) notes.push('Stop re-entry (stop_hook_active); already captured');
      return p.stop_hook_active === true ? [] : messageDraft(pickStr(p, 'last_assistant_message'), turn(p));
    },
    subagentstop: ({ p }) => messageDraft(pickStr(p, 'response'), { isSubagent: true, title: str(p.agent_name) }),
    precompact: ({ p }) => [{ kind: 'compact', reason: str(p.trigger) }],
    sessionend: ({ p }) => [{ kind: 'session_end', reason: str(p.reason) }],
  },
  sessionId: (p) => p.session_id,
  cwd: (p) => [p.cwd],
  formatOutput: (event, context) => (event === 'UserPromptSubmit' || event === 'SessionStart' ? context : ''),
});
