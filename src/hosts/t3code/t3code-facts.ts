/** T3 Code: no capture of its own; the providers it runs (Claude Code, Codex) capture its sessions. */
import { defineHost } from '../host-facts.js';

export const t3codeFacts = defineHost({
  id: 't3code',
  label: 'T3 Code',
  aliases: ['t3', 't3-code'],
  providers: ['claude-code', 'codex'],
});
