/** Line-level text helpers shared by the editors. All offsets are string (UTF-16) offsets. */

export type Eol = '\n' | '\r\n';

export interface Edit {
  offset: number;
  length: number;
  content: string;
}

/** Applies non-overlapping edits (any order). */
export function applyEdits(text: string, edits: readonly Edit[]): string {
  const sorted = [...edits].sort((a, b) => b.offset - a.offset);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.offset) + e.content + out.slice(e.offset + e.length);
  return out;
}

/** Separates a UTF-8 BOM, which the parsers must not see and the file must keep. */
export function splitBom(text: string): { bom: string; body: string } {
  return text.charCodeAt(0) === 0xfeff ? { bom: '\uFEFF', body: text.slice(1) } : { bom: '', body: text };
}

export function detectEol(text: string): Eol {
  const nl = text.indexOf('\n');
  return nl > 0 && text[nl - 1] === '\r' ? '\r\n' : '\n';
}

/** The file's indentation unit: a tab or the first indentation seen; two spaces when unknown. */
export function detectIndent(text: string, fallback = '  '): string {
  const m = /^([ \t]+)\S/m.exec(text);
  if (!m) return fallback;
  return m[1].includes('\t') ? '\t' : m[1];
}

export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** Offset of the end of the line holding `offset` (before its `\r\n`/`\n`, or the text end). */
export function lineEnd(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  if (nl < 0) return text.length;
  return nl > 0 && text[nl - 1] === '\r' ? nl - 1 : nl;
}

/** Leading whitespace of the line holding `offset`. */
export function lineIndent(text: string, offset: number): string {
  const s = lineStart(text, offset);
  return /^[ \t]*/.exec(text.slice(s))![0];
}

function isBlank(s: string): boolean {
  return s.trim() === '';
}

/** End offset of the last line that is not blank, or null when the text is blank. */
export function lastContentLineEnd(text: string): number | null {
  let end = text.length;
  while (end > 0) {
    const s = lineStart(text, end);
    const e = lineEnd(text, s);
    if (!isBlank(text.slice(s, e))) return e;
    if (s === 0) return null;
    end = s - 1;
  }
  return null;
}

function eolBefore(text: string, start: number): number {
  if (start >= 2 && text[start - 2] === '\r' && text[start - 1] === '\n') return 2;
  return start >= 1 && text[start - 1] === '\n' ? 1 : 0;
}

/**
 * Inserts whole lines after the line ending at `anchor` (a `lineEnd` result), or at the very
 * start when `anchor` is null. `removeLines` is its exact inverse.
 */
export function insertLinesEdit(text: string, anchor: number | null, lines: readonly string[], eol: Eol): Edit {
  if (anchor === null) return { offset: 0, length: 0, content: lines.join(eol) + eol };
  return { offset: anchor, length: 0, content: eol + lines.join(eol) };
}

/** Removes the lines from `start` (a line start) to `end` (a line end), with one line break. */
export function removeLinesEdit(text: string, start: number, end: number): Edit {
  const before = eolBefore(text, start);
  if (before > 0) return { offset: start - before, length: end - start + before, content: '' };
  let after = end;
  if (text[after] === '\r') after++;
  if (text[after] === '\n') after++;
  return { offset: start, length: after - start, content: '' };
}

/** Like `removeLinesEdit`, also taking one blank line right above (the separator we add before blocks). */
export function removeBlockEdit(text: string, start: number, end: number): Edit {
  if (start > 0) {
    const prevStart = lineStart(text, start - 1);
    if (isBlank(text.slice(prevStart, lineEnd(text, prevStart)))) start = prevStart;
  } else if (end < text.length) {
    // A block at the top of the file: take the blank line below it instead.
    const nextStart = text.indexOf('\n', end) + 1;
    const nextEnd = lineEnd(text, nextStart);
    if (nextStart > 0 && nextEnd < text.length && isBlank(text.slice(nextStart, nextEnd))) end = nextEnd;
  }
  return removeLinesEdit(text, start, end);
}

/** Re-indents a multi-line rendering so that continuation lines start at `indent`. */
export function reindent(rendered: string, indent: string, eol: Eol): string {
  return rendered.split('\n').join(eol + indent);
}
