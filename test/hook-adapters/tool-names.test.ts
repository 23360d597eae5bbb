import { describe, expect, it } from 'vitest';
import { CANONICAL_TOOLS, normalizeToolName } from '../../src/shared/tool-names.js';

describe('normalizeToolName', () => {
  it.each([
    ['claude-code', 'Bash', 'Bash'], ['claude-code', 'MultiEdit', 'Edit'], ['claude-code', 'NotebookEdit', 'NotebookEdit'],
    ['codex', 'apply_patch', 'ApplyPatch'], ['codex', 'exec_command', 'Bash'], ['codex', 'update_plan', 'TodoWrite'],
    ['gemini', 'run_shell_command', 'Bash'], ['gemini', 'replace', 'Edit'], ['gemini', 'google_web_search', 'WebSearch'],
    ['gemini', 'search_file_content', 'Grep'], ['gemini', 'list_directory', 'LS'], ['gemini', 'write_todos', 'TodoWrite'],
    ['copilot', 'bash', 'Bash'], ['copilot', 'view', 'Read'], ['copilot', 'create', 'Write'], ['copilot', 'edit', 'Edit'],
    ['antigravity', 'view_file', 'Read'], ['antigravity', 'write_to_file', 'Write'], ['antigravity', 'multi_replace_file_content', 'Edit'],
    ['antigravity', 'find_by_name', 'Glob'], ['antigravity', 'list_dir', 'LS'], ['antigravity', 'read_url_content', 'WebFetch'],
    ['grok', 'run_terminal_command', 'Bash'], ['grok', 'search', 'Grep'], ['kimi', 'Shell', 'Bash'], ['kimi', 'SearchWeb', 'WebSearch'],
    ['kimi', 'SetTodoList', 'TodoWrite'], ['kimi', 'Agent', 'Task'], ['cursor', 'Shell', 'Bash'], ['goose', 'developer__shell', 'Bash'],
  ])('%s %s → %s', (host, raw, expected) => {
    expect(normalizeToolName(host, raw)).toBe(expected);
    expect(CANONICAL_TOOLS as readonly string[]).toContain(expected);
  });

  it('is idempotent: a canonical name stays itself for every host', () => {
    for (const host of ['claude-code', 'codex', 'copilot', 'goose', 'grok', 'kimi', 'pi', 'dsh']) {
      for (const name of CANONICAL_TOOLS) expect(normalizeToolName(host, name), `${host} ${name}`).toBe(name);
    }
  });

  it('keeps MCP names and unknown names; Goose extensions become MCP names', () => {
    expect(normalizeToolName('claude-code', 'mcp__github__create_issue')).toBe('mcp__github__create_issue');
    expect(normalizeToolName('copilot', 'read_bash')).toBe('read_bash');
    expect(normalizeToolName('goose', 'memory__remember')).toBe('mcp__memory__remember');
    expect(normalizeToolName('codex', 'search')).toBe('search');
    expect(normalizeToolName('claude-code', '  ')).toBe('');
  });
});
