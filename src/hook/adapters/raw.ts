/**
 * # The `raw` hook dialect
 *
 * A documented, host-neutral input for integrations that have no dialect of their own (scripts,
 * plugins, hosts we do not know yet):
 *
 *     echo '{"host":"opencode","sessionId":"s-1","cwd":"/home/me/app","prompt":"fix the build"}' \
 *       | claude-mem hook raw prompt
 *
 * `claude-mem hook <host> <event>` for a host without a hook dialect of its own (OpenCode, Pi,
 * OMP, OpenClaw, DeepSeek Harness, T3 Code, Roo Code, Warp) reads the same format, with `host`
 * defaulting to that host.
 *
 * **Event.** The command line's `<event>`, or the payload's `event` (or `kind`); when both are
 * given and differ, the payload's wins. Names ignore case, `_` and `-`:
 *
 * | event                                      | stored as                          |
 * |--------------------------------------------|------------------------------------|
 * | `session_start`, `SessionStart`            | session_start (`reason`/`source`)  |
 * | `prompt`, `user_prompt`, `UserPromptSubmit`| prompt (`prompt`, `promptId`)      |
 * | `tool_use`, `PreToolUse`                   | tool_use (a call before its result)|
 * | `tool_result`, `PostToolUse`               | tool_result (input and response)   |
 * | `tool_failure`, `PostToolUseFailure`       | tool_result with toolFailed        |
 * | `file_edit`                                | file_edit (`filePath`, `edits`)    |
 * | `assistant_message`, `Stop`                | assistant_message (`message`)      |
 * | `observation`                              | observation (`title`, `message`)   |
 * | `compact`, `PreCompact`                    | compact (`reason`)                 |
 * | `session_end`, `SessionEnd`                | session_end (`reason`)             |
 *
 * Any other event stores nothing (not an error).
 *
 * **Fields** (camelCase or snake_case):
 * - `host`: a host id or alias; required unless the command line names the host.
 * - `sessionId` | `session_id`: required, `^[A-Za-z0-9._:-]{1,128}$`.
 * - `cwd`: absolute; falls back to `CLAUDE_PROJECT_DIR`, then `PWD`.
 * - `prompt`; `promptId` | `prompt_id` (the host's own turn id: never make one up).
 * - `toolName` | `tool_name` (normalized to the shared vocabulary: Bash, Read, Edit, …);
 *   `toolInput` | `tool_input`; `toolResponse` | `tool_response`; `toolUseId` | `tool_use_id`;
 *   `toolFailed` | `tool_failed`.
 * - `filePath` | `file_path`; `edits`: `[{oldText|old_string, newText|new_string}]`.
 * - `message`; `title`; `reason` | `source`; `model`.
 * - Subagents: `agentId` | `agent_id`, `parentSessionId` | `parent_session_id`, `isSubagent`.
 * - A transcript path is not accepted here (there is no host directory to confine it to).
 *
 * Long fields are truncated with a visible marker, never dropped.
 *
 * **Output.** `{"additionalContext":"…"}` on session_start and prompt when memory has context
 * for the project; nothing otherwise.
 */
import { resolveHostId, type HostId } from '../../shared/hosts.js';
import { normalizeToolName } from '../../shared/tool-names.js';
import { one, pick, pickStr, toEdits, type Draft, type Payload } from './common.js';
import { defineAdapter, type Handler } from './define.js';
import type { HookAdapter } from '../types.js';

const ALIASES: Readonly<Record<string, string>> = {
  userprompt: 'prompt', userpromptsubmit: 'prompt', pretooluse: 'tooluse', posttooluse: 'toolresult',
  posttoolusefailure: 'toolfailure', stop: 'assistantmessage', precompact: 'compact',
};

function hostOf(p: Payload, fallback: HostId | undefined): HostId | undefined {
  const named = pickStr(p, 'host');
  return named ? resolveHostId(named) : fallback;
}

function shared(p: Payload): Partial<Draft> {
  const agentId = pickStr(p, 'agentId', 'agent_id');
  const sub = pick(p, 'isSubagent', 'is_subagent');
  return {
    promptId: pickStr(p, 'promptId', 'prompt_id'),
    agentId,
    parentSessionId: pickStr(p, 'parentSessionId', 'parent_session_id'),
    isSubagent: sub === true || (agentId ? true : undefined),
  };
}

function toolHandler(kind: 'tool_use' | 'tool_result', failed: boolean, fallback: HostId | undefined): Handler {
  return ({ p, notes }) => {
    const raw = pickStr(p, 'toolName', 'tool_name');
    const host = hostOf(p, fallback) ?? 'raw'; // no host named: the shared tool table alone
    return one(raw ? {
      kind, toolName: normalizeToolName(host, raw), rawToolName: raw,
      toolUseId: pickStr(p, 'toolUseId', 'tool_use_id'),
      toolInput: pick(p, 'toolInput', 'tool_input'),
      toolResponse: pick(p, 'toolResponse', 'tool_response', 'error'),
      toolFailed: failed || pick(p, 'toolFailed', 'tool_failed') === true || undefined,
      filePath: pickStr(p, 'filePath', 'file_path'),
      ...shared(p),
    } : undefined, notes);
  };
}

const text = (kind: Draft['kind'], field: 'prompt' | 'message', ...keys: string[]): Handler => ({ p, notes }) => {
  const value = pickStr(p, ...keys);
  if (!value) notes.push(`no ${field} text; nothing stored`);
  return value ? [{ kind, [field]: value, title: pickStr(p, 'title'), ...shared(p) }] : [];
};

/** The raw dialect, optionally bound to the host whose command line it serves. */
export function rawAdapterFor(defaultHost?: HostId): HookAdapter {
  const reason = (kind: 'session_start' | 'compact' | 'session_end'): Handler =>
    ({ p }) => [{ kind, reason: pickStr(p, 'reason', 'source', 'trigger'), ...shared(p) }];
  return defineAdapter({
    host: defaultHost ?? 'raw',
    events: ['session_start', 'prompt', 'tool_use', 'tool_result', 'tool_failure', 'file_edit', 'assistant_message',
      'observation', 'compact', 'session_end'],
    contextEvents: ['session_start', 'prompt'],
    aliases: ALIASES,
    handlers: {
      sessionstart: reason('session_start'),
      prompt: text('prompt', 'prompt', 'prompt'),
      tooluse: toolHandler('tool_use', false, defaultHost),
      toolresult: toolHandler('tool_result', false, defaultHost),
      toolfailure: toolHandler('tool_result', true, defaultHost),
      fileedit: ({ p, notes }) => {
        const filePath = pickStr(p, 'filePath', 'file_path');
        return one(filePath ? { kind: 'file_edit', filePath, edits: toEdits(p.edits), ...shared(p) } : undefined,
          notes, 'no filePath');
      },
      assistantmessage: text('assistant_message', 'message', 'message', 'last_assistant_message'),
      observation: text('observation', 'message', 'message', 'text'),
      compact: reason('compact'),
      sessionend: reason('session_end'),
    },
    payloadEvent: (p) => (p ? pickStr(p, 'event', 'kind') : undefined),
    sessionId: (p) => p.sessionId ?? p.session_id,
    cwd: (p) => [p.cwd],
    storeHost: (p, notes) => {
      const host = hostOf(p, defaultHost);
      if (!host) notes.push('raw payload names no known host; nothing stored');
      if (pick(p, 'transcriptPath', 'transcript_path') !== undefined) notes.push('transcriptPath is not accepted in the raw dialect; removed');
      return host;
    },
    skipCaller: true,
    formatOutput: (event, context) =>
      context && (event === 'session_start' || event === 'prompt') ? JSON.stringify({ additionalContext: context }) : '',
  });
}

export const rawAdapter = rawAdapterFor();
