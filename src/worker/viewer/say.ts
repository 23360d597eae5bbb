/** Commands named on the page are printed in the form that runs on this machine (command-form.ts). */
import { realpathSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { runnable } from '../../npx-cli/command-form.js';

/** The worker runs as dist/worker.js; the command people type is dist/bin.js next to it. */
function program(): string | undefined {
  const arg = process.argv[1];
  if (!arg || !/^worker\.m?js$/.test(basename(arg))) return undefined;
  try {
    return join(dirname(realpathSync(arg)), 'bin.js');
  } catch {
    return join(dirname(arg), 'bin.js');
  }
}

const entry = program();

export const say = (text: string): string => runnable(text, false, process.env, entry);
