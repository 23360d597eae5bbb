/** Gemini CLI: Claude-like hooks with its own event names (BeforeTool, AfterTool, ...). */
import { join, resolve } from 'node:path';
import { expandHome, homeDir } from '../../shared/paths.js';
import { defineHost, PROBE_COMMAND, PROBE_MARK, PROBE_OUTPUT } from '../host-facts.js';

const GEMINI_ONLY_EVENTS = new Set(['BeforeAgent', 'AfterAgent', 'BeforeTool', 'AfterTool', 'BeforeModel',
  'AfterModel', 'BeforeToolSelection', 'PreCompress']);

export const geminiFacts = defineHost({
  id: 'gemini',
  label: 'Gemini CLI',
  aliases: ['gemini-cli'],
  hooks: true,
  dirs: (env) => [env.GEMINI_CLI_HOME ? join(resolve(expandHome(env.GEMINI_CLI_HOME, env)), '.gemini') : join(homeDir(env), '.gemini')],
  caller: {
    dialect: { rank: 6, test: (p, event) => (!!event && GEMINI_ONLY_EVENTS.has(event)) || 'llm_request' in p },
    transcriptRank: 4,
    sessionEnv: 'GEMINI_SESSION_ID',
    runner: { rank: 4, test: (env, session) => !!session && env.GEMINI_SESSION_ID === session },
    general: { rank: 3, test: (env) => !!env.GEMINI_CWD || env.GEMINI_CLI === '1' },
  },
  probe: {
    event: 'AfterTool',
    payload: (sid, cwd) => ({
      hook_event_name: 'AfterTool', session_id: sid, cwd, tool_name: 'run_shell_command', tool_input: { command: PROBE_COMMAND },
      tool_response: { llmContent: PROBE_OUTPUT }, ...PROBE_MARK,
    }),
  },
});
