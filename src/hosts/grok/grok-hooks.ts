/**
 * Grok Build hooks (`~/.grok/hooks/*.json`, Claude's layout), as test/fixtures/hosts/grok-build
 * shows them: every payload carries camelCase keys (sessionId, promptId, toolName, toolInput,
 * toolUseId, toolResult, transcriptPath, stopHookActive, lastAssistantMessage, reason) and
 * Claude-style snake_case twins (session_id, tool_name, tool_input, tool_response, tool_use_id,
 * transcript_path). Each field is read once, camelCase first, the twin only when it is missing.
 * `hookEventName` and GROK_HOOK_EVENT name the event in snake_case (`post_tool_use`).
 *
 * The shell tool is `run_terminal_command`; its `toolResult` is an object whose `output` is an
 * array of byte values, with the text the model saw in `output_for_prompt` (after an
 * `exit: <code>` line) and the code in `exit_code`: stored as `{output, exit_code, …}`.
 *
 * Grok drops SessionStart and UserPromptSubmit output; it reads PostToolUse `additionalContext`,
 * so memory is asked for on PostToolUse, and handed out once per session (the first tool call).
 */
import { hookSpecificOutput, messageDraft, one, pick, pickStr, rec, str, toolDraft, type Draft, type Payload } from '../../hook/adapters/common.js';
import { defineAdapter } from '../../hook/adapters/define.js';

const ids = (p: Payload): Partial<Draft> => ({ promptId: pickStr(p, 'promptId', 'prompt_id') });

const isBytes = (v: unknown): v is number[] =>
  Array.isArray(v) && v.every((b) => typeof b === 'number' && Number.isInteger(b) && b >= 0 && b < 256);

/** The shell result's text: `output_for_prompt` without its exit line, else the bytes decoded. */
function shellText(r: Payload): string | undefined {
  const forPrompt = typeof r.output_for_prompt === 'string' ? r.output_for_prompt : undefined;
  if (forPrompt !== undefined) {
    const code = r.exit_code;
    const exitLine = typeof code === 'number' ? `exit: ${code}\n` : undefined;
    return exitLine && forPrompt.startsWith(exitLine) ? forPrompt.slice(exitLine.length) : forPrompt;
  }
  return isBytes(r.output) ? Buffer.from(r.output).toString('utf8') : undefined;
}

/** A tool result with its byte array decoded; any other result as it came. */
function decodeToolResult(v: unknown): unknown {
  const r = rec(v);
  if (!r || !isBytes(r.output)) return v;
  const out: Payload = {};
  for (const [k, x] of Object.entries(r)) if (k !== 'output' && k !== 'output_for_prompt') out[k] = x;
  out.output = shellText(r) ?? '';
  return out;
}

function tool(p: Payload, notes: string[], failed: boolean): Draft[] {
  if (p.toolInputTruncated === true) notes.push('Grok truncated toolInput before sending it');
  const result = pick(p, 'toolResult', 'tool_response');
  return one(toolDraft('grok', pickStr(p, 'toolName', 'tool_name'), {
    toolUseId: pickStr(p, 'toolUseId', 'tool_use_id'),
    toolInput: pick(p, 'toolInput', 'tool_input'),
    toolResponse: failed ? pick(p, 'error', 'toolResult', 'tool_response') : decodeToolResult(result),
    toolFailed: failed || undefined,
    ...ids(p),
  }), notes);
}

function stop(p: Payload, notes: string[], extra: Partial<Draft> = {}): Draft[] {
  if (pick(p, 'stopHookActive', 'stop_hook_active') === true) {
    notes.push('Stop re-entry (stopHookActive); already captured');
    return [];
  }
  // The extra Stop after SessionEnd (reason `shutdown`) has no message: nothing to store.
  return messageDraft(pickStr(p, 'lastAssistantMessage', 'last_assistant_message'), { ...ids(p), ...extra });
}

export const grokAdapter = defineAdapter({
  host: 'grok',
  events: ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop',
    'PreCompact', 'SessionEnd'],
  contextEvents: ['PostToolUse'],
  contextOnceEvents: ['PostToolUse'],
  handlers: {
    sessionstart: ({ p }) => [{ kind: 'session_start', reason: pickStr(p, 'source', 'reason') }],
    userpromptsubmit: ({ p, notes }) => {
      const prompt = pickStr(p, 'prompt', 'userPrompt');
      if (!prompt) notes.push('empty prompt; nothing stored');
      return prompt ? [{ kind: 'prompt', prompt, ...ids(p) }] : [];
    },
    posttooluse: ({ p, notes }) => tool(p, notes, false),
    posttoolusefailure: ({ p, notes }) => tool(p, notes, true),
    stop: ({ p, notes }) => stop(p, notes),
    subagentstop: ({ p, notes }) => stop(p, notes, { isSubagent: true, title: pickStr(p, 'subagentType', 'subagent_type') }),
    precompact: ({ p }) => [{ kind: 'compact', reason: pickStr(p, 'trigger', 'reason') }],
    sessionend: ({ p }) => [{ kind: 'session_end', reason: str(p.reason) }],
  },
  payloadEvent: (p, env) => (p && pickStr(p, 'hookEventName', 'hook_event_name')) ?? str(env.GROK_HOOK_EVENT),
  sessionId: (p, env) => p.sessionId ?? p.session_id ?? env.GROK_SESSION_ID,
  cwd: (p) => [p.cwd, p.workspaceRoot],
  envCwd: ['GROK_WORKSPACE_ROOT'],
  // `~/.grok/sessions/<url-encoded cwd>/<session id>/updates.jsonl`, from PreToolUse on; kept as
  // the session's log (inside ~/.grok), never read as a Claude transcript.
  transcript: (p) => pick(p, 'transcriptPath', 'transcript_path'),
  formatOutput: (event, context) => (event === 'PostToolUse' ? hookSpecificOutput(event, context) : ''),
});
