/** Looking something up in memory is not work: our own recall tools are left out under every name. */
import { describe, expect, it } from 'vitest';
import { isOwnRecallCall, isOwnRecallTool } from '../../src/shared/own-tools.js';
import { fixture, runFixture } from './fixtures.js';

describe('own recall tools', () => {
  it('are recognised under the names the hosts give them', () => {
    for (const name of [
      'mem_search', // native plugin tools
      'mcp__claude-mem__mem_search', // Claude Code, Codex
      'claude-mem-mem_timeline', // Copilot CLI
      'mcp_claude-mem_mem_get_observations', // Gemini CLI
      'claude-mem_mem_save', // OpenCode MCP
      'mcp__claude_mem_mem_context', // OMP
    ]) expect(isOwnRecallTool(name), name).toBe(true);
    for (const name of ['search', 'mcp__other__mem_search', 'github-mem_search', 'Bash', 'mem_searcher', 'mcp__claude-mem__delete', undefined]) {
      expect(isOwnRecallTool(name), String(name)).toBe(false);
    }
  });

  it("OMP's MCP devices: a write to xd://mcp__claude_mem_<tool>", () => {
    expect(isOwnRecallCall('write', { path: 'xd://mcp__claude_mem_mem_search', content: '{"query":"x"}' })).toBe(true);
    expect(isOwnRecallCall('write', { path: 'xd://mcp__claude_mem_mem_get_observations', content: '{}' })).toBe(true);
    // Real work stays work: another server's device, an ordinary file that merely has the name.
    expect(isOwnRecallCall('write', { path: 'xd://mcp__github_search_issues', content: '{}' })).toBe(false);
    expect(isOwnRecallCall('write', { path: '/home/dev/mcp__claude_mem_mem_search', content: 'x' })).toBe(false);
    expect(isOwnRecallCall('bash', { command: 'echo xd://mcp__claude_mem_mem_search' })).toBe(false);
    expect(isOwnRecallCall('write', undefined)).toBe(false);
  });

  it("OpenClaw's tool search: tool_call {id: '<server>__<tool>'}", () => {
    expect(isOwnRecallCall('tool_call', { id: 'claude-mem__mem_search', args: { query: 'x' } })).toBe(true);
    expect(isOwnRecallCall('tool_call', { id: 'github__search_issues', args: {} })).toBe(false);
    expect(isOwnRecallCall('exec', { id: 'claude-mem__mem_search' })).toBe(false);
  });

  it("Grok Build's MCP dispatcher: use_tool {tool_name: '<server>__<tool>'}, and the routed name its hooks show", () => {
    expect(isOwnRecallCall('use_tool', { tool_name: 'claude-mem__mem_search', tool_input: { query: 'x' } })).toBe(true);
    expect(isOwnRecallTool('claude-mem__mem_timeline')).toBe(true);
    expect(isOwnRecallCall('use_tool', { tool_name: 'linear__save_issue', tool_input: {} })).toBe(false);
    expect(isOwnRecallCall('run_terminal_command', { tool_name: 'claude-mem__mem_search' })).toBe(false);
  });

  it.each([
    ['claude-code', 'claude-code/hooks', 'PostToolUse', 'tool_name', 'mcp__claude-mem__mem_search'],
    ['gemini', 'gemini-cli/hooks', 'AfterTool', 'tool_name', 'mcp_claude-mem_mem_search'],
    ['copilot', 'copilot-cli/hooks-camel', 'postToolUse', 'toolName', 'claude-mem-mem_search'],
  ] as const)('%s: a hook for our MCP tool stores nothing, and says why', (host, dir, event, field, name) => {
    const f = fixture(dir, event);
    const real = runFixture(host, f);
    expect(real.events.length, 'the fixture itself is captured').toBe(1);
    const ours = runFixture(host, { ...f, payload: { ...f.payload, [field]: name }, text: JSON.stringify({ ...f.payload, [field]: name }) });
    expect(ours.events).toEqual([]);
    expect(ours.notes.join('\n')).toContain("claude-mem's own recall tool");
  });
});
