/**
 * claude-mem's own recall tools, under every name a host gives them: native plugin tools
 * (`mem_search`), MCP tools (`mcp__claude-mem__mem_search` in Claude Code and Codex,
 * `claude-mem-mem_search` in Copilot CLI, `mcp_claude-mem_mem_search` in Gemini CLI,
 * `claude-mem_mem_search` in OpenCode), OMP's MCP devices (a `write` to
 * `xd://mcp__claude_mem_mem_search`), OpenClaw's `tool_call {id: "claude-mem__mem_search"}` and Grok Build's
 * `claude-mem__mem_search` (through `use_tool {tool_name}`). Looking something up in memory is not work worth
 * remembering: hooks, plugins and the store leave these calls out.
 */
const OWN_TOOL_NAMES = ['mem_search', 'mem_timeline', 'mem_get_observations', 'mem_save', 'mem_context'] as const;

const OWN_SUFFIX = /(^|__|_|-)(mem_search|mem_timeline|mem_get_observations|mem_save|mem_context)$/;
const OUR_SERVER = /claude[-_]mem/;

export function isOwnRecallTool(name: string | undefined): boolean {
  if (!name) return false;
  if ((OWN_TOOL_NAMES as readonly string[]).includes(name)) return true;
  return OWN_SUFFIX.test(name) && OUR_SERVER.test(name);
}

/**
 * The tool a generic dispatcher routes a call to: OMP's MCP devices (a `write` to
 * `xd://<tool>`), OpenClaw's tool search (`tool_call {id: "<server>__<tool>"}`).
 */
function routedTool(name: string | undefined, input: unknown): string | undefined {
  if (!input || typeof input !== 'object') return undefined;
  const i = input as { path?: unknown; id?: unknown; tool_name?: unknown };
  if (typeof i.path === 'string' && i.path.startsWith('xd://')) return i.path.slice('xd://'.length);
  if (name === 'tool_call' && typeof i.id === 'string') return i.id;
  // Grok Build's MCP dispatcher (its hooks name the routed `server__tool` already; the call itself may show too).
  if (name === 'use_tool' && typeof i.tool_name === 'string') return i.tool_name;
  return undefined;
}

/** A call of our tools, directly or through a host's dispatcher tool. */
export function isOwnRecallCall(name: string | undefined, input: unknown): boolean {
  if (isOwnRecallTool(name)) return true;
  const routed = routedTool(name, input);
  return routed !== undefined && OWN_SUFFIX.test(routed) && OUR_SERVER.test(routed);
}
