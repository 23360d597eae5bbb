/** DeepSeek Harness: the transcript watch captures; its plugin only recalls. It can bridge other hosts' hook files. */
import { defineHost, dirFrom } from '../host-facts.js';

export const dshFacts = defineHost({
  id: 'dsh',
  label: 'DeepSeek Harness',
  aliases: ['deepseek-harness'],
  dirs: (env) => [dirFrom(env, 'DSH_HOME', '.dsh')],
  caller: { transcriptRank: 1 },
});
