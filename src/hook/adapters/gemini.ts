/**
 * Gemini CLI hooks (snake_case, Claude-like). Context reaches the model from SessionStart,
 * BeforeAgent and AfterTool as `hookSpecificOutput.additionalContext`; we answer the first two.
 * PreCompress fires before every model call (with trigger "auto") whether or not anything is
 * compressed, so it is not stored as a compaction.
 */
import { hookSpecificOutput, messageDraft, one, pickStr, rec, str, toolDraft } from './common.js';
import { defineAdapter } from './define.js';

const CONTEXT_OUTPUT = new Set(['SessionStart', 'BeforeAgent', 'AfterTool']);

/** Gemini hands BeforeAgent the user turn with the hooks' context parts in front: not the user's words. */
const HOOK_CONTEXT = /<hook_context>[\s\S]*?<\/hook_context>/g;

export const geminiAdapter = defineAdapter({
  host: 'gemini',
  events: ['SessionStart', 'BeforeAgent', 'AfterTool', 'AfterAgent', 'PreCompress', 'SessionEnd'],
  contextEvents: ['SessionStart', 'BeforeAgent'],
  handlers: {
    sessionstart: ({ p }) => [{ kind: 'session_start', reason: str(p.source) }],
    beforeagent: ({ p, notes }) => {
      const prompt = str(typeof p.prompt === 'string' ? p.prompt.replace(HOOK_CONTEXT, '').trim() : p.prompt);
      if (!prompt) notes.push('empty prompt; nothing stored');
      return prompt ? [{ kind: 'prompt', prompt }] : [];
    },
    aftertool: ({ p, notes }) => {
      const response = p.tool_response;
      return one(toolDraft('gemini', pickStr(p, 'tool_name'), {
        toolInput: p.tool_input,
        toolResponse: response,
        toolFailed: rec(response)?.error ? true : undefined,
      }), notes);
    },
    afteragent: ({ p, notes }) => {
      if (p.stop_hook_active === true) {
        notes.push('AfterAgent re-entry (stop_hook_active); already captured');
        return [];
      }
      return messageDraft(pickStr(p, 'prompt_response'));
    },
    precompress: ({ notes }) => {
      notes.push('PreCompress fires before every model call; not stored');
      return [];
    },
    sessionend: ({ p }) => [{ kind: 'session_end', reason: str(p.reason) }],
  },
  sessionId: (p, env) => p.session_id ?? env.GEMINI_SESSION_ID,
  cwd: (p) => [p.cwd],
  envCwd: ['GEMINI_CWD', 'GEMINI_PROJECT_DIR'],
  transcript: (p) => p.transcript_path,
  formatOutput: (event, context) => (CONTEXT_OUTPUT.has(event) ? hookSpecificOutput(event, context) : ''),
});
