/** `claude-mem viewer`: the memory in a browser page served by the worker. */
import type { Command } from 'commander';

export function register(program: Command): void {
  program
    .command('viewer')
    .description('Open the memory viewer in your browser (a one-time sign-in link to the worker on 127.0.0.1)')
    .option('--no-open', 'only print the link (it works once, within 5 minutes)')
    .option('--json', 'machine-readable output')
    .action(async (opts: { open: boolean; json?: boolean }) => {
      const { runViewer } = await import('../actions/viewer.js');
      await runViewer(opts);
    });
}
