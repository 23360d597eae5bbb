/** Whether install/uninstall may ask questions (a terminal on both ends, no CI), and how they fail. */
import type { Env } from '../../shared/paths.js';
import { EngineError } from '../engine/errors.js';
import { CliError } from '../output.js';

/** CI is set by every CI service; "false"/"0" (set by some setups to opt out) count as unset. */
export function inCi(env: Env): boolean {
  const v = env.CI?.trim().toLowerCase();
  return !!v && v !== 'false' && v !== '0';
}

export function canPrompt(env: Env, flags: { yes?: boolean; json?: boolean; dryRun?: boolean }): boolean {
  return !flags.yes && !flags.json && !flags.dryRun && !!process.stdin.isTTY && !!process.stdout.isTTY && !inCi(env);
}

/** An unreadable install manifest stops the command: said with its fix, exit 1. */
export function withFix(e: unknown): unknown {
  return e instanceof EngineError ? new CliError(`${e.message}\n  fix: ${e.fix}`) : e;
}
