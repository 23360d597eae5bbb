/**
 * Antigravity (`agy` CLI and IDE) named hooks from `~/.gemini/config/hooks.json` or a plugin:
 * camelCase stdin with conversationId, transcriptPath, invocationNum, workspacePaths[],
 * toolCall{name,args} and terminationReason (Stop). There is no SessionEnd. Context is injected
 * from PreInvocation (and SessionStart) as `{"injectSteps":[{"ephemeralMessage": …}]}`.
 * `invocationNum` counts invocations; it is not used as a prompt id (a restarted count would
 * merge two different turns).
 */
import { messageDraft, one, parseMaybeJson, pick, pickStr, rec, str, toolDraft, type Payload } from '../../hook/adapters/common.js';
import { defineAdapter } from '../../hook/adapters/define.js';

const call = (p: Payload): Payload => rec(p.toolCall) ?? {};

export const antigravityAdapter = defineAdapter({
  host: 'antigravity',
  events: ['SessionStart', 'PreInvocation', 'PostToolUse', 'PostInvocation', 'Stop', 'PreToolUse'],
  contextEvents: ['SessionStart', 'PreInvocation'],
  handlers: {
    sessionstart: ({ p }) => [{ kind: 'session_start', reason: pickStr(p, 'source', 'reason') }],
    // The prompt text is not documented for PreInvocation; captured when present.
    preinvocation: ({ p }) => {
      const prompt = pickStr(p, 'prompt', 'userPrompt', 'userRequest');
      return prompt ? [{ kind: 'prompt', prompt }] : [];
    },
    posttooluse: ({ p, notes }) => {
      const c = call(p);
      return one(toolDraft('antigravity', pickStr(c, 'name') ?? pickStr(p, 'toolName'), {
        toolUseId: pickStr(c, 'id') ?? pickStr(p, 'toolCallId'),
        toolInput: parseMaybeJson(pick(c, 'args', 'arguments') ?? p.toolInput),
        toolResponse: pick(p, 'toolResult', 'toolOutput', 'result', 'output'),
      }), notes);
    },
    postinvocation: ({ p }) => messageDraft(pickStr(p, 'response', 'assistantMessage', 'lastAssistantMessage')),
    stop: ({ p }) => messageDraft(pickStr(p, 'response', 'lastAssistantMessage')),
  },
  payloadEvent: (p) => (p ? pickStr(p, 'hookEventName', 'hook_event_name') : undefined),
  sessionId: (p) => p.conversationId ?? p.sessionId,
  cwd: (p) => [Array.isArray(p.workspacePaths) ? p.workspacePaths[0] : undefined, p.cwd],
  transcript: (p) => p.transcriptPath,
  formatOutput: (event, context) =>
    context && (event === 'PreInvocation' || event === 'SessionStart')
      ? JSON.stringify({ injectSteps: [{ ephemeralMessage: context }] })
      : '',
});
