/** Short text for people and models: one line, cut with an ellipsis. No imports (the hook and the plugins bundle it). */

/** Whitespace collapsed to single spaces, trimmed. */
export const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();

/** Cut to `max` characters, the last one an ellipsis; line breaks are kept. */
export function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, Math.max(0, max - 1))}…`;
}

// Whitespace that collapsing would change: two in a row, or any but a plain space.
const LOOSE_SPACE = /\s\s|[^\S ]/;

/** One line (whitespace collapsed), cut to `max` with an ellipsis and no space before it. */
export function clip(s: string, max: number): string {
  const collapse = LOOSE_SPACE.test(s) || s.startsWith(' ') || s.endsWith(' ');
  const one = collapse ? oneLine(s) : s;
  return one.length <= max ? one : `${one.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}
