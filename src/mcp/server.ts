/** `claude-mem mcp`: the stdio MCP server. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { dataPaths, type DataPaths } from '../shared/paths.js';
import { VERSION } from '../shared/version.js';
import { projectFor } from '../worker/project.js';
import { FallbackReader, workerKicker } from './access.js';
import { hostFromClientName } from './args.js';
import { DirectReader } from './direct-reader.js';
import { debug, guardStdout } from './log.js';
import { registerTools } from './tools.js';
import { WorkerReader } from './worker-reader.js';
import { Workspace } from './workspace.js';

const INSTRUCTIONS = 'claude-mem is the long-term memory shared by every coding agent on this machine. '
  + 'Before non-trivial work, look for prior work: mem_search (ids) → mem_timeline (context around an id) → mem_get_observations (full details). '
  + 'mem_context gives the current project\'s digest; mem_save keeps a decision, gotcha or convention for future sessions.';

export interface McpServerOptions {
  paths?: DataPaths;
  /** The directory the host launched us in (default: process.cwd()). */
  cwd?: string;
}

export function createMcpServer(opts: McpServerOptions = {}): McpServer {
  const paths = opts.paths ?? dataPaths();
  const launchCwd = opts.cwd ?? process.cwd();
  const server = new McpServer({ name: 'claude-mem', version: VERSION }, { instructions: INSTRUCTIONS });
  const workspace = new Workspace(server.server, launchCwd);

  const reader = new FallbackReader(new WorkerReader(paths), new DirectReader(paths, () => projectFor(launchCwd)), {
    kickWorker: workerKicker(paths),
  });
  registerTools(server, {
    reader,
    cwd: () => workspace.cwd(),
    projectOf: projectFor,
    host: () => hostFromClientName(server.server.getClientVersion()?.name),
  });
  return server;
}

/** Serves MCP on stdin/stdout until the client goes away. Resolves when closed. */
export async function runMcpServer(opts: McpServerOptions = {}): Promise<void> {
  guardStdout();
  const server = createMcpServer(opts);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  const close = (): void => {
    void server.close().catch(() => undefined);
  };
  // The transport does not notice the client hanging up; end with stdin.
  process.stdin.once('end', close);
  process.stdin.once('close', close);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, close);
  await server.connect(new StdioServerTransport());
  debug(`serving on stdio (pid ${process.pid}, cwd ${opts.cwd ?? process.cwd()})`);
  await closed;
}
