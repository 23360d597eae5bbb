/** `claude-mem uninstall`: remove exactly what install added (per the install manifest). */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { HOST_IDS, resolveHostList, type HostId } from '../../shared/hosts.js';
import { UsageError, eprintln, printJson, println, setExit, style } from '../output.js';
import { canPrompt } from '../install/tty.js';
import type { Found } from '../install/uninstall.js';

interface UninstallOpts {
  ide?: string[];
  dryRun?: boolean;
  purge?: boolean;
  yes?: boolean;
  json?: boolean;
}

const HELP = `
Reverts what install recorded in <data dir>/install-manifest.json: our entries are found again
by what they are, values we replaced are put back, files we created are deleted unless you
changed them, and no file is ever created. Entries of ours that the manifest does not record
(the data directory was deleted, say) are found in the host files themselves and removed too,
after saying which; a setting whose earlier value is unknown without the record is left alone.
Without --ide every host is covered.

The worker is stopped when no installed host remains (a partial uninstall leaves it running).
--purge also deletes the data directory (memory, settings, backups) after stopping the worker;
it cannot be combined with a partial --ide list.

Prompts appear only on a terminal. Without a terminal (or with CI set), --yes or --ide is
required (--purge always needs --yes there).

Exit codes: 0 done (or nothing to do, or a dry run), 1 a host could not be reverted or the
worker would not stop, 2 usage error, 130 cancelled at the prompt (nothing changed).`;

export function register(program: Command): void {
  program
    .command('uninstall')
    .description('Remove what install added (per host, or everything)')
    .option('--ide <ids...>', `hosts to remove (${HOST_IDS.length} ids or aliases, or all)`)
    .option('--dry-run', 'print the per-file diff; write nothing')
    .option('--purge', 'also delete the data directory (all memory) after stopping the worker')
    .option('-y, --yes', 'no prompts')
    .option('--json', 'one JSON document on stdout; logs on stderr')
    .addHelpText('after', HELP)
    .action(async (opts: UninstallOpts) => {
      let hosts: HostId[] | undefined;
      try {
        hosts = opts.ide ? resolveHostList(opts.ide) : undefined;
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      const all = !hosts || hosts.length === HOST_IDS.length;
      if (opts.purge && !all) throw new UsageError('--purge deletes the whole data directory; use it without --ide (or with --ide all).');
      const env = process.env;
      const canAsk = canPrompt(env, opts);
      if (!canAsk && !opts.yes && !opts.dryRun && (!hosts || opts.purge)) {
        throw new UsageError(`no terminal to confirm (stdin is not a TTY, CI is set, or --json). Pass --yes${opts.purge ? '' : ' or --ide <ids...>'}, or --dry-run to see what would change.`);
      }
      const { runUninstall: run } = await import('../install/uninstall.js');
      const { withFix } = await import('../install/errors.js');
      // Loaded before anything is removed: --purge deletes the program this may be running from.
      const { hostLines, tildify } = await import('../install/summary.js');
      const runUninstall = (o: Parameters<typeof run>[0]) => run(o).catch((e: unknown) => {
        throw withFix(e);
      });
      if (canAsk) {
        const preview = await runUninstall({ hosts, dryRun: true, purge: !!opts.purge, env });
        const p = await import('@clack/prompts');
        const targets = preview.hosts.filter((h) => h.status !== 'skipped').map((h) => h.label);
        if (targets.length === 0 && !opts.purge) {
          println(NOTHING);
          return;
        }
        for (const h of preview.hosts) for (const line of hostLines(h)) println(line);
        const ok = await p.confirm({
          message: `Remove claude-mem from ${targets.join(', ') || 'no host'}${opts.purge ? ' and DELETE the data directory (all memory)' : ''}?`,
          initialValue: false,
        });
        if (p.isCancel(ok) || !ok) {
          p.cancel('Cancelled. Nothing was changed.');
          setExit(130);
          return;
        }
      }
      const r = await runUninstall({ hosts, dryRun: !!opts.dryRun, purge: !!opts.purge, env, onFound: canAsk || opts.json ? undefined : (found) => sayFound(found, !!opts.dryRun, tildify) });
      if (opts.json) printJson(r);
      else print(r, hostLines);
      setExit(r.ok ? 0 : 1);
    });
}

const NOTHING = 'Nothing to uninstall: the install manifest records no host, and no host file holds an entry of claude-mem.';

/** Said before anything is written: what is removed although the manifest has no record of it. */
function sayFound(found: Found[], dryRun: boolean, tildify: (p: string) => string): void {
  println(`The install manifest does not record these claude-mem entries (it is missing or incomplete); ${dryRun ? 'they would be removed' : 'removing them'}:`);
  for (const f of found) println(`  ${f.label}: ${f.files.map((p) => tildify(p)).join(', ')}`);
}

type Outcome = Awaited<ReturnType<typeof import('../install/uninstall.js').runUninstall>>;

function print(r: Outcome, hostLines: typeof import('../install/summary.js').hostLines): void {
  if (r.dryRun) println(style.bold('claude-mem uninstall — dry run: nothing is written'));
  if (r.hosts.length === 0) println(NOTHING);
  for (const h of r.hosts) for (const line of hostLines(h)) (h.status === 'failed' ? eprintln : println)(line);
  if (r.dryRun && r.diff) println(`\n${r.diff}`);
  const w = r.worker;
  const text = { stopped: 'worker: stopped', 'not-running': 'worker: not running', 'left-running': `worker: left running (${w.detail})`, 'would-stop': 'worker: would be stopped', failed: `worker: could not be stopped — ${w.detail}` }[w.action];
  (w.action === 'failed' ? eprintln : println)(text);
  if (r.error) eprintln(style.red(r.error));
  if (r.purged === true) println(`data directory removed: ${r.dataDir}`);
  else if (r.purged === 'would-purge') println(`data directory would be removed: ${r.dataDir}`);
  else if (!r.dryRun && existsSync(r.dataDir)) println(`data directory kept: ${r.dataDir} (your memory, and claude-mem itself under runtime/; \`claude-mem uninstall --purge\` removes both)`);
}
