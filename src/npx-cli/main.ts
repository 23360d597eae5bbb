/**
 * The `claude-mem` command (everything but `hook`, which dist/bin.js sends to its own bundle).
 * Exit codes: 0 ok, 1 failed, 2 usage error.
 */
import { Command, CommanderError } from 'commander';
import { VERSION } from '../shared/version.js';
import { commands } from './commands/index.js';
import { CliError, endQuietlyWhenReaderLeaves, eprintln, printJson, setExit } from './output.js';

export function buildProgram(): Command {
  const program = new Command('claude-mem')
    .description('One shared, local memory for every AI coding agent you use.')
    .version(VERSION, '-v, --version', 'print the version')
    .showSuggestionAfterError(true)
    // Commander's own errors (unknown command/option, missing argument) become exit 2 in main().
    .exitOverride()
    .configureOutput({ writeOut: (s) => process.stdout.write(s), writeErr: (s) => process.stderr.write(s) });
  for (const register of commands) register(program);
  return program;
}

export async function main(argv: string[]): Promise<void> {
  endQuietlyWhenReaderLeaves();
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and version exit 0; every other commander error is a usage error (already printed).
      const usage = err.exitCode !== 0;
      if (usage && err.code === 'commander.help') eprintln('claude-mem: a command is required (see above)');
      setExit(usage ? 2 : 0);
      return;
    }
    const code = err instanceof CliError ? err.exitCode : 1;
    const message = (err as Error)?.message ?? String(err);
    if (argv.includes('--json')) printJson({ ok: false, error: { code: err instanceof CliError ? err.code : 'failed', message } });
    eprintln(`claude-mem: ${message}`);
    setExit(code);
  }
}
