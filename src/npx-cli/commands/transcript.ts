/**
 * `claude-mem transcript watch | ingest | validate`: the transcript watcher in the foreground,
 * a one-shot import of past sessions, and the config/schema checker.
 */
import type { Command } from 'commander';

interface CommonOpts { json?: boolean; config?: string }

// Only the options live here: the store, the validator (zod) and the watcher load when a
// subcommand runs, so `--help`, `--version` and every other command never pay for them.
const actions = () => import('../actions/transcript.js');

export function register(program: Command): void {
  const t = program.command('transcript').description('read host session logs (transcripts) into memory');

  t.command('validate [file]')
    .description('check transcript-watch.json (or one schema file); lists every error with its path')
    .option('--json', 'machine output')
    .action(async (file: string | undefined, opts: CommonOpts) => (await actions()).validate(file, opts));

  t.command('ingest <fileOrGlob>')
    .description('import past transcripts once (a second run stores nothing new)')
    .requiredOption('--schema <name>', 'a shipped schema (templates/transcripts/<name>.json: claude-code, codex, opencode, …), one from transcript-watch.json, or a schema file')
    .option('--config <file>', 'transcript-watch.json to take custom schemas from')
    .option('--subagent-only', 'record only subagent sessions (as a subagentOnly watch would)')
    .option('--json', 'machine output')
    .action(async (pattern: string, opts: CommonOpts & { schema: string; subagentOnly?: boolean }) => (await actions()).ingest(pattern, opts));

  t.command('watch')
    .description('run the transcript watcher in the foreground against the database (debugging; the worker runs it too)')
    .option('--config <file>', 'transcript-watch.json to use (default: the data directory\'s)')
    .option('--once', 'read what is there now, then exit')
    .option('--json', 'print the final status as JSON')
    .action(async (opts: CommonOpts & { once?: boolean }) => (await actions()).watch(opts));
}
