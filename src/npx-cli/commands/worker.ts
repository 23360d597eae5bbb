/** `claude-mem start | stop | restart | status`: the worker of this data directory. */
import type { Command } from 'commander';
import { intOption } from '../output.js';

interface JsonOpt {
  json?: boolean;
}

// The worker's own modules (store, watcher, settings) load in the worker process, never here;
// the lifecycle client loads only when one of these commands runs.
const actions = () => import('../actions/worker.js');

export function register(program: Command): void {
  const wait = ['--wait <ms>', 'how long to wait for the worker to be healthy', intOption(0, 600_000), 15_000] as const;

  program
    .command('start')
    .description('Start the worker for this data directory (detached)')
    .option('--json', 'machine-readable output')
    .option(...wait)
    .action(async (opts: JsonOpt & { wait: number }) => (await actions()).start(opts));

  program
    .command('stop')
    .description('Stop the worker (graceful shutdown, then SIGTERM)')
    .option('--json', 'machine-readable output')
    .action(async (opts: JsonOpt) => (await actions()).stop(opts));

  program
    .command('restart')
    .description('Stop the worker, then start it')
    .option('--json', 'machine-readable output')
    .option(...wait)
    .action(async (opts: JsonOpt & { wait: number }) => (await actions()).restart(opts));

  program
    .command('status')
    .description('Show whether the worker runs, with the evidence (exit 0 only when running)')
    .option('--json', 'machine-readable output')
    .action(async (opts: JsonOpt) => (await actions()).status(opts));
}
