/** Codex CLI: Claude-like hooks with `turn_id`; rollout transcripts under CODEX_HOME. */
import { claudeLikeProbe, defineHost, dirFrom, PROBE_OUTPUT } from '../host-facts.js';

export const codexFacts = defineHost({
  id: 'codex',
  label: 'Codex CLI',
  aliases: ['codex-cli'],
  hooks: true,
  dirs: (env) => [dirFrom(env, 'CODEX_HOME', '.codex')],
  caller: {
    transcriptRank: 2,
    lateDialect: { rank: 1, test: (p, event) => 'turn_id' in p && !('prompt_id' in p) && event !== 'MessageDisplay' },
  },
  probe: {
    event: 'PostToolUse',
    payload: (sid, cwd) => ({ ...claudeLikeProbe('PostToolUse')(sid, cwd), turn_id: `${sid}-turn`, tool_response: PROBE_OUTPUT }),
  },
});
