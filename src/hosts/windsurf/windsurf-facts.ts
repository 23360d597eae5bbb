/** Windsurf (Cascade hooks): `agent_action_name` and `trajectory_id` give it away. */
import { join } from 'node:path';
import { homeDir } from '../../shared/paths.js';
import { defineHost, PROBE_COMMAND, PROBE_MARK, PROBE_OUTPUT } from '../host-facts.js';

export const windsurfFacts = defineHost({
  id: 'windsurf',
  label: 'Windsurf',
  aliases: [],
  hooks: true,
  dirs: (env) => [join(homeDir(env), '.codeium', 'windsurf'), join(homeDir(env), '.windsurf')],
  caller: { dialect: { rank: 1, test: (p) => 'agent_action_name' in p || 'trajectory_id' in p } },
  noSessionEnd: 'Windsurf has no session-end hook',
  probe: {
    event: 'post_run_command',
    payload: (sid, cwd) => ({
      agent_action_name: 'post_run_command', trajectory_id: sid, execution_id: `${sid}-exec`,
      tool_info: { command_line: PROBE_COMMAND, cwd, output: PROBE_OUTPUT }, ...PROBE_MARK,
    }),
  },
});
