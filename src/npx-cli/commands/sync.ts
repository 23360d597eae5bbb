/** `claude-mem sync …`: one memory across machines and a team, through a PostgreSQL database. */
import type { Command } from 'commander';

interface JsonOpt {
  json?: boolean;
}

const actions = () => import('../actions/sync.js');

export function register(program: Command): void {
  const sync = program.command('sync').description('Share memory across your machines and with a team through PostgreSQL');

  sync
    .command('setup')
    .description('Point this machine at a PostgreSQL database (creating or migrating claude-mem\'s schema there)')
    .argument('<database>', 'postgres://user:password@host:port/db (TLS options as ?sslmode=verify-full&sslrootcert=…) or service=<name>')
    .option('--team <role>', 'the team (a PostgreSQL role you are a member of) that projects are shared with')
    .option('--device <name>', 'how this machine is named to your other machines and your team')
    .option('--json', 'machine-readable output')
    .action(async (database: string, opts: JsonOpt & { team?: string; device?: string }) => (await actions()).setup(database, opts));

  sync
    .command('status')
    .description('Show whether sync runs, what waits to be pushed, the last push, pull and error')
    .option('--json', 'machine-readable output')
    .action(async (opts: JsonOpt) => (await actions()).status(opts));

  sync
    .command('now')
    .description('Push and pull now, and report what moved')
    .option('--json', 'machine-readable output')
    .action(async (opts: JsonOpt) => (await actions()).now(opts));

  sync
    .command('pause')
    .description('Stop syncing until resume (capture goes on locally)')
    .option('--json', 'machine-readable output')
    .action(async (opts: JsonOpt) => (await actions()).pause(true, opts));

  sync
    .command('resume')
    .description('Sync again after pause')
    .option('--json', 'machine-readable output')
    .action(async (opts: JsonOpt) => (await actions()).pause(false, opts));

  sync
    .command('share')
    .description('Share a project with your team (its git remote identifies it; default: the current directory)')
    .argument('[project]', 'a directory inside the project, or its identity (e.g. github.com/acme/app)')
    .option('--json', 'machine-readable output')
    .action(async (project: string | undefined, opts: JsonOpt) => (await actions()).share(project, true, opts));

  sync
    .command('unshare')
    .description('Stop sharing a project with your team (what teammates already pulled stays with them)')
    .argument('[project]', 'a directory inside the project, or its identity')
    .option('--json', 'machine-readable output')
    .action(async (project: string | undefined, opts: JsonOpt) => (await actions()).share(project, false, opts));

  sync
    .command('remove')
    .description('Stop syncing this machine (the database keeps its rows unless --purge-remote)')
    .option('--purge-remote', 'also delete every row of yours from the database (asks first)')
    .option('--yes', 'answer yes to the --purge-remote confirmation')
    .option('--json', 'machine-readable output')
    .action(async (opts: JsonOpt & { purgeRemote?: boolean; yes?: boolean }) => (await actions()).remove(opts));
}
