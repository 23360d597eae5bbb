/** Kimi Code (and the older kimi-cli): Claude-like hooks with `tool_call_id` / `tool_output`. */
import { defineHost, dirFrom, PROBE_COMMAND, PROBE_MARK, PROBE_OUTPUT, probeToolUseId } from '../host-facts.js';

export const kimiFacts = defineHost({
  id: 'kimi',
  label: 'Kimi Code',
  aliases: ['kimi-code'],
  hooks: true,
  dirs: (env) => [dirFrom(env, 'KIMI_SHARE_DIR', '.kimi'), dirFrom(env, 'KIMI_CODE_HOME', '.kimi-code')],
  caller: {
    dialect: { rank: 8, test: (p) => 'tool_call_id' in p || 'tool_output' in p || 'client_type' in p || 'session_title' in p },
    transcriptRank: 7,
  },
  probe: {
    event: 'PostToolUse',
    payload: (sid, cwd) => ({
      hook_event_name: 'PostToolUse', session_id: sid, cwd, tool_name: 'Shell', tool_input: { command: PROBE_COMMAND },
      tool_call_id: probeToolUseId(sid), tool_output: PROBE_OUTPUT, ...PROBE_MARK,
    }),
  },
});
