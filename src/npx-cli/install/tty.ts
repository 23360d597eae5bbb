/** Whether install/uninstall may ask questions: a terminal on both ends, no CI. */
import type { Env } from '../../shared/paths.js';

/** CI is set by every CI service; "false"/"0" (set by some setups to opt out) count as unset. */
function inCi(env: Env): boolean {
  const v = env.CI?.trim().toLowerCase();
  return !!v && v !== 'false' && v !== '0';
}

export function canPrompt(env: Env, flags: { yes?: boolean; json?: boolean; dryRun?: boolean }): boolean {
  return !flags.yes && !flags.json && !flags.dryRun && !!process.stdin.isTTY && !!process.stdout.isTTY && !inCi(env);
}
