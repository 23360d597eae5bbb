/** Shell commands (Bash and every host's equivalent) → `command` observations. */
import type { CaptureEvent } from '../shared/capture-event.js';
import { commandConcepts } from './concepts.js';
import { buildDraft, didFail, durationFact } from './draft.js';
import { readOutput } from './output.js';
import type { ObservationDraft } from './types.js';
import { asRecord, clip, excerpt, inputRecord, LIMITS, pickString, relPath } from './text.js';

const SHELLS = /^(?:.*[\\/])?(?:bash|sh|zsh|dash|ksh|fish|pwsh|powershell|cmd)(?:\.exe)?$/i;
const SHELL_FLAGS = /^(?:-[lic]{1,3}|-Command|\/c)$/i;

/** `["bash","-lc","npm test"]` → `npm test`; other arrays are joined with light quoting. */
export function joinArgv(argv: readonly unknown[]): string {
  const args = argv.map((a) => String(a));
  if (args.length >= 3 && SHELLS.test(args[0]) && SHELL_FLAGS.test(args[1])) return args.slice(2).join(' ');
  return args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`)).join(' ');
}

/** `/bin/bash -lc 'echo hi'` (Codex's event stream) → `echo hi`. */
function unwrapShell(cmd: string): string {
  const m = /^(?:\S*[\\/])?(?:bash|sh|zsh) -l?c '([\s\S]*)'$/.exec(cmd.trim());
  return m ? m[1].replace(/'\\''/g, "'") : cmd;
}

/** The command line from the shapes hosts use: `command` (string or argv), `cmd`, `commandLine`, `script`. */
function commandText(input: Record<string, unknown>, response?: unknown): string {
  for (const key of ['command', 'cmd', 'commandLine', 'command_line', 'script', 'shell_command']) {
    const v = input[key];
    if (typeof v === 'string' && v.trim()) return unwrapShell(v.trim());
    if (Array.isArray(v) && v.length) return joinArgv(v);
  }
  if (Array.isArray(input.argv)) return joinArgv(input.argv);
  const r = asRecord(response);
  const fromResp = r?.command;
  if (typeof fromResp === 'string') return unwrapShell(fromResp.trim());
  if (Array.isArray(fromResp)) return joinArgv(fromResp);
  return '';
}

export function observeShell(e: CaptureEvent): ObservationDraft {
  const input = inputRecord(e.toolInput);
  const cmd = commandText(input, e.toolResponse);
  const out = readOutput(e.toolResponse);
  const failed = didFail(e, out.exitCode, out.failed);
  const workdir = pickString(input, 'workdir', 'cwd', 'directory', 'dir_path', 'working_directory');
  const description = pickString(input, 'description', 'justification');

  let status = '';
  if (out.exitCode !== undefined && out.exitCode !== 0) status = ` (exit ${out.exitCode})`;
  else if (out.interrupted) status = ' (interrupted)';
  else if (failed) status = ' (failed)';
  const title = cmd ? `Ran \`${clip(cmd, 80)}\`${status}` : `Ran a shell command${status}`;

  const stdout = out.text.trim();
  const stderr = out.stderr.trim();
  const budget = LIMITS.excerpt;
  const outBudget = stderr && stdout ? Math.round(budget * 0.6) : budget;
  const errBudget = stderr && stdout ? budget - outBudget : budget;

  const exitLine =
    out.exitCode !== undefined ? `Exit code: ${out.exitCode}${failed && out.exitCode === 0 ? ' (reported failed)' : ''}` : failed ? 'Failed.' : undefined;
  return buildDraft(e, {
    type: 'command',
    title,
    subtitle: description ?? (workdir ? `in ${relPath(workdir, e.cwd)}` : null),
    lines: [
      cmd && `$ ${clip(cmd, 500)}`,
      description && `Purpose: ${clip(description, 200)}`,
      exitLine,
      out.interrupted && 'Interrupted.',
      out.error && out.error !== stderr && `Error: ${clip(out.error, 300)}`,
      stdout && `Output:\n${excerpt(stdout, outBudget)}`,
      stderr && `Stderr:\n${excerpt(stderr, errBudget)}`,
    ],
    facts: [
      out.exitCode !== undefined && `exit code: ${out.exitCode}`,
      durationFact(out.durationMs),
      workdir && `workdir: ${relPath(workdir, e.cwd)}`,
      out.interrupted && 'interrupted',
      failed && 'failed',
    ],
    concepts: [...commandConcepts(cmd), ...(failed ? ['error'] : [])],
  });
}
