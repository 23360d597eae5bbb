/** Quoting for the shells hosts run hook commands with (`sh -c`, bash). */

/**
 * POSIX single quotes: every byte is literal inside them, so the only character to handle is the
 * quote itself (`'` → `'\''`). Paths are always quoted, spaces and apostrophes included.
 */
export function shQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
