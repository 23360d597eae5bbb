/** The commands and MCP entries hosts run: absolute node + absolute entry, never a PATH lookup. */
import type { EntryMatcher } from '../../engine/index.js';
import type { HostId } from '../../../shared/hosts.js';
import { shQuote } from './quote.js';

export interface Runtime {
  nodePath: string;
  entryPath: string;
}

/** Every MCP entry claude-mem owns has this key. */
export const MCP_KEY = 'claude-mem';

/** `'<node>' '<entry>' hook <host> <event>` for hosts that run a shell command line. */
export function hookCommand(rt: Runtime, host: HostId, event: string): string {
  return `${shQuote(rt.nodePath)} ${shQuote(rt.entryPath)} hook ${host} ${event}`;
}

/** The same as an argv array, for hosts that spawn without a shell. */
export function hookArgv(rt: Runtime, host: HostId, event: string): string[] {
  return [rt.nodePath, rt.entryPath, 'hook', host, event];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Recognises our command for one event by what it is, wherever claude-mem was installed from:
 * a claude-mem entry (the data directory's launcher `…/claude-mem.cjs`, a package's
 * `…/dist/bin.js`, or `claude-mem` itself), quoted or not, followed by `hook <host> <event>`.
 * An upgrade, a second checkout or an older install's entry is then replaced, never doubled.
 */
function ourHookPattern(host: HostId, event: string): string {
  return `(?:/dist/bin\\.js|/claude-mem\\.cjs|(?:^|[\\s'"])claude-mem)['"]?\\s+hook\\s+${escape(host)}\\s+${escape(event)}(?=$|[\\s'"])`;
}

/**
 * Finds our entry for one event: our command at `path` (or anywhere in the entry when `path` is
 * omitted). Which copy of claude-mem wrote it does not matter, hence the unused runtime.
 */
export function hookMatcher(_rt: Runtime, host: HostId, event: string, path?: readonly string[]): EntryMatcher {
  return [{ ...(path ? { path } : {}), pattern: ourHookPattern(host, event) }];
}

/** True when a command string is one of our hook commands for `host` (any event, any install path). */
export function isOurHookCommand(command: unknown, host: HostId): boolean {
  return typeof command === 'string' && command.includes(` hook ${host} `);
}

/** The stdio MCP server: `node <entry> mcp`. */
export function mcpServer(rt: Runtime): { command: string; args: string[] } {
  return { command: rt.nodePath, args: [rt.entryPath, 'mcp'] };
}
