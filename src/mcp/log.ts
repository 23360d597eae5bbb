/**
 * stdout belongs to the MCP protocol: one stray line breaks the client. Diagnostics go to stderr,
 * and only when CLAUDE_MEM_DEBUG is set.
 */
import { format } from 'node:util';

const enabled = (): boolean => !!process.env.CLAUDE_MEM_DEBUG && process.env.CLAUDE_MEM_DEBUG !== '0';

export function debug(...args: unknown[]): void {
  if (enabled()) process.stderr.write(`[claude-mem mcp] ${format(...args)}\n`);
}

/** Routes console output of any loaded module away from stdout. */
export function guardStdout(): void {
  console.log = debug;
  console.info = debug;
  console.debug = debug;
  console.warn = debug;
  console.error = debug;
}
