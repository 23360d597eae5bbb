/**
 * GitHub Copilot CLI hooks, both dialects (chosen by how the hook file spells the event):
 *  - camelCase names (sessionStart, userPromptSubmitted, postToolUse, agentStop, sessionEnd, …) get
 *    camelCase fields: sessionId, epoch-ms timestamp, toolName, toolArgs (an object, or a JSON
 *    string in some versions), toolResult{resultType,textResultForLlm}, transcriptPath;
 *  - PascalCase names (SessionStart, UserPromptSubmit, PostToolUse, Stop, SessionEnd, …) get
 *    Claude-like snake_case fields: session_id, ISO timestamp, tool_name, tool_input,
 *    tool_result{result_type,text_result_for_llm}, transcript_path.
 * Copilot sends no prompt or tool-call ids. It reads only a top-level `additionalContext` from
 * hook output (for both dialects); `hookSpecificOutput` is ignored.
 */
import { messageDraft, one, parseMaybeJson, pick, pickStr, rec, str, toolDraft, type Payload } from '../../hook/adapters/common.js';
import { defineAdapter, type Handler } from '../../hook/adapters/define.js';

const CONTEXT_EVENTS = ['sessionStart', 'SessionStart', 'userPromptSubmitted', 'UserPromptSubmit'];

function tool(p: Payload, notes: string[], failed: boolean) {
  const result = pick(p, 'toolResult', 'tool_result');
  const r = rec(result);
  const resultType = r ? str(r.resultType) ?? str(r.result_type) : undefined;
  return one(toolDraft('copilot', pickStr(p, 'toolName', 'tool_name'), {
    toolInput: parseMaybeJson(pick(p, 'toolArgs', 'tool_input', 'toolInput')),
    toolResponse: failed ? pick(p, 'error', 'toolResult', 'tool_result') : result,
    toolFailed: failed || (resultType !== undefined && resultType !== 'success') || undefined,
  }), notes);
}

const prompt: Handler = ({ p, notes }) => {
  const text = str(p.prompt);
  if (!text) notes.push('empty prompt; nothing stored');
  return text ? [{ kind: 'prompt', prompt: text }] : [];
};

const stop: Handler = ({ p, notes }) => {
  if (p.stop_hook_active === true || p.stopHookActive === true) {
    notes.push('stop re-entry (stop_hook_active); already captured');
    return [];
  }
  const message = pickStr(p, 'lastAssistantMessage', 'last_assistant_message');
  if (!message) notes.push('stop carries no message; nothing stored');
  return messageDraft(message);
};

const sessionStart: Handler = ({ p }) => [{ kind: 'session_start', reason: str(p.source) }];
const compact: Handler = ({ p }) => [{ kind: 'compact', reason: pickStr(p, 'trigger', 'reason') }];
const sessionEnd: Handler = ({ p }) => [{ kind: 'session_end', reason: str(p.reason) }];

export const copilotAdapter = defineAdapter({
  host: 'copilot',
  events: ['sessionStart', 'userPromptSubmitted', 'postToolUse', 'postToolUseFailure', 'agentStop', 'preCompact',
    'sessionEnd', 'SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'PreCompact',
    'SessionEnd'],
  contextEvents: CONTEXT_EVENTS,
  handlers: {
    sessionstart: sessionStart,
    userpromptsubmitted: prompt,
    userpromptsubmit: prompt,
    posttooluse: ({ p, notes }) => tool(p, notes, false),
    posttoolusefailure: ({ p, notes }) => tool(p, notes, true),
    agentstop: stop,
    stop,
    precompact: compact,
    sessionend: sessionEnd,
  },
  payloadEvent: (p) => (p ? pickStr(p, 'hook_event_name', 'hookName') : undefined),
  sessionId: (p) => p.sessionId ?? p.session_id,
  cwd: (p) => [p.cwd],
  envCwd: ['COPILOT_PROJECT_DIR'],
  transcript: (p) => p.transcriptPath ?? p.transcript_path,
  formatOutput: (event, context) =>
    context && CONTEXT_EVENTS.includes(event) ? JSON.stringify({ additionalContext: context }) : '',
});
