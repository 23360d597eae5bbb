/**
 * claude-mem's own recall tools, under every name a host gives them: native plugin tools
 * (`mem_search`), MCP tools (`mcp__claude-mem__mem_search` in Claude Code and Codex,
 * `claude-mem-mem_search` in Copilot CLI, `mcp_claude-mem_mem_search` in Gemini CLI,
 * `claude-mem_mem_search` in OpenCode) and OMP's MCP devices (a `write` to
 * `xd://mcp__claude_mem_mem_search`). Looking something up in memory is not work worth
 * remembering: hooks, plugins and the store leave these calls out.
 */
export const OWN_TOOL_NAMES = ['mem_search', 'mem_timeline', 'mem_get_observations', 'mem_save', 'mem_context'] as const;

const OWN_SUFFIX = /(^|__|_|-)(mem_search|mem_timeline|mem_get_observations|mem_save|mem_context)$/;
const OUR_SERVER = /claude[-_]mem/;

export function isOwnRecallTool(name: string | undefined): boolean {
  if (!name) return false;
  if ((OWN_TOOL_NAMES as readonly string[]).includes(name)) return true;
  return OWN_SUFFIX.test(name) && OUR_SERVER.test(name);
}

/** A call of our tools, also where a host routes MCP tools through a generic one (OMP devices). */
export function isOwnRecallCall(name: string | undefined, input: unknown): boolean {
  if (isOwnRecallTool(name)) return true;
  const path = input && typeof input === 'object' ? (input as { path?: unknown }).path : undefined;
  if (typeof path !== 'string' || !path.startsWith('xd://')) return false;
  const device = path.slice('xd://'.length);
  return OWN_SUFFIX.test(device) && OUR_SERVER.test(device);
}
