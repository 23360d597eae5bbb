/** How install/uninstall fail (kept apart from tty.ts: the engine's errors load only once a command runs). */
import { EngineError } from '../engine/errors.js';
import { CliError } from '../output.js';

/** An unreadable install manifest stops the command: said with its fix, exit 1. */
export function withFix(e: unknown): unknown {
  return e instanceof EngineError ? new CliError(`${e.message}\n  fix: ${e.fix}`) : e;
}
