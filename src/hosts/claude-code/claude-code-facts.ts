/** Claude Code: the dialect most hosts borrow; other hosts run its hook files too. */
import { claudeLikeProbe, defineHost, dirFrom } from '../host-facts.js';

export const claudeCodeFacts = defineHost({
  id: 'claude-code',
  label: 'Claude Code',
  aliases: ['claude'],
  hooks: true,
  dirs: (env) => [dirFrom(env, 'CLAUDE_CONFIG_DIR', '.claude')],
  caller: {
    sessionEnv: 'CLAUDE_CODE_SESSION_ID',
    runner: { rank: 5, test: (env, session) => !!session && env.CLAUDE_CODE_SESSION_ID === session },
    general: { rank: 1, test: (env) => env.CLAUDECODE === '1' },
  },
  probe: { event: 'PostToolUse', payload: claudeLikeProbe('PostToolUse') },
});
