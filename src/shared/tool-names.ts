/**
 * One tool vocabulary for every host, so the observer and search are written once.
 * Adapters map each host's own tool names onto these (normalizeToolName); MCP tools keep
 * the `mcp__<server>__<tool>` form.
 */
export { CANONICAL_TOOLS, type CanonicalTool } from './canonical-tools.js';
import type { CanonicalTool } from './canonical-tools.js';
import { HOST_FACTS } from '../hosts/registry.js';

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

/** Where one host's name means something else than the shared table says (src/hosts/<id>/<id>-facts.ts). */
const FACTS = new Map(HOST_FACTS.map((f) => [f.id as string, f]));

/** MCP tools keep their name; a host that names extension tools its own way maps them to `mcp__<server>__<tool>`. */
function mcpForm(host: string, raw: string): string | undefined {
  if (isMcpToolName(raw)) return raw;
  return FACTS.get(host)?.mcpToolName?.(raw);
}

/** Maps a host's own tool name to the canonical vocabulary (or the `mcp__server__tool` form). */
export function normalizeToolName(host: string, rawName: string): string {
  const raw = rawName.trim();
  if (!raw) return raw;
  const key = raw.toLowerCase();
  const mapped = FACTS.get(host)?.tools?.[key] ?? COMMON_TOOLS[key];
  if (mapped) return mapped;
  return mcpForm(host, raw) ?? raw;
}
