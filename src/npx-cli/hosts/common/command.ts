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

/** What a command of ours always contains, whatever else the user put around it. */
export function hookMarker(host: HostId, event: string): string {
  return ` hook ${host} ${event}`;
}

/**
 * What identifies our install in a command. A real install lives in a `claude-mem` package
 * directory, and that stays true across upgrades (a new npx cache path replaces our entry instead
 * of adding a second one); a checkout elsewhere is identified by its exact quoted path.
 */
export function installMarker(rt: Runtime): string {
  return rt.entryPath.includes('claude-mem') ? 'claude-mem' : shQuote(rt.entryPath);
}

/**
 * Finds our entry for one event: the install marker and ` hook <host> <event>` both appear in the
 * command at `path` (or anywhere in the entry when `path` is omitted).
 */
export function hookMatcher(rt: Runtime, host: HostId, event: string, path?: readonly string[]): EntryMatcher {
  const at = path ? { path } : {};
  return [{ ...at, contains: installMarker(rt) }, { ...at, contains: hookMarker(host, event) }];
}

/** True when a command string is one of our hook commands for `host` (any event, any install path). */
export function isOurHookCommand(command: unknown, host: HostId): boolean {
  return typeof command === 'string' && command.includes(` hook ${host} `);
}

/** The stdio MCP server: `node <entry> mcp`. */
export function mcpServer(rt: Runtime): { command: string; args: string[] } {
  return { command: rt.nodePath, args: [rt.entryPath, 'mcp'] };
}
