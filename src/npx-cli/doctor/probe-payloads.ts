/**
 * Synthetic tool-result payloads, one per hook host, in that host's own dialect (the fields the
 * adapter and the caller check read), so the round trip takes the path a real event takes.
 * `claude_mem_probe: true` marks them: the hook stores them as probe events, removed afterwards.
 */
import type { HostId } from '../../shared/hosts.js';

export interface ProbeSpec {
  /** The event whose command is run (a capture-only event: no context is fetched). */
  event: string;
  payload(sessionId: string, cwd: string): Record<string, unknown>;
}

const COMMAND = 'echo claude-mem doctor probe';
const MARK = { claude_mem_probe: true } as const;
const toolUseId = (sid: string) => `${sid}-tool`;

const claudeLike = (event: string) => (sid: string, cwd: string) => ({
  session_id: sid, cwd, hook_event_name: event, tool_name: 'Bash', tool_input: { command: COMMAND },
  tool_response: { stdout: 'claude-mem doctor probe', exit_code: 0 }, tool_use_id: toolUseId(sid), ...MARK,
});

export const PROBES: Partial<Record<HostId, ProbeSpec>> = {
  'claude-code': { event: 'PostToolUse', payload: claudeLike('PostToolUse') },
  codex: { event: 'PostToolUse', payload: (sid, cwd) => ({ ...claudeLike('PostToolUse')(sid, cwd), turn_id: `${sid}-turn`, tool_response: 'claude-mem doctor probe' }) },
  cursor: {
    event: 'afterShellExecution',
    payload: (sid, cwd) => ({
      conversation_id: sid, generation_id: `${sid}-gen`, hook_event_name: 'afterShellExecution', command: COMMAND,
      output: 'claude-mem doctor probe', cwd, workspace_roots: [cwd], ...MARK,
    }),
  },
  windsurf: {
    event: 'post_run_command',
    payload: (sid, cwd) => ({
      agent_action_name: 'post_run_command', trajectory_id: sid, execution_id: `${sid}-exec`,
      tool_info: { command_line: COMMAND, cwd, output: 'claude-mem doctor probe' }, ...MARK,
    }),
  },
  kimi: {
    event: 'PostToolUse',
    payload: (sid, cwd) => ({
      hook_event_name: 'PostToolUse', session_id: sid, cwd, tool_name: 'Shell', tool_input: { command: COMMAND },
      tool_call_id: toolUseId(sid), tool_output: 'claude-mem doctor probe', ...MARK,
    }),
  },
  antigravity: {
    event: 'PostToolUse',
    payload: (sid, cwd) => ({
      conversationId: sid, hookEventName: 'PostToolUse', workspacePaths: [cwd],
      toolCall: { id: toolUseId(sid), name: 'run_command', args: { CommandLine: COMMAND } }, toolResult: 'claude-mem doctor probe', ...MARK,
    }),
  },
  grok: {
    event: 'PostToolUse',
    payload: (sid, cwd) => ({
      hookEventName: 'post_tool_use', sessionId: sid, cwd, workspaceRoot: cwd, toolName: 'run_terminal_command',
      toolInput: { command: COMMAND }, toolUseId: toolUseId(sid), toolResult: 'claude-mem doctor probe', ...MARK,
    }),
  },
  copilot: {
    event: 'postToolUse',
    payload: (sid, cwd) => ({
      sessionId: sid, timestamp: Date.now(), cwd, toolName: 'bash', toolArgs: { command: COMMAND },
      toolResult: { resultType: 'success', textResultForLlm: 'claude-mem doctor probe' }, ...MARK,
    }),
  },
  gemini: {
    event: 'AfterTool',
    payload: (sid, cwd) => ({
      hook_event_name: 'AfterTool', session_id: sid, cwd, tool_name: 'run_shell_command', tool_input: { command: COMMAND },
      tool_response: { llmContent: 'claude-mem doctor probe' }, ...MARK,
    }),
  },
  goose: {
    event: 'PostToolUse',
    payload: (sid, cwd) => ({
      event: 'PostToolUse', session_id: sid, working_dir: cwd, tool_name: 'developer__shell', tool_input: { command: COMMAND },
      tool_output: 'claude-mem doctor probe', ...MARK,
    }),
  },
};

export const PROBE_PREFIX = 'claude-mem-doctor-probe-';
