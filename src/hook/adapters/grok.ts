/**
 * Grok Build hooks (`~/.grok/hooks/*.json`): Claude-shaped config, camelCase stdin (sessionId,
 * promptId, toolName, toolInput, toolUseId, toolResult, cwd, workspaceRoot, stopHookActive,
 * lastAssistantMessage, reason). `hookEventName` and GROK_HOOK_EVENT name the event in snake_case
 * (`post_tool_use`), which is the same event as `PostToolUse`. UserPromptSubmit is observe-only
 * in Grok, so only SessionStart asks for context (Claude-style output, which Grok accepts).
 */
import { hookSpecificOutput, messageDraft, one, pick, pickStr, str, toolDraft, type Draft, type Payload } from './common.js';
import { defineAdapter } from './define.js';

const ids = (p: Payload): Partial<Draft> => ({ promptId: str(p.promptId) });

function tool(p: Payload, notes: string[], failed: boolean): Draft[] {
  if (p.toolInputTruncated === true) notes.push('Grok truncated toolInput before sending it');
  return one(toolDraft('grok', pickStr(p, 'toolName'), {
    toolUseId: str(p.toolUseId),
    toolInput: p.toolInput,
    toolResponse: failed ? pick(p, 'error', 'toolResult') : pick(p, 'toolResult', 'toolResponse'),
    toolFailed: failed || undefined,
    ...ids(p),
  }), notes);
}

function stop(p: Payload, notes: string[], extra: Partial<Draft> = {}): Draft[] {
  if (p.stopHookActive === true) {
    notes.push('Stop re-entry (stopHookActive); already captured');
    return [];
  }
  return messageDraft(pickStr(p, 'lastAssistantMessage'), { ...ids(p), ...extra });
}

export const grokAdapter = defineAdapter({
  host: 'grok',
  events: ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop',
    'PreCompact', 'SessionEnd'],
  contextEvents: ['SessionStart'],
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
    subagentstop: ({ p, notes }) => stop(p, notes, { isSubagent: true, title: str(p.subagentType) }),
    precompact: ({ p }) => [{ kind: 'compact', reason: pickStr(p, 'trigger', 'reason') }],
    sessionend: ({ p }) => [{ kind: 'session_end', reason: str(p.reason) }],
  },
  payloadEvent: (p, env) => (p && pickStr(p, 'hookEventName', 'hook_event_name')) ?? str(env.GROK_HOOK_EVENT),
  sessionId: (p, env) => p.sessionId ?? env.GROK_SESSION_ID,
  cwd: (p) => [p.cwd, p.workspaceRoot],
  envCwd: ['GROK_WORKSPACE_ROOT'],
  transcript: (p) => p.transcriptPath,
  formatOutput: (event, context) => (event === 'SessionStart' ? hookSpecificOutput(event, context) : ''),
});
