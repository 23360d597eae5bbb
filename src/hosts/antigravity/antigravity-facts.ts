/** Antigravity: camelCase hooks with `conversationId` and `toolCall`. */
import { join } from 'node:path';
import { homeDir } from '../../shared/paths.js';
import { rec } from '../../shared/values.js';
import { defineHost, PROBE_COMMAND, PROBE_MARK, PROBE_OUTPUT, probeToolUseId } from '../host-facts.js';

export const antigravityFacts = defineHost({
  id: 'antigravity',
  label: 'Antigravity',
  aliases: ['agy'],
  hooks: true,
  dirs: (env) => [join(homeDir(env), '.gemini')],
  caller: {
    dialect: {
      rank: 3,
      test: (p) => 'conversationId' in p || 'invocationNum' in p || Array.isArray(p.workspacePaths) || !!rec(p.toolCall),
    },
  },
  noSessionEnd: 'Antigravity has no session-end hook',
  probe: {
    event: 'PostToolUse',
    payload: (sid, cwd) => ({
      conversationId: sid, hookEventName: 'PostToolUse', workspacePaths: [cwd],
      toolCall: { id: probeToolUseId(sid), name: 'run_command', args: { CommandLine: PROBE_COMMAND } }, toolResult: PROBE_OUTPUT, ...PROBE_MARK,
    }),
  },
});
