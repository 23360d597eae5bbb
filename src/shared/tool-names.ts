/**
 * One tool vocabulary for every host, so the observer and search are written once.
 * Adapters map each host's own tool names onto these (normalizeToolName); MCP tools keep
 * the `mcp__<server>__<tool>` form.
 */
export const CANONICAL_TOOLS = [
  'Bash', // any shell command execution
  'Read', // read a file
  'Write', // create/overwrite a file
  'Edit', // edit part of a file (also MultiEdit, str_replace)
  'ApplyPatch', // a patch touching one or more files (Codex apply_patch)
  'Grep', // content search
  'Glob', // file name search / listing
  'LS', // directory listing
  'WebFetch',
  'WebSearch',
  'Task', // spawn a subagent
  'TodoWrite',
  'NotebookEdit',
] as const;

export type CanonicalTool = (typeof CANONICAL_TOOLS)[number];

export function isMcpToolName(name: string): boolean {
  return name.startsWith('mcp__');
}

// ---------------------------------------------------------------------------------------------
// Host tool names → the vocabulary above. Lookup is case-insensitive; unknown names come back
// unchanged (the event keeps the raw name too), so nothing is lost when a host adds a tool.

/** Names several hosts share (Claude's own, Gemini, Codex, Kimi, Copilot, Grok, Antigravity, ...). */
const COMMON_TOOLS: Readonly<Record<string, CanonicalTool>> = {
  bash: 'Bash', shell: 'Bash', run_shell_command: 'Bash', run_terminal_command: 'Bash', run_terminal_cmd: 'Bash',
  run_command: 'Bash', exec_command: 'Bash', local_shell: 'Bash', execute_command: 'Bash', terminal: 'Bash',
  'container.exec': 'Bash', powershell: 'Bash',
  read: 'Read', read_file: 'Read', view_file: 'Read', readfile: 'Read', read_many_files: 'Read',
  write: 'Write', write_file: 'Write', create_file: 'Write', writefile: 'Write', write_to_file: 'Write',
  edit: 'Edit', multiedit: 'Edit', str_replace: 'Edit', strreplace: 'Edit', str_replace_editor: 'Edit',
  str_replace_based_edit_tool: 'Edit', replace: 'Edit', edit_file: 'Edit', search_replace: 'Edit',
  strreplacefile: 'Edit', replace_file_content: 'Edit', multi_replace_file_content: 'Edit',
  apply_patch: 'ApplyPatch', applypatch: 'ApplyPatch',
  grep: 'Grep', search_file_content: 'Grep', grep_search: 'Grep', ripgrep: 'Grep', rg: 'Grep',
  glob: 'Glob', find_by_name: 'Glob', file_search: 'Glob', glob_file_search: 'Glob', find_files: 'Glob',
  ls: 'LS', list_dir: 'LS', list_directory: 'LS',
  webfetch: 'WebFetch', web_fetch: 'WebFetch', fetchurl: 'WebFetch', fetch_url: 'WebFetch', read_url_content: 'WebFetch',
  websearch: 'WebSearch', web_search: 'WebSearch', google_web_search: 'WebSearch', searchweb: 'WebSearch', search_web: 'WebSearch',
  task: 'Task', agent: 'Task', spawn_agent: 'Task',
  todowrite: 'TodoWrite', todo_write: 'TodoWrite', write_todos: 'TodoWrite', settodolist: 'TodoWrite',
  todolist: 'TodoWrite', update_todo_list: 'TodoWrite', update_plan: 'TodoWrite',
  notebookedit: 'NotebookEdit', edit_notebook: 'NotebookEdit', editnotebook: 'NotebookEdit',
};

/** Where one host's name means something else than the shared table says. */
const HOST_TOOLS: Readonly<Partial<Record<string, Readonly<Record<string, CanonicalTool>>>>> = {
  copilot: { view: 'Read', create: 'Write' },
  goose: { developer__shell: 'Bash', developer__text_editor: 'Edit', shell: 'Bash', text_editor: 'Edit', tree: 'LS' },
  grok: { search: 'Grep' },
};

/** Goose names extension tools `<extension>__<tool>`: they are MCP tools, so `mcp__<ext>__<tool>`. */
function mcpForm(host: string, raw: string): string | undefined {
  if (isMcpToolName(raw)) return raw;
  if (host === 'goose') {
    const m = /^([A-Za-z0-9_-]+?)__(.+)$/.exec(raw);
    if (m && m[1] !== 'developer') return `mcp__${m[1]}__${m[2]}`;
  }
  return undefined;
}

/** Maps a host's own tool name to the canonical vocabulary (or the `mcp__server__tool` form). */
export function normalizeToolName(host: string, rawName: string): string {
  const raw = rawName.trim();
  if (!raw) return raw;
  const key = raw.toLowerCase();
  const mapped = HOST_TOOLS[host]?.[key] ?? COMMON_TOOLS[key];
  if (mapped) return mapped;
  return mcpForm(host, raw) ?? raw;
}
