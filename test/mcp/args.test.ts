import { describe, expect, it } from 'vitest';
import { hostFromClientName, resolveHostArg, resolveProjectArg, resolveTimeArg } from '../../src/mcp/args.js';

describe('mcp argument resolution', () => {
  it('times: ages count back from now, dates stay whole days, date-times become UTC', () => {
    const now = Date.parse('2025-03-10T12:00:00Z');
    expect(resolveTimeArg('since', '7d', now)).toBe('2025-03-03T12:00:00.000Z');
    expect(resolveTimeArg('since', '90m', now)).toBe('2025-03-10T10:30:00.000Z');
    expect(resolveTimeArg('since', '2w', now)).toBe('2025-02-24T12:00:00.000Z');
    expect(resolveTimeArg('until', '2025-03-01', now)).toBe('2025-03-01');
    expect(resolveTimeArg('until', '2025-03-01T14:00:00+02:00', now)).toBe('2025-03-01T12:00:00.000Z');
    expect(resolveTimeArg('since', undefined, now)).toBeUndefined();
    expect(() => resolveTimeArg('since', 'yesterday-ish', now)).toThrow(/"since" must be/);
    expect(() => resolveTimeArg('since', '2025-13-45', now)).toThrow();
  });

  it('hosts: ids and aliases, unknown names rejected with the list', () => {
    expect(resolveHostArg('claude')).toBe('claude-code');
    expect(resolveHostArg('Codex-CLI')).toBe('codex');
    expect(resolveHostArg(undefined)).toBeUndefined();
    expect(() => resolveHostArg('vim')).toThrow(/claude-code, codex/);
  });

  it('projects: "*" = all, "." = current, omitted = the tool default', () => {
    const cur = () => 'cur';
    expect(resolveProjectArg(undefined, cur, 'all')).toBeUndefined();
    expect(resolveProjectArg(undefined, cur, 'current')).toBe('cur');
    expect(resolveProjectArg('*', cur, 'current')).toBeUndefined();
    expect(resolveProjectArg('.', cur, 'all')).toBe('cur');
    expect(resolveProjectArg(' github.com/a/b ', cur, 'all')).toBe('github.com/a/b');
  });

  it('client names map to hosts only when unambiguous', () => {
    expect(hostFromClientName('claude-code')).toBe('claude-code');
    expect(hostFromClientName('codex-mcp-client')).toBe('codex');
    expect(hostFromClientName('cursor-vscode')).toBe('cursor');
    expect(hostFromClientName('gemini-cli-mcp-client')).toBe('gemini');
    expect(hostFromClientName('claude-ai')).toBeUndefined();
    expect(hostFromClientName(undefined)).toBeUndefined();
  });
});
