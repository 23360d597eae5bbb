/**
 * The hook's own log, `<data>/logs/hook.log`. Problems are always recorded (they are rare);
 * routine detail only with CLAUDE_MEM_DEBUG=1. Never throws, never writes to stderr unless
 * debugging: a host may treat stderr output as a hook failure.
 */
import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Keep at most two files of this size (hook.log and hook.log.1). */
const HOOK_LOG_MAX_BYTES = 1024 * 1024;

export interface HookLog {
  readonly debug: boolean;
  /** Routine detail: written only when debugging. */
  detail(message: string): void;
  /** A problem worth keeping (an event could not be delivered or spooled, an exception). */
  problem(message: string): void;
}

export function createHookLog(logsDir: string, debug: boolean, tag: string): HookLog {
  const write = (level: string, message: string) => {
    const line = `${new Date().toISOString()} ${level} [${process.pid} ${tag}] ${message.replace(/\s*\n\s*/g, ' ⏎ ')}\n`;
    if (debug) {
      try {
        process.stderr.write(line);
      } catch {
        // stderr closed by the host
      }
    }
    try {
      const file = join(logsDir, 'hook.log');
      mkdirSync(logsDir, { recursive: true, mode: 0o700 });
      try {
        if (statSync(file).size > HOOK_LOG_MAX_BYTES) renameSync(file, `${file}.1`);
      } catch {
        // No log yet.
      }
      appendFileSync(file, line, { mode: 0o600 });
    } catch {
      // Last resort already: nowhere left to record it.
    }
  };
  return {
    debug,
    detail: (m) => {
      if (debug) write('debug', m);
    },
    problem: (m) => write('warn', m),
  };
}

export function errorText(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}
