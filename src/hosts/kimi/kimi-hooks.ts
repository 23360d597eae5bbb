/**
 * Kimi hooks, both generations (`[[hooks]]` in `~/.kimi/config.toml` for the Python kimi-cli,
 * `~/.kimi-code/config.toml` for the TypeScript Kimi Code, which sends `client_type`). Snake_case
 * JSON with hook_event_name, session_id and cwd; tool events carry tool_name, tool_input,
 * tool_call_id and tool_output (PostToolUse) or error (PostToolUseFailure). No transcript path.
 * Context is plain text on stdout; only UserPromptSubmit's reaches Kimi Code's model (SessionStart's
 * only kimi-cli's).
 *
 * Kimi Code, as test/fixtures/hosts/kimi-code/README.md shows it:
 * - the prompt is written by TurnStarted, which has the plain text and the host's own `turn_id`;
 *   UserPromptSubmit (content parts, no id) only asks for context, and writes the prompt only for a
 *   steer (a prompt added to a running turn, which starts no turn) and for kimi-cli;
 * - Stop carries no assistant message and PostToolUse is killed at the end of the turn: Stop reads
 *   the turn from the session's wire.jsonl (kimi-wire.ts) — the answer, and every tool result again
 *   (same tool call ids, so stored once) — and ends with a `turn_end`, which writes the session's
 *   summary: SessionEnd never fires under `kimi -p`.
 */
import { normalizeToolName } from '../../shared/tool-names.js';
import { messageDraft, one, pick, pickStr, rec, str, toolDraft, type Draft, type Payload } from '../../hook/adapters/common.js';
import { defineAdapter, type HandlerCtx } from '../../hook/adapters/define.js';
import { findWire, readLastTurn, type WireTurn } from './kimi-wire.js';

const isKimiCode = (p: Payload | undefined): boolean => !!p && 'client_type' in p;

/** turn_id is a number in Kimi Code (0 for a session's first turn). */
function turnId(p: Payload): string | undefined {
  const v = p.turn_id ?? p.prompt_id;
  return typeof v === 'number' && Number.isInteger(v) ? String(v) : str(v);
}

/** `prompt` is a string (kimi-cli, TurnStarted) or content parts `[{type:"text",text}]` (Kimi Code). */
function promptText(v: unknown): string | undefined {
  if (!Array.isArray(v)) return str(v);
  const texts = v.map((part) => rec(part)).filter((part) => part?.type === 'text').map((part) => str(part?.text)).filter(Boolean);
  return texts.length ? texts.join('\n') : undefined;
}

function tool(p: Payload, notes: string[], failed: boolean): Draft[] {
  return one(toolDraft('kimi', pickStr(p, 'tool_name'), {
    toolUseId: str(p.tool_call_id),
    toolInput: p.tool_input,
    toolResponse: failed ? pick(p, 'error', 'tool_output') : pick(p, 'tool_output', 'tool_response'),
    toolFailed: failed || undefined,
  }), notes);
}

function userPrompt({ p, notes }: HandlerCtx): Draft[] {
  if (isKimiCode(p) && p.is_steer !== true) {
    notes.push('prompt left to TurnStarted (it has the turn id); asking for context only');
    return [];
  }
  const prompt = promptText(p.prompt);
  if (!prompt) notes.push('empty prompt; nothing stored');
  return prompt ? [{ kind: 'prompt', prompt, promptId: turnId(p) }] : [];
}

function turnStarted({ p, notes }: HandlerCtx): Draft[] {
  const origin = str(p.origin_kind);
  if (origin && origin !== 'user') {
    notes.push(`turn started by ${origin}, not by a prompt; nothing stored`);
    return [];
  }
  const prompt = promptText(p.prompt);
  if (!prompt) notes.push('empty prompt; nothing stored');
  return prompt ? [{ kind: 'prompt', prompt, promptId: turnId(p) }] : [];
}

function fromWire(turn: WireTurn): Draft[] {
  return turn.calls.map((c): Draft => ({
    kind: 'tool_result', toolName: normalizeToolName('kimi', c.name), rawToolName: c.name, toolUseId: c.id,
    toolInput: c.args, toolResponse: c.output, toolFailed: c.isError || undefined,
  }));
}

function stop({ p, env, notes }: HandlerCtx): Draft[] {
  if (p.stop_hook_active === true) {
    notes.push('Stop re-entry (stop_hook_active); already captured');
    return [];
  }
  const given = pickStr(p, 'last_assistant_message');
  if (given || !isKimiCode(p)) return messageDraft(given);
  const file = findWire(String(p.session_id ?? ''), env);
  let turn: WireTurn | undefined;
  try {
    turn = file ? readLastTurn(file) : undefined;
  } catch (err) {
    notes.push(`session log unreadable: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!turn) notes.push('no session log (wire.jsonl) for this session; the turn ends without its answer');
  const promptId = turn?.turnId;
  return [
    ...(turn ? fromWire(turn) : []),
    ...messageDraft(turn?.answer, { promptId }),
    { kind: 'turn_end', promptId },
  ];
}

export const kimiAdapter = defineAdapter({
  host: 'kimi',
  events: ['SessionStart', 'UserPromptSubmit', 'TurnStarted', 'PostToolUse', 'PostToolUseFailure', 'Stop',
    'SubagentStop', 'PreCompact', 'SessionEnd'],
  contextEvents: ['SessionStart', 'UserPromptSubmit'],
  // Kimi Code ignores SessionStart output; only kimi-cli reads it.
  wantsContext: (event, p) => event === 'UserPromptSubmit' || (event === 'SessionStart' && !isKimiCode(p)),
  // Kimi Code's UserPromptSubmit stores nothing (TurnStarted does), but its text picks the memory.
  contextPrompt: (event, p) => (event === 'UserPromptSubmit' && isKimiCode(p) && p.is_steer !== true ? promptText(p.prompt) : undefined),
  handlers: {
    sessionstart: ({ p }) => [{ kind: 'session_start', reason: str(p.source) }],
    userpromptsubmit: userPrompt,
    turnstarted: turnStarted,
    posttooluse: ({ p, notes }) => tool(p, notes, false),
    posttoolusefailure: ({ p, notes }) => tool(p, notes, true),
    stop,
    subagentstop: ({ p }) => messageDraft(pickStr(p, 'response'), { isSubagent: true, title: str(p.agent_name) }),
    precompact: ({ p }) => [{ kind: 'compact', reason: str(p.trigger) }],
    sessionend: ({ p }) => [{ kind: 'session_end', reason: str(p.reason) }],
  },
  sessionId: (p) => p.session_id,
  cwd: (p) => [p.cwd],
  formatOutput: (event, context) => (event === 'UserPromptSubmit' || event === 'SessionStart' ? context : ''),
});
