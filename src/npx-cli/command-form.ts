/**
 * How a person runs claude-mem on this machine, so that every command the product prints works
 * as printed. Messages are written as `claude-mem <command>`; output.ts prints them in this form:
 *
 * - `claude-mem` when the first `claude-mem` on PATH is claude-mem (a global npm install, the
 *   shim linked into a PATH folder, an `npm link`ed checkout);
 * - else the shim install writes (`~/.claude-mem/bin/claude-mem`), while the program it starts
 *   is in place;
 * - else exactly what runs now (`'<node>' '<…/dist/bin.js>'`), e.g. a dry run from a checkout.
 */
import { accessSync, constants, existsSync, readFileSync, realpathSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { dataDir, homeDir, type Env } from '../shared/paths.js';
import { LAUNCHER_NAME, runtimeLayout } from '../shared/runtime-layout.js';
import { shQuote } from './hosts/common/quote.js';

interface CommandForm {
  /** For people: `~` for the home directory where the shell expands it. */
  shown: string;
  /** For programs (`--json`): absolute paths. */
  exact: string;
}

function real(p: string): string | undefined {
  try {
    return realpathSync(p);
  } catch {
    return undefined;
  }
}

function isClaudeMemPackage(dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string }).name === 'claude-mem';
  } catch {
    return false;
  }
}

/** A claude-mem entry: some package's dist/bin.js, a data directory's launcher, or its shim. */
function isClaudeMem(file: string): boolean {
  if (basename(file) === 'bin.js' && basename(dirname(file)) === 'dist') return isClaudeMemPackage(dirname(dirname(file)));
  if (basename(file) === LAUNCHER_NAME) return true;
  return basename(file) === 'claude-mem' && existsSync(join(dirname(dirname(file)), 'runtime', LAUNCHER_NAME));
}

/**
 * The first `claude-mem` on the user's PATH is claude-mem. Folders npm puts in front of PATH for
 * the one command it runs (`npx`, `npm run`: node_modules/.bin) are not the user's PATH.
 */
export function onPath(env: Env): boolean {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || /[\\/]node_modules[\\/]\.bin[\\/]?$/.test(dir)) continue;
    const p = join(dir, 'claude-mem');
    try {
      accessSync(p, constants.X_OK);
    } catch {
      continue;
    }
    const r = real(p);
    return !!r && isClaudeMem(r);
  }
  return false;
}

/** A path as a shell word: `~/…` when it lies under HOME and needs no quoting, else quoted. */
export function shellPath(p: string, env: Env): string {
  const home = homeDir(env);
  if (home && p.startsWith(`${home}/`) && /^[\w./-]+$/.test(p.slice(home.length))) return `~${p.slice(home.length)}`;
  return /^[\w./-]+$/.test(p) ? p : shQuote(p);
}

/** `entry`: the claude-mem program to name when neither of the first two applies (default: what runs now). */
export function commandForm(env: Env = process.env, entry?: string): CommandForm {
  if (onPath(env)) return { shown: 'claude-mem', exact: 'claude-mem' };
  const layout = runtimeLayout(dataDir(env));
  if ([layout.shim, layout.launcher, join(layout.current, 'dist', 'bin.js')].every((p) => existsSync(p))) {
    return { shown: shellPath(layout.shim, env), exact: /^[\w./-]+$/.test(layout.shim) ? layout.shim : shQuote(layout.shim) };
  }
  const program = entry ?? real(process.argv[1] ?? '') ?? process.argv[1] ?? 'dist/bin.js';
  const now = `${shQuote(process.execPath)} ${shQuote(program)}`;
  return { shown: now, exact: now };
}

/**
 * `claude-mem <command>` is meant wherever it follows a space, a quote, a backtick or a
 * parenthesis. `hook` is left out: people never type it, and "the claude-mem hook for Stop" is prose.
 */
const COMMAND = /(^|[\s`'"(])claude-mem(?= (?:install|uninstall|doctor|status|start|stop|restart|search|mcp|transcript|forget|export|import|viewer|sync)\b)/g;

/** The text with every `claude-mem <command>` in the form that runs here. */
export function runnable(text: string, json = false, env: Env = process.env, entry?: string): string {
  if (!text.includes('claude-mem ')) return text;
  let form: CommandForm | undefined;
  return text.replace(COMMAND, (_, lead: string) => {
    form ??= commandForm(env, entry);
    const prefix = json ? form.exact : form.shown;
    return `${lead}${prefix}`;
  });
}
