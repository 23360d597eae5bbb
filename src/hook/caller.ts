/**
 * Which host really ran this hook. Several hosts run other hosts' hook files: Grok Build runs
 * `~/.claude/settings.json` and `~/.cursor/hooks.json` hooks (with Grok's camelCase payloads),
 * Cursor runs Claude Code's hooks ("third-party hooks"), Copilot CLI reads `.claude/settings.json`,
 * DeepSeek Harness can bridge Claude Code and Codex hook files. The command line names the host
 * whose file holds the hook, not necessarily the caller.
 *
 * Rules, strongest evidence first:
 *  1. Payload dialect. The payload is written by the caller, never inherited, so a recognisable
 *     foreign dialect decides (Grok `hookEventName`/`sessionId`+`toolUseId`, Copilot `toolArgs` /
 *     `toolResult.resultType` / `tool_result.result_type` / numeric `timestamp`, Cursor
 *     `conversation_id`/`cursor_version`/`workspace_roots`, Antigravity `conversationId`/`toolCall`,
 *     Windsurf `agent_action_name`/`trajectory_id`, Gemini-only event names, Kimi `tool_call_id`,
 *     Goose `event`+`working_dir`, or a transcript path inside another host's own directory).
 *  2. The named host's own hook-runner marker tied to this very session (Claude Code's
 *     CLAUDE_CODE_SESSION_ID equal to the payload's session id, GEMINI_SESSION_ID, GROK_SESSION_ID):
 *     the command line is right.
 *  3. Another host's hook-runner marker (GROK_HOOK_EVENT/GROK_HOOK_NAME, COPILOT_HOOK_DIR,
 *     CURSOR_VERSION, GEMINI_SESSION_ID equal to the payload's session id).
 *  4. The named host's general marker (CLAUDECODE=1, COPILOT_CLI=1, GEMINI_CWD, CURSOR_TRACE_ID):
 *     the command line is right. These are inherited by child processes, so they only count here.
 *  5. Another host's general marker (same list), when the named host showed none of its own.
 *  Otherwise the command line is trusted.
 *
 * Every host we can recognise has its own claude-mem writer (hooks, plugin or transcript watch),
 * so an event recognised as another host's is dropped (`owned by <host>`): that host's own hook
 * stores it once, under the right name.
 */
import type { HookHostId } from '../shared/hosts.js';
import type { Env } from '../shared/paths.js';
import { isAbsolute, resolve } from 'node:path';
import { rec, str, type Payload } from './adapters/common.js';
import { hostDirs, isInside } from './adapters/homes.js';

/** A recognised caller: a hook host, or DeepSeek Harness (bridges, with its own writer). */
export type CallerHost = HookHostId | 'dsh';

export interface CallerIdentity {
  host: CallerHost;
  /** Set when the event belongs to another host's writer: `owned by <host>`. */
  drop?: string;
  /** What gave the caller away, for the debug log. */
  evidence?: string;
}

const GEMINI_ONLY_EVENTS = new Set(['BeforeAgent', 'AfterAgent', 'BeforeTool', 'AfterTool', 'BeforeModel',
  'AfterModel', 'BeforeToolSelection', 'PreCompress']);

function transcriptOwner(p: Payload, env: Env): CallerHost | undefined {
  const t = str(p.transcript_path) ?? str(p.transcriptPath);
  if (!t || !isAbsolute(t)) return undefined;
  const path = resolve(t);
  const owners: CallerHost[] = ['dsh', 'codex', 'copilot', 'gemini', 'grok', 'cursor', 'kimi', 'claude-code'];
  return owners.find((h) => isInside(path, hostDirs(h, env)));
}

/** The host whose payload dialect this is, when it is recognisable. */
export function payloadDialect(p: Payload | undefined, env: Env): CallerHost | undefined {
  if (!p) return undefined;
  if ('agent_action_name' in p || 'trajectory_id' in p) return 'windsurf';
  if ('conversation_id' in p || 'cursor_version' in p || 'generation_id' in p || Array.isArray(p.workspace_roots)) return 'cursor';
  if ('conversationId' in p || 'invocationNum' in p || Array.isArray(p.workspacePaths) || rec(p.toolCall)) return 'antigravity';
  if (str(p.hookEventName) || (str(p.sessionId) && ['toolUseId', 'workspaceRoot', 'promptId', 'stopHookActive',
    'lastAssistantMessage', 'toolInputTruncated', 'permissionMode'].some((k) => k in p))) return 'grok';
  if ('toolArgs' in p || 'hookName' in p || rec(p.toolResult)?.resultType !== undefined
    || rec(p.tool_result)?.result_type !== undefined || 'initialPrompt' in p || 'initial_prompt' in p
    || 'stopReason' in p || 'stop_reason' in p || (str(p.sessionId) && typeof p.timestamp === 'number')) return 'copilot';
  const event = str(p.hook_event_name);
  if ((event && GEMINI_ONLY_EVENTS.has(event)) || 'llm_request' in p) return 'gemini';
  if (str(p.event) && ('working_dir' in p || 'matcher_context' in p)) return 'goose';
  if ('tool_call_id' in p || 'tool_output' in p || 'client_type' in p || 'session_title' in p) return 'kimi';
  const owner = transcriptOwner(p, env);
  if (owner && owner !== 'claude-code') return owner;
  if ('turn_id' in p && !('prompt_id' in p) && event !== 'MessageDisplay') return 'codex';
  // Copilot's PascalCase dialect: Claude-like fields plus an ISO timestamp, and no transcript.
  if (event && typeof p.timestamp === 'string' && !('transcript_path' in p)) return 'copilot';
  return undefined;
}

function sessionOf(p: Payload | undefined): string | undefined {
  return p ? str(p.session_id) ?? str(p.sessionId) : undefined;
}

/** Markers a host's hook runner sets for this invocation (not inherited from an ancestor). */
function runnerMarker(env: Env, session: string | undefined): CallerHost | undefined {
  if (env.GROK_HOOK_EVENT || env.GROK_HOOK_NAME) return 'grok';
  if (env.COPILOT_HOOK_DIR) return 'copilot';
  if (env.CURSOR_VERSION) return 'cursor';
  if (session && env.GEMINI_SESSION_ID === session) return 'gemini';
  if (session && env.CLAUDE_CODE_SESSION_ID === session) return 'claude-code';
  return undefined;
}

/** Markers a host sets in its whole process tree (so a child of that host inherits them). */
function generalMarkers(env: Env): CallerHost[] {
  const found: CallerHost[] = [];
  if (env.CLAUDECODE === '1') found.push('claude-code');
  if (env.COPILOT_CLI === '1') found.push('copilot');
  if (env.GEMINI_CWD || env.GEMINI_CLI === '1') found.push('gemini');
  if (env.CURSOR_TRACE_ID) found.push('cursor');
  if (env.GROK_SESSION_ID) found.push('grok');
  return found;
}

function owned(host: CallerHost, evidence: string): CallerIdentity {
  return { host, drop: `owned by ${host}`, evidence };
}

export function identifyCaller(host: HookHostId, payload: Record<string, unknown> | undefined, env: Env): CallerIdentity {
  if (host === 'raw') return { host };
  const dialect = payloadDialect(payload, env);
  if (dialect) return dialect === host ? { host } : owned(dialect, 'payload dialect');
  const session = sessionOf(payload);
  const selfConfirmed = (host === 'claude-code' && !!session && env.CLAUDE_CODE_SESSION_ID === session)
    || (host === 'gemini' && !!session && env.GEMINI_SESSION_ID === session)
    || (host === 'grok' && !!session && env.GROK_SESSION_ID === session);
  if (selfConfirmed) return { host };
  const runner = runnerMarker(env, session);
  if (runner) return runner === host ? { host } : owned(runner, 'hook environment');
  const general = generalMarkers(env);
  if (general.length === 0 || general.includes(host)) return { host };
  return owned(general[0], 'environment');
}
