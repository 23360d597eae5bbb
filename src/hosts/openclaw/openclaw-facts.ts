/** OpenClaw: a native plugin captures and recalls. */
import { defineHost } from '../host-facts.js';

export const openclawFacts = defineHost({
  id: 'openclaw',
  label: 'OpenClaw',
  aliases: [],
  tools: { exec: 'Bash', process: 'Bash' },
  noSessionEnd: 'OpenClaw reports session start and end only in gateway mode, never under `openclaw agent --local`',
});
