import { InvalidArgumentError } from 'commander';

/**
 * Terminal output for every command: human lines on stdout, diagnostics on stderr, `--json`
 * documents on stdout. Colour only on a TTY and never with NO_COLOR.
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

export function colorEnabled(stream: NodeJS.WriteStream = process.stdout, env = process.env): boolean {
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

export function println(line = ''): void {
  process.stdout.write(`${line}\n`);
}

export function eprintln(line = ''): void {
  process.stderr.write(`${line}\n`);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
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
