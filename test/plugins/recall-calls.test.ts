import { describe, expect, it } from 'vitest';
import { isOwnRecallCall, isOwnRecallTool } from '../../templates/plugins/shared/recall-specs.js';

describe('our own recall calls are recognised under every name a host gives them', () => {
  it('native and MCP tool names', () => {
    for (const name of ['mem_search', 'mcp__claude-mem__mem_search', 'claude-mem_mem_timeline', 'mcp__claude_mem_mem_save']) expect(isOwnRecallTool(name), name).toBe(true);
    for (const name of ['search', 'mcp__other__mem_search', 'bash', 'mem_searcher']) expect(isOwnRecallTool(name), name).toBe(false);
  });

  it("OMP's MCP devices: a write to xd://mcp__claude_mem_<tool>", () => {
    expect(isOwnRecallCall('write', { path: 'xd://mcp__claude_mem_mem_search', content: '{"query":"x"}' })).toBe(true);
    expect(isOwnRecallCall('write', { path: 'xd://mcp__claude_mem_mem_get_observations', content: '{}' })).toBe(true);
    // Real work stays work: another server's device, an ordinary file, a file that merely has the name.
    expect(isOwnRecallCall('write', { path: 'xd://mcp__github_search_issues', content: '{}' })).toBe(false);
    expect(isOwnRecallCall('write', { path: '/home/dev/claude_mem_mem_search', content: 'x' })).toBe(false);
    expect(isOwnRecallCall('write', { path: 'notes/mcp__claude_mem_mem_search.md' })).toBe(false);
    expect(isOwnRecallCall('bash', { command: 'echo xd://mcp__claude_mem_mem_search' })).toBe(false);
    expect(isOwnRecallCall('write', undefined)).toBe(false);
  });
});
