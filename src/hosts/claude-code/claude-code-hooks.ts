/**
 * Claude Code hooks (snake_case stdin). Also the base of the Codex dialect, which differs only in
 * its turn id (`turn_id` instead of `prompt_id`) and a few events.
 */
import type { HookHostId } from '../../shared/hosts.js';
import { hookSpecificOutput, messageDraft, one, pick, pickStr, str, toolDraft, type Draft, type Payload } from '../../hook/adapters/common.js';
import { turnReplies } from './claude-code-transcript.js';
import { defineAdapter, type Handler } from '../../hook/adapters/define.js';

/** Subagent events carry `agent_id`; the session they run in is the parent. */
function subagent(p: Payload): Partial<Draft> {
  const agentId = str(p.agent_id);
  return agentId ? { agentId, isSubagent: true, parentSessionId: str(p.session_id) } : {};
}

/**
 * The turn's replies: the ones before the last from the transcript (when `replies` reads it), then
 * the last one the payload carries. A reply the transcript already holds is not sent twice.
 */
function turnMessages(last: string | undefined, earlier: string[]): string[] {
  const out = earlier.filter((t) => t !== last?.trim());
  return last ? [...out, last] : out;
}

/**
 * Handlers shared by the Claude lineage; `turnKey` names the host's own prompt/turn id field;
 * `replies` reads a turn's earlier replies from the host's transcript (Claude Code's format).
 */
export function claudeLineage(host: HookHostId, turnKey: 'prompt_id' | 'turn_id', replies?: (file: string | undefined) => string[]): Record<string, Handler> {
  const ids = (p: Payload): Partial<Draft> => ({ promptId: str(p[turnKey]), ...subagent(p) });
  const finished = (p: Payload, notes: string[], failed: boolean): Draft[] =>
    one(toolDraft(host, pickStr(p, 'tool_name'), {
      toolUseId: str(p.tool_use_id),
      toolInput: p.tool_input,
      toolResponse: failed ? pick(p, 'error', 'tool_response') : p.tool_response,
      toolFailed: failed || undefined,
      ...ids(p),
    }), notes);
  const stop = (p: Payload, notes: string[], file: string | undefined, extra: Partial<Draft> = {}): Draft[] => {
    // A Stop hook that made the agent continue fires again with stop_hook_active: same turn.
    if (p.stop_hook_active === true) {
      notes.push('Stop re-entry (stop_hook_active); already captured');
      return [];
    }
    const earlier = replies ? replies(file) : [];
    return turnMessages(pickStr(p, 'last_assistant_message'), earlier).flatMap((m) => messageDraft(m, { ...ids(p), ...extra }));
  };
  return {
    sessionstart: ({ p }) => [{ kind: 'session_start', reason: str(p.source), ...subagent(p) }],
    userpromptsubmit: ({ p, notes }) => {
      const prompt = str(p.prompt);
      if (!prompt) notes.push('empty prompt; nothing stored');
      return prompt ? [{ kind: 'prompt', prompt, ...ids(p) }] : [];
    },
    posttooluse: ({ p, notes }) => finished(p, notes, false),
    posttoolusefailure: ({ p, notes }) => finished(p, notes, true),
    stop: ({ p, notes, transcript }) => stop(p, notes, transcript(p.transcript_path)),
    // A subagent's replies are its own transcript's sidechain: only its last one is kept.
    subagentstop: ({ p, notes, transcript }) =>
      stop(p, notes, undefined, { isSubagent: true, transcriptPath: transcript(p.agent_transcript_path) }),
    precompact: ({ p }) => [{ kind: 'compact', reason: str(p.trigger), ...subagent(p) }],
    sessionend: ({ p }) => [{ kind: 'session_end', reason: str(p.reason) }],
  };
}

const CONTEXT_OUTPUT = new Set(['SessionStart', 'UserPromptSubmit', 'PostToolUse']);

/** Claude-style answer: context for the three events that take it, otherwise nothing. */
export function claudeOutput(event: string, context: string): string {
  return CONTEXT_OUTPUT.has(event) ? hookSpecificOutput(event, context) : '';
}

export const claudeCodeAdapter = defineAdapter({
  host: 'claude-code',
  events: ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'Stop', 'SubagentStop',
    'PreCompact', 'SessionEnd'],
  contextEvents: ['SessionStart', 'UserPromptSubmit'],
  handlers: claudeLineage('claude-code', 'prompt_id', turnReplies),
  sessionId: (p, env) => p.session_id ?? env.CLAUDE_CODE_SESSION_ID,
  cwd: (p) => [p.cwd],
  transcript: (p) => p.transcript_path,
  formatOutput: claudeOutput,
});
