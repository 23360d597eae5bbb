/** Cursor: its own hooks dialect; it also runs Claude Code's hooks ("third-party hooks"). */
import { join } from 'node:path';
import { homeDir } from '../../shared/paths.js';
import { defineHost, PROBE_COMMAND, PROBE_MARK, PROBE_OUTPUT } from '../host-facts.js';

export const cursorFacts = defineHost({
  id: 'cursor',
  label: 'Cursor',
  aliases: [],
  hooks: true,
  dirs: (env) => [join(homeDir(env), '.cursor')],
  caller: {
    dialect: {
      rank: 2,
      test: (p) => 'conversation_id' in p || 'cursor_version' in p || 'generation_id' in p || Array.isArray(p.workspace_roots),
    },
    transcriptRank: 6,
    runner: { rank: 3, test: (env) => !!env.CURSOR_VERSION },
    general: { rank: 4, test: (env) => !!env.CURSOR_TRACE_ID },
  },
  runsHooksOf: ['claude-code'],
  probe: {
    event: 'afterShellExecution',
    payload: (sid, cwd) => ({
      conversation_id: sid, generation_id: `${sid}-gen`, hook_event_name: 'afterShellExecution', command: PROBE_COMMAND,
      output: PROBE_OUTPUT, cwd, workspace_roots: [cwd], ...PROBE_MARK,
    }),
  },
});
