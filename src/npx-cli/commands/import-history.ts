/**
 * `claude-mem import-history`: stores the sessions hosts already wrote to disk — the same rows
 * live capture would have written, each event once whichever path saw it first.
 */
import type { Command } from 'commander';
import { resolveHostList, type HostId } from '../../shared/hosts.js';
import { UsageError } from '../output.js';
import type { ImportHistoryOpts } from '../actions/import-history.js';

const HELP = `
Reads each host's own session logs (where each host keeps them: docs/import.md) oldest first.
Without --ide: every host with logs on this machine. Each batch is stored with its position in
the log: Ctrl-C stops after the batch being stored, and running the command again resumes.
An event already captured live (or imported before) is not stored again.

Exit codes: 0 done, 1 a log could not be read (the others were imported), 2 usage error,
130 stopped by Ctrl-C (run again to resume).`;

/** `--since`: an ISO date or time, or a number of days back (`90d`). */
function parseSince(v: string | undefined, now = Date.now()): number | undefined {
  if (v === undefined) return undefined;
  const days = /^(\d+)d$/.exec(v.trim());
  if (days) return now - Number(days[1]) * 86_400_000;
  const t = Date.parse(v);
  if (Number.isNaN(t)) throw new UsageError(`--since must be an ISO date (e.g. 2025-01-31) or a number of days (e.g. 90d), got "${v}"`);
  return t;
}

export function register(program: Command): void {
  program
    .command('import-history')
    .description('import the sessions your coding agents already wrote to disk')
    .option('--ide <ids...>', 'hosts to import from (ids or aliases; default: every host with logs here)')
    .option('--since <date>', 'only sessions active since this date (ISO date, or e.g. 90d)')
    .option('--project <path>', 'only sessions whose working directory is inside this path')
    .option('--dry-run', 'count sessions and bytes per host; store nothing')
    .option('--json', 'one JSON document on stdout; progress on stderr')
    .addHelpText('after', HELP)
    .action(async (opts: ImportHistoryOpts) => {
      let hosts: HostId[] | undefined;
      try { hosts = opts.ide ? resolveHostList(opts.ide) : undefined; } catch (e) { throw new UsageError((e as Error).message); }
      const sinceMs = parseSince(opts.since);
      await (await import('../actions/import-history.js')).importHistory({ ...opts, hosts, sinceMs });
    });
}
