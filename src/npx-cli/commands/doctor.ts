/**
 * `claude-mem doctor`: proves every part works (runtime, data, worker, capture, each installed
 * host with a live round trip) and says exactly what to fix. Changes nothing unless --fix.
 */
import type { Command } from 'commander';
import { HOST_IDS, resolveHostList, type HostId } from '../../shared/hosts.js';
import { UsageError, print, printJson, setExit } from '../output.js';

interface DoctorOpts {
  ide?: string[];
  json?: boolean;
  fix?: boolean;
  strict?: boolean;
}

const HELP = `
Checks, each with its evidence and a fix: Node and better-sqlite3, the entry host configs run,
data directory permissions, database integrity and migrations, free disk, the worker (identity,
token, port), the spool and dead letters, and for every installed host: its files parse and hold
claude-mem's entries (drift, with the diff), every path they name exists, its prerequisites, no
double registration, and a live round trip through its hook command and MCP server (a synthetic
event marked as a probe is stored, then removed).

Hosts: ${HOST_IDS.join(', ')} (aliases accepted).

--fix repairs what is safe: re-applies drifted entries (your other edits stay), starts a dead
worker, drains the spool, fixes permissions; then checks again and lists what it changed.

Exit codes: 0 every check passed (warnings allowed unless --strict), 1 a check failed, 2 usage error.`;

export function register(program: Command): void {
  program
    .command('doctor')
    .description('Check every part of claude-mem and say exactly what to fix')
    .option('--ide <ids...>', 'only these hosts (ids or aliases)')
    .option('--json', 'one JSON document on stdout: { version, ok, checks, fixed }')
    .option('--fix', 'repair what is safe to repair, then check again')
    .option('--strict', 'warnings fail too (exit 1)')
    .addHelpText('after', HELP)
    .action(async (opts: DoctorOpts) => {
      let hosts: HostId[] | undefined;
      try {
        hosts = opts.ide ? resolveHostList(opts.ide) : undefined;
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      const t0 = performance.now();
      const { runDoctor } = await import('../doctor/run.js');
      const report = await runDoctor({ hosts, fix: !!opts.fix, strict: !!opts.strict, env: process.env });
      if (opts.json) printJson(report);
      else {
        const { renderReport } = await import('../doctor/render.js');
        print(renderReport(report, { tty: !!process.stdout.isTTY, ms: performance.now() - t0 }));
      }
      setExit(report.ok ? 0 : 1);
      // A time-boxed child left behind (a wedged host CLI) must not keep the command alive.
      await new Promise<void>((r) => process.stdout.write('', () => r()));
      process.exit(report.ok ? 0 : 1);
    });
}
