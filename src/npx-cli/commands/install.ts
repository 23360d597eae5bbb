/**
 * `claude-mem install`: detect hosts, show the plan, write their configs (one capture writer per
 * host), prepare the data directory (0700, settings, port, token) and start the worker.
 */
import type { Command } from 'commander';
import { HOST_IDS, resolveHostList, type HostId } from '../../shared/hosts.js';
import { UsageError, eprintln, setExit } from '../output.js';
import { canPrompt } from '../install/tty.js';

interface InstallOpts {
  yes?: boolean;
  ide?: string[];
  allDetected?: boolean;
  dryRun?: boolean;
  json?: boolean;
  start: boolean;
  codexSubagentTranscripts?: boolean;
  enableHooks?: boolean;
  importHistory?: boolean;
}

const HELP = `
Hosts: ${HOST_IDS.join(', ')} (aliases accepted; "all" = every host, found or not).

Prompts appear only on a terminal. With --yes, or when stdin is not a TTY, or CI is set,
nothing is asked:
  --ide <ids...>     installs exactly those hosts
  --all-detected     installs the hosts found on this machine
  --yes              alone: the hosts found on this machine
  --dry-run          alone: shows the plan for the hosts found (writes nothing, not even the data dir)
  --import-history   then imports the last 90 days of the installed hosts' past sessions
                     (on a terminal you are asked, default yes; --no-import-history: not offered)
  none of these      exits 2 without changing anything (there is no one to ask)

A host whose own switch turns every hook off (Codex \`[features] hooks = false\`, Claude Code
\`"disableAllHooks": true\`) is configured but left off, and said so: the switch is turned on only
with --enable-hooks or when you say yes to the question (--yes alone does not change it).

Codex runs a hook only after the user trusts it. With consent (--yes, or "Install" in the
interactive flow) claude-mem asks Codex to trust its own hooks through \`codex app-server\`, as
Codex's /hooks screen does; otherwise Codex capture stays off until you trust them in /hooks.

Exit codes: 0 installed (or nothing to do, or a dry run with no problem), 1 a host or the worker
failed (the other hosts are still installed; in a dry run: a host would fail), 2 usage error,
130 cancelled at a prompt (nothing changed).`;

export function register(program: Command): void {
  program
    .command('install')
    .description('Detect your coding agents, show the plan, configure them, start the worker')
    .option('-y, --yes', 'no prompts; consent to the plan (and to trusting our Codex hooks)')
    .option('--ide <ids...>', 'hosts to configure (ids or aliases, or all)')
    .option('--all-detected', 'configure every host found on this machine')
    .option('--dry-run', 'print the per-file diff; write nothing')
    .option('--json', 'one JSON document on stdout (a result per host); logs on stderr')
    .option('--no-start', 'do not start the worker')
    .option('--codex-subagent-transcripts', 'also capture Codex subagent sessions from its rollout logs')
    .option('--import-history', 'then import the last 90 days of past sessions the installed hosts wrote (asked on a terminal)')
    .option('--no-import-history', 'do not offer to import past sessions')
    .option('--enable-hooks', "turn on a host's own hook switch you turned off (Codex [features] hooks, Claude Code disableAllHooks)")
    .addHelpText('after', HELP)
    .action(async (opts: InstallOpts) => {
      let named: HostId[] | undefined;
      try {
        named = opts.ide ? resolveHostList(opts.ide) : undefined;
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      const env = process.env;
      const canAsk = canPrompt(env, opts);
      if (!canAsk && !opts.yes && !named && !opts.allDetected && !opts.dryRun) {
        throw new UsageError('no terminal to ask which hosts to set up (stdin is not a TTY, CI is set, or --json). '
          + 'Pass --yes to install the hosts found on this machine, --ide <ids...> to choose, or --dry-run to see the plan.');
      }
      const { prepare, detectedIds } = await import('../install/install-plan.js');
      const { withFix } = await import('../install/errors.js');
      const prepared = await prepare(env).catch((e: unknown) => {
        throw withFix(e);
      });
      if (canAsk) {
        const { clackPrompter, runInteractive } = await import('../install/interactive.js');
        const code = await runInteractive(prepared, await clackPrompter(), {
          preselected: named && (opts.allDetected ? union(named, detectedIds(prepared)) : named),
          start: opts.start, codexSubagentTranscripts: !!opts.codexSubagentTranscripts, enableHooks: !!opts.enableHooks, env,
          write: (t) => process.stdout.write(t), importHistory: opts.importHistory,
        });
        setExit(code);
        return;
      }
      const selected = named ? (opts.allDetected ? union(named, detectedIds(prepared)) : named) : detectedIds(prepared);
      const { emit, runInstall } = await import('../install/run.js');
      const { SimulatedCrash } = await import('../install/apply.js');
      try {
        const r = await runInstall(prepared, {
          selected, dryRun: !!opts.dryRun, json: !!opts.json, start: opts.start,
          consent: !!opts.yes, codexSubagentTranscripts: !!opts.codexSubagentTranscripts, enableHooks: !!opts.enableHooks, env,
        });
        if (opts.importHistory && !opts.dryRun) r.document.history = await importHistoryAfter(r.document, env, !!opts.json);
        emit(r, !!opts.json);
        setExit(r.exitCode);
      } catch (e) {
        if (e instanceof SimulatedCrash) {
          // Tests only: die like a killed process, with nothing after the last write.
          eprintln(e.message);
          process.exit(75);
        }
        throw e;
      }
    });
}

/** `--import-history` without prompts: the hosts this install set up (failed ones excluded). */
async function importHistoryAfter(doc: Record<string, unknown>, env: NodeJS.ProcessEnv, json: boolean): Promise<unknown> {
  const hosts = ((doc.hosts ?? []) as Array<{ id: HostId; selected: boolean; status: string }>)
    .filter((h) => h.selected && h.status !== 'failed' && h.status !== 'skipped').map((h) => h.id);
  if (!hosts.length || typeof doc.dataDir !== 'string') return null;
  const { importAfterInstall } = await import('../install/history.js');
  return importAfterInstall(hosts, doc.dataDir, env, json);
}

function union(a: readonly HostId[], b: readonly HostId[]): HostId[] {
  return HOST_IDS.filter((h) => a.includes(h) || b.includes(h));
}
