/**
 * `claude-mem install` (minimal): prepares the data directory (0700), settings with the port,
 * the token, and starts the worker. It configures no host yet and says so plainly; the
 * multi-host installer replaces this file.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { Command } from 'commander';
import { HOST_IDS, HOST_LABELS, resolveHostList } from '../../shared/hosts.js';
import { dataPaths } from '../../shared/paths.js';
import { UsageError, eprintln, printJson, println, setExit, style } from '../output.js';
import { startCommand } from './worker.js';

interface InstallOpts {
  yes?: boolean;
  ide?: string[];
  start: boolean;
  json?: boolean;
}

export function register(program: Command): void {
  program
    .command('install')
    .description('Set up claude-mem: data directory, settings, token, worker')
    .option('-y, --yes', 'no prompts (install never prompts in this version)')
    .option('--ide <ids...>', `hosts to configure (${HOST_IDS.join(', ')}, or all)`)
    .option('--no-start', 'do not start the worker')
    .option('--json', 'machine-readable output')
    .action(async (opts: InstallOpts) => {
      let hosts: string[] = [];
      try {
        hosts = opts.ide ? resolveHostList(opts.ide) : [];
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      // Loaded here: settings validation (zod) is not needed by --help or other commands.
      const { ensurePort, ensureSettingsFile } = await import('../../worker/settings.js');
      const { ensureToken } = await import('../../worker/lifecycle/token.js');
      const paths = dataPaths();
      const created: string[] = [];
      if (!existsSync(paths.root)) created.push(paths.root);
      for (const dir of [paths.root, paths.logs, paths.spool]) mkdirSync(dir, { recursive: true, mode: 0o700 });
      if (ensureSettingsFile(paths)) created.push(paths.settings);
      const port = await ensurePort(paths);
      if (ensureToken(paths).created) created.push(paths.token);

      const human = !opts.json;
      if (human) {
        println(`data directory: ${paths.root}`);
        for (const c of created) println(`  created ${c}`);
        println(`  worker port: ${port} (settings.json)`);
      }
      let worker: Record<string, unknown> | null = null;
      let ok = true;
      if (opts.start) {
        const r = await startCommand(paths, { json: opts.json, wait: 15_000 });
        worker = r.doc;
        ok = r.ok;
      } else if (human) println('worker not started (--no-start); run `claude-mem start` when ready');

      // Honest about hosts: this version configures none of them.
      const notConfigured = hosts.map((h) => ({ host: h, configured: false, reason: 'host setup is not available in this version yet' }));
      if (hosts.length) ok = false;
      const message = hosts.length
        ? `Host setup is not available in this version yet; nothing was configured for: ${hosts.map((h) => HOST_LABELS[h as keyof typeof HOST_LABELS]).join(', ')}.`
        : 'No supported host was found. Nothing was configured. To add one later: claude-mem install --ide <host>';
      if (opts.json) {
        printJson({ ok, dataDir: paths.root, created, port, worker, hosts: notConfigured, message });
      } else if (hosts.length) {
        eprintln(style.red(message));
      } else {
        println(message);
        println(`  hosts: ${HOST_IDS.join(', ')}`);
      }
      setExit(ok ? 0 : 1);
    });
}
