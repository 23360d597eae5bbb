/**
 * The worker's log: one line per entry in logs/worker.log, rotated by size into worker.log.1..N
 * so the directory stays bounded. Synchronous appends: the volume is low (lifecycle, errors,
 * debug on demand) and a line written just before a crash must not be lost.
 */
import { appendFileSync, mkdirSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { dirname } from 'node:path';

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  level: LogLevel;
  debug(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

interface FileLoggerOptions {
  file: string;
  level?: LogLevel;
  maxBytes?: number; // per file, default 5 MiB
  keep?: number; // rotated files kept, default 3
}

export function createFileLogger(opts: FileLoggerOptions): Logger {
  const maxBytes = opts.maxBytes ?? 5 * 1024 * 1024;
  const keep = opts.keep ?? 3;
  let size = -1;

  const rotate = () => {
    try {
      unlinkSync(`${opts.file}.${keep}`);
    } catch {
      // Nothing that old yet.
    }
    for (let i = keep - 1; i >= 1; i--) {
      try {
        renameSync(`${opts.file}.${i}`, `${opts.file}.${i + 1}`);
      } catch {
        // Gap in the sequence.
      }
    }
    try {
      renameSync(opts.file, `${opts.file}.1`);
    } catch {
      // Nothing to rotate.
    }
    size = 0;
  };

  const write = (level: LogLevel, msg: string, data?: Record<string, unknown>) => {
    if (LOG_LEVELS.indexOf(level) < LOG_LEVELS.indexOf(logger.level)) return;
    let line = `${new Date().toISOString()} ${level.toUpperCase().padEnd(5)} [${process.pid}] ${msg}`;
    if (data && Object.keys(data).length) line += ` ${safeJson(data)}`;
    line += '\n';
    try {
      if (size < 0) {
        mkdirSync(dirname(opts.file), { recursive: true, mode: 0o700 });
        try {
          size = statSync(opts.file).size;
        } catch {
          size = 0;
        }
      }
      if (size + line.length > maxBytes && size > 0) rotate();
      appendFileSync(opts.file, line, { mode: 0o600 });
      size += Buffer.byteLength(line);
    } catch {
      // A full disk must not take the worker down; the line is lost, the worker goes on.
    }
  };

  const logger: Logger = {
    level: opts.level ?? 'info',
    debug: (m, d) => write('debug', m, d),
    info: (m, d) => write('info', m, d),
    warn: (m, d) => write('warn', m, d),
    error: (m, d) => write('error', m, d),
  };
  return logger;
}

function safeJson(data: Record<string, unknown>): string {
  try {
    return JSON.stringify(data, (_k, v: unknown) => (v instanceof Error ? { message: v.message, stack: v.stack } : v));
  } catch {
    return '[unserializable]';
  }
}

/** A logger that keeps lines in memory (tests) or drops them. */
export function memoryLogger(lines: string[] = []): Logger & { lines: string[] } {
  const push = (level: LogLevel) => (msg: string, data?: Record<string, unknown>) => {
    lines.push(`${level} ${msg}${data ? ` ${safeJson(data)}` : ''}`);
  };
  return { level: 'debug', lines, debug: push('debug'), info: push('info'), warn: push('warn'), error: push('error') };
}
