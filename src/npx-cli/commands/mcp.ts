/** `claude-mem mcp`: the stdio MCP server hosts launch. The SDK loads only when this command runs. */
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('mcp')
    .description('Run the MCP server on stdio (hosts launch this; tools: mem_search, mem_timeline, mem_get_observations, mem_save, mem_context)')
    .action(async () => {
      const { runMcpServer } = await import('../../mcp/index.js');
      await runMcpServer();
      // The client is gone: never linger as an orphan because some handle is still open.
      setTimeout(() => process.exit(process.exitCode ?? 0), 2000).unref();
    });
}
