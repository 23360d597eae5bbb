/** Goose: plugin hooks (`event` + `working_dir`); extension tools are named `<extension>__<tool>`. */
import { join, resolve } from 'node:path';
import { homeDir } from '../../shared/paths.js';
import { str } from '../../shared/values.js';
import { defineHost, PROBE_COMMAND, PROBE_MARK, PROBE_OUTPUT } from '../host-facts.js';

export const gooseFacts = defineHost({
  id: 'goose',
  label: 'Goose',
  aliases: [],
  hooks: true,
  dirs: (env) => [
    join(env.XDG_DATA_HOME ? resolve(env.XDG_DATA_HOME) : join(homeDir(env), '.local', 'share'), 'goose'),
    join(env.XDG_CONFIG_HOME ? resolve(env.XDG_CONFIG_HOME) : join(homeDir(env), '.config'), 'goose'),
  ],
  caller: { dialect: { rank: 7, test: (p) => !!str(p.event) && ('working_dir' in p || 'matcher_context' in p) } },
  probe: {
    event: 'PostToolUse',
    payload: (sid, cwd) => ({
      event: 'PostToolUse', session_id: sid, working_dir: cwd, tool_name: 'developer__shell', tool_input: { command: PROBE_COMMAND },
      tool_output: PROBE_OUTPUT, ...PROBE_MARK,
    }),
  },
  tools: { developer__shell: 'Bash', developer__text_editor: 'Edit', shell: 'Bash', text_editor: 'Edit', tree: 'LS' },
  // Extension tools are MCP tools, so `mcp__<ext>__<tool>` (the built-in `developer` extension aside).
  mcpToolName: (raw) => {
    const m = /^([A-Za-z0-9_-]+?)__(.+)$/.exec(raw);
    return m && m[1] !== 'developer' ? `mcp__${m[1]}__${m[2]}` : undefined;
  },
});
