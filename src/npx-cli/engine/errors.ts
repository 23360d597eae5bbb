/** Typed engine errors: the installer reports them for the affected host and carries on with the others. */

export abstract class EngineError extends Error {
  abstract readonly code: string;
  constructor(
    readonly file: string,
    message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}

/** The file exists but does not parse: we refuse to touch it. */
export class ConfigParseError extends EngineError {
  readonly code = 'CONFIG_PARSE';
  override readonly name = 'ConfigParseError';
  constructor(
    file: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
    fix?: string,
  ) {
    super(
      file,
      `${file}:${line}:${column}: ${reason}`,
      fix ?? `Fix the syntax at ${file}:${line}:${column} (or remove the file if it is not yours), then run the command again.`,
    );
  }
}

/** The file parses, but its shape makes our change unsafe (e.g. `hooks` is a string, not a table). */
export class ConfigConflictError extends EngineError {
  readonly code = 'CONFIG_CONFLICT';
  override readonly name = 'ConfigConflictError';
}

/** 1-based line and column of a string offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
