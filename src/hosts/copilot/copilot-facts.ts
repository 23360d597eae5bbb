/** Copilot CLI: two dialects (camelCase and Claude-like PascalCase); it also reads Claude Code's hooks. */
import { rec, str } from '../../shared/values.js';
import { defineHost, dirFrom, PROBE_COMMAND, PROBE_MARK, PROBE_OUTPUT } from '../host-facts.js';

export const copilotFacts = defineHost({
  id: 'copilot',
  label: 'Copilot CLI',
  aliases: ['copilot-cli'],
  hooks: true,
  dirs: (env) => [dirFrom(env, 'COPILOT_HOME', '.copilot')],
  caller: {
    dialect: {
      rank: 5,
      test: (p) => 'toolArgs' in p || 'hookName' in p || rec(p.toolResult)?.resultType !== undefined
        || rec(p.tool_result)?.result_type !== undefined || 'initialPrompt' in p || 'initial_prompt' in p
        || 'stopReason' in p || 'stop_reason' in p || (!!str(p.sessionId) && typeof p.timestamp === 'number'),
    },
    transcriptRank: 3,
    // The PascalCase dialect: Claude-like fields plus an ISO timestamp, and no transcript.
    lateDialect: { rank: 2, test: (p, event) => !!event && typeof p.timestamp === 'string' && !('transcript_path' in p) },
    runner: { rank: 2, test: (env) => !!env.COPILOT_HOOK_DIR },
    general: { rank: 2, test: (env) => env.COPILOT_CLI === '1' },
  },
  runsHooksOf: ['claude-code'],
  probe: {
    event: 'postToolUse',
    payload: (sid, cwd) => ({
      sessionId: sid, timestamp: Date.now(), cwd, toolName: 'bash', toolArgs: { command: PROBE_COMMAND },
      toolResult: { resultType: 'success', textResultForLlm: PROBE_OUTPUT }, ...PROBE_MARK,
    }),
  },
  tools: { view: 'Read', create: 'Write' },
});
