/** Grok Build: camelCase hooks; it also runs Claude Code's and Cursor's hook files. */
import { str } from '../../shared/values.js';
import { defineHost, dirFrom, PROBE_COMMAND, PROBE_MARK, PROBE_OUTPUT, probeToolUseId } from '../host-facts.js';

const GROK_ONLY_FIELDS = ['toolUseId', 'workspaceRoot', 'promptId', 'stopHookActive', 'lastAssistantMessage',
  'toolInputTruncated', 'permissionMode'];

export const grokFacts = defineHost({
  id: 'grok',
  label: 'Grok',
  aliases: ['grok-bot', 'grok-build'],
  hooks: true,
  dirs: (env) => [dirFrom(env, 'GROK_HOME', '.grok')],
  caller: {
    dialect: { rank: 4, test: (p) => !!str(p.hookEventName) || (!!str(p.sessionId) && GROK_ONLY_FIELDS.some((k) => k in p)) },
    transcriptRank: 5,
    sessionEnv: 'GROK_SESSION_ID',
    runner: { rank: 1, test: (env) => !!(env.GROK_HOOK_EVENT || env.GROK_HOOK_NAME) },
    general: { rank: 5, test: (env) => !!env.GROK_SESSION_ID },
  },
  runsHooksOf: ['claude-code', 'cursor'],
  probe: {
    event: 'PostToolUse',
    payload: (sid, cwd) => ({
      hookEventName: 'post_tool_use', sessionId: sid, cwd, workspaceRoot: cwd, toolName: 'run_terminal_command',
      toolInput: { command: PROBE_COMMAND }, toolUseId: probeToolUseId(sid), toolResult: PROBE_OUTPUT, ...PROBE_MARK,
    }),
  },
  tools: { search: 'Grep' },
});
