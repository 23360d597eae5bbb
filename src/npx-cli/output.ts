import { InvalidArgumentError } from 'commander';
import { runnable } from './command-form.js';

/**
 * Terminal output for every command: human lines on stdout, diagnostics on stderr, `--json`
 * documents on stdout. Colour only on a TTY and never with NO_COLOR. Every `claude-mem <command>`
 * in a message is printed in the form that runs on this machine (command-form.ts).
 */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 1, readonly code = 'failed') {
    super(message);
  }
}

/** Bad arguments: exit 2. */
export class UsageError extends CliError {
  constructor(message: string) {
    super(message, 2, 'usage');
  }
}

function colorEnabled(stream: NodeJS.WriteStream = process.stdout, env = process.env): boolean {
  return !('NO_COLOR' in env) && !!stream.isTTY && env.TERM !== 'dumb';
}

const wrap = (open: number, close: number) => (s: string) => (colorEnabled() ? `\x1b[${open}m${s}\x1b[${close}m` : s);

export const style = {
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  red: wrap(31, 39),
  green: wrap(32, 39),
  yellow: wrap(33, 39),
};

/** Streams whose reader went away (`claude-mem … | head`): nothing more is written to them. */
const gone = new Set<NodeJS.WriteStream>();

/**
 * When the reader of stdout or stderr goes away, the output ends and the command does not: it
 * finishes what it was doing (an uninstall half done would be worse than lost lines) and exits
 * with its own code, without a stack trace.
 */
export function endQuietlyWhenReaderLeaves(): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ERR_STREAM_DESTROYED') throw err;
      gone.add(stream);
    });
  }
}

function write(stream: NodeJS.WriteStream, text: string): void {
  if (!gone.has(stream)) stream.write(text);
}

export function println(line = ''): void {
  write(process.stdout, `${runnable(line)}\n`);
}

export function eprintln(line = ''): void {
  write(process.stderr, `${runnable(line)}\n`);
}

/** Text written as is (a rendered report), its commands made runnable. */
export function print(text: string): void {
  write(process.stdout, runnable(text));
}

export function printJson(value: unknown): void {
  write(process.stdout, `${JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? runnable(v, true) : v), 2)}\n`);
}

/** Sets the exit code without cutting stdout short (process.exit could lose buffered output). */
export function setExit(code: number): void {
  process.exitCode = code;
}

export function formatDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h}h ${m % 60}m`;
  return `${Math.floor(h / 24)}d ${h % 24}h`;
}

/** Integer option parser for commander: a bad value is a usage error (exit 2). */
export function intOption(min: number, max: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number.');
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`expected a number from ${min} to ${max}.`);
    return n;
  };
}
