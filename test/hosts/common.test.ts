/** Shared helpers: quoting, commands, matchers. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { hookArgv, hookCommand, hookMatcher, isOurHookCommand, mcpServer } from '../../src/npx-cli/hosts/common/command.js';
import { shQuote } from '../../src/npx-cli/hosts/common/quote.js';
import { matches } from '../../src/npx-cli/engine/index.js';

describe('shQuote', () => {
  it.each([
    ['/usr/bin/node', "'/usr/bin/node'"],
    ["/tmp/x/it's here/node", "'/tmp/x/it'\\''s here/node'"],
    ["''", "''\\'''\\'''"],
    ['$HOME `id` "q" \\n *', "'$HOME `id` \"q\" \\n *'"],
  ])('%s', (input, quoted) => {
    expect(shQuote(input)).toBe(quoted);
    expect(execFileSync('/bin/sh', ['-c', `printf %s ${quoted}`], { encoding: 'utf8' })).toBe(input);
  });
});

describe('hook commands', () => {
  const rt = { nodePath: "/tmp/x/it's here/node", entryPath: "/tmp/x/it's here/claude-mem/dist/bin.js" };

  it('quote node and entry, and name the host and event', () => {
    expect(hookCommand(rt, 'codex', 'Stop')).toBe("'/tmp/x/it'\\''s here/node' '/tmp/x/it'\\''s here/claude-mem/dist/bin.js' hook codex Stop");
    expect(hookArgv(rt, 'codex', 'Stop')).toEqual([rt.nodePath, rt.entryPath, 'hook', 'codex', 'Stop']);
    expect(mcpServer(rt)).toEqual({ command: rt.nodePath, args: [rt.entryPath, 'mcp'] });
    expect(isOurHookCommand(hookCommand(rt, 'kimi', 'Stop'), 'kimi')).toBe(true);
    expect(isOurHookCommand(hookCommand(rt, 'kimi', 'Stop'), 'codex')).toBe(false);
  });

  it('the matcher finds our entry for that event only, whatever the install path of a claude-mem package', () => {
    const match = hookMatcher(rt, 'codex', 'Stop', ['command']);
    expect(matches({ command: hookCommand(rt, 'codex', 'Stop') }, match)).toBe(true);
    expect(matches({ command: hookCommand({ ...rt, entryPath: '/new/claude-mem/dist/bin.js' }, 'codex', 'Stop') }, match)).toBe(true);
    expect(matches({ command: hookCommand(rt, 'codex', 'SessionEnd') }, match)).toBe(false);
    expect(matches({ command: hookCommand(rt, 'claude-code', 'Stop') }, match)).toBe(false);
    expect(matches({ command: 'notify-send hook codex Stop' }, match)).toBe(false);
  });

  it('recognises our command by what it is: any checkout, the launcher, or claude-mem on PATH; never another tool', () => {
    const launcher = { nodePath: '/usr/bin/node', entryPath: '/home/me/data/runtime/claude-mem.cjs' };
    const match = hookMatcher(launcher, 'gemini', 'AfterTool');
    const entry = (command: string) => ({ hooks: [{ command }] });
    for (const command of [
      hookCommand(launcher, 'gemini', 'AfterTool'),
      hookCommand({ nodePath: '/usr/bin/node', entryPath: '/work/main/dist/bin.js' }, 'gemini', 'AfterTool'),
      hookCommand({ nodePath: '/n', entryPath: "/Users/Jane O'Neil/code/cm/dist/bin.js" }, 'gemini', 'AfterTool'),
      'node "/opt/x/dist/bin.js" hook gemini AfterTool',
      'claude-mem hook gemini AfterTool',
    ]) expect(matches(entry(command), match), command).toBe(true);
    for (const command of [
      hookCommand(launcher, 'gemini', 'AfterToolUse'),
      hookCommand(launcher, 'goose', 'AfterTool'),
      '/usr/local/bin/my-claude-mem-fork hook gemini AfterTool',
      'node /opt/x/dist/other.js hook gemini AfterTool',
      'notify-send hook gemini AfterTool',
    ]) expect(matches(entry(command), match), command).toBe(false);
  });
});
