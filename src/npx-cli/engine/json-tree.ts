/**
 * Minimal JSON/JSONC edits on jsonc-parser's tree. jsonc-parser's own `modify` re-formats every
 * line its edit touches (a user's one-line hook group becomes twelve lines) and cannot undo its
 * own insertions exactly, so we compute the edits here: only our entry's text is formatted,
 * and each removal is the exact inverse of the matching insertion.
 */
import { createScanner, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { ConfigParseError, lineColumn } from './errors.js';
import { lineEnd, lineIndent, lineStart, reindent, type Edit, type Eol } from './text.js';

export interface JsonStyle {
  eol: Eol;
  indent: string;
}

// SyntaxKind is a const enum (not usable with isolatedModules); these are its stable values.
const COMMA = 5;
const LINE_COMMENT = 12;
const BLOCK_COMMENT = 13;
const LINE_BREAK = 14;
const TRIVIA = 15;
const EOF = 17;

/** Parses JSONC (comments and trailing commas allowed). Blank text gives undefined. */
export function parseJson(body: string, file: string): Node | undefined {
  const errors: ParseError[] = [];
  const root = parseTree(body, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  if (errors.length > 0) {
    const e = errors[0];
    const { line, column } = lineColumn(body, e.offset);
    throw new ConfigParseError(
      file,
      line,
      column,
      `invalid JSON: ${printParseErrorCode(e.error)}`,
      `Fix the JSON at ${file}:${line}:${column} (comments and trailing commas are fine), then run the command again.`,
    );
  }
  if (root) refuseDuplicateKeys(body, file, root, []);
  return root;
}

/**
 * A key written twice in one object: hosts read one of the two (which one depends on the parser),
 * so an edit cannot be verified, and guessing could drop the settings the user meant. Refused.
 */
function refuseDuplicateKeys(body: string, file: string, node: Node, path: string[]): void {
  if (node.type === 'object') {
    const seen = new Map<string, Node>();
    for (const prop of node.children ?? []) {
      const keyNode = prop.children?.[0];
      if (!keyNode) continue;
      const key = String(keyNode.value);
      const first = seen.get(key);
      if (first) {
        const at = lineColumn(body, keyNode.offset);
        const firstLine = lineColumn(body, first.offset).line;
        const name = [...path, key].join('.');
        throw new ConfigParseError(file, at.line, at.column, `the key "${name}" appears twice in this object (lines ${firstLine} and ${at.line})`,
          `${file} sets "${name}" twice and the host reads only one of them. Keep one "${key}" (merge the two if both hold settings you want), then run the command again.`);
      }
      seen.set(key, keyNode);
    }
    for (const prop of node.children ?? []) if (prop.children?.[1]) refuseDuplicateKeys(body, file, prop.children[1], [...path, String(prop.children[0]?.value)]);
  } else if (node.type === 'array') {
    for (const item of node.children ?? []) refuseDuplicateKeys(body, file, item, path);
  }
}

export function nodeValue(node: Node): unknown {
  return getNodeValue(node);
}

export function nodeText(body: string, node: Node): string {
  return body.slice(node.offset, node.offset + node.length);
}

/** The value node of child `key` (object) or the element node at `index` (array). */
export function childValue(container: Node, key: string): Node | undefined {
  if (container.type !== 'object') return undefined;
  const prop = container.children?.find((p) => p.children?.[0]?.value === key);
  return prop?.children?.[1];
}

/** The offset of the next significant token after `offset` (comments and whitespace skipped). */
function nextToken(body: string, offset: number): { kind: number; offset: number } {
  const sc = createScanner(body, false);
  sc.setPosition(offset);
  for (;;) {
    const kind = sc.scan();
    if (kind !== TRIVIA && kind !== LINE_BREAK && kind !== LINE_COMMENT && kind !== BLOCK_COMMENT) {
      return { kind, offset: sc.getTokenOffset() };
    }
  }
}

/** End of the line at `offset` when only whitespace/comments follow on it, else `offset` itself. */
function endOfTriviaLine(body: string, offset: number): number {
  const sc = createScanner(body, false);
  sc.setPosition(offset);
  for (;;) {
    const kind = sc.scan();
    if (kind === LINE_BREAK || kind === EOF) return lineEnd(body, offset);
    if (kind === TRIVIA || kind === LINE_COMMENT) continue;
    if (kind === BLOCK_COMMENT && !sc.getTokenValue().includes('\n')) continue;
    return offset;
  }
}

const end = (n: Node) => n.offset + n.length;
const startsLine = (body: string, n: Node) => body.slice(lineStart(body, n.offset), n.offset).trim() === '';

function render(value: unknown, indent: string, style: JsonStyle): string {
  return reindent(JSON.stringify(value, null, style.indent), indent, style.eol);
}

/** One-line rendering matching the container's spacing (`{"a":1}` or `{ "a": 1 }`). */
function renderInline(value: unknown, spaced: boolean): string {
  const s = JSON.stringify(value);
  if (!spaced) return s;
  return JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ').replace(/([[{]) /g, '$1').replace(/ ([\]}])/g, '$1');
}

export function replaceValueEdit(body: string, node: Node, value: unknown, style: JsonStyle): Edit {
  return { offset: node.offset, length: node.length, content: render(value, lineIndent(body, node.offset), style) };
}

/**
 * Appends a child (`key` for objects, null for arrays) at the end of `container`.
 * Returns the edits and, when the container was empty, its exact text (to restore on revert).
 */
export function appendChildEdits(
  body: string,
  container: Node,
  key: string | null,
  value: unknown,
  style: JsonStyle,
): { edits: Edit[]; containerRaw?: string } {
  const prefix = key === null ? '' : `${JSON.stringify(key)}: `;
  const children = container.children ?? [];
  const closeAt = end(container) - 1;
  const outer = lineIndent(body, container.offset);
  const inner = outer + style.indent;
  if (children.length === 0) {
    const raw = nodeText(body, container);
    const child = prefix + render(value, inner, style);
    const inside = body.slice(container.offset + 1, closeAt);
    if (inside.trim() === '') {
      return { edits: [{ offset: container.offset + 1, length: inside.length, content: style.eol + inner + child + style.eol + outer }], containerRaw: raw };
    }
    // Only comments inside: add our line just above the closing bracket.
    const ls = lineStart(body, closeAt);
    const edit = body.slice(ls, closeAt).trim() === ''
      ? { offset: ls, length: 0, content: inner + child + style.eol }
      : { offset: closeAt, length: 0, content: style.eol + inner + child + style.eol + outer };
    return { edits: [edit], containerRaw: raw };
  }
  const last = children[children.length - 1];
  const after = nextToken(body, end(last));
  const trailingComma = after.kind === COMMA;
  const multiline = body.slice(container.offset, children[0].offset).includes('\n');
  if (!multiline) {
    const spaced = /[,:] /.test(nodeText(body, container));
    const child = prefix.replace(': ', spaced ? ': ' : ':') + renderInline(value, spaced);
    return trailingComma
      ? { edits: [{ offset: after.offset + 1, length: 0, content: (spaced ? ' ' : '') + child + ',' }] }
      : { edits: [{ offset: end(last), length: 0, content: (spaced ? ', ' : ',') + child }] };
  }
  const indent = startsLine(body, last) ? lineIndent(body, last.offset) : inner;
  const anchor = trailingComma ? after.offset + 1 : end(last);
  const at = endOfTriviaLine(body, anchor);
  const edits: Edit[] = [{ offset: at, length: 0, content: style.eol + indent + prefix + render(value, indent, style) + (trailingComma ? ',' : '') }];
  if (!trailingComma) edits.push({ offset: end(last), length: 0, content: ',' });
  return { edits };
}

/** Removes child `index` of `container`: the inverse of `appendChildEdits`, and sane for user-placed entries. */
export function removeChildEdits(body: string, container: Node, index: number, containerRaw?: string): Edit[] {
  const children = container.children ?? [];
  const node = children[index];
  if (children.length === 1) {
    if (containerRaw !== undefined) return [{ offset: container.offset, length: container.length, content: containerRaw }];
    return [{ offset: container.offset + 1, length: container.length - 2, content: '' }];
  }
  const after = nextToken(body, end(node));
  const ownComma = after.kind === COMMA ? after.offset + 1 : end(node);
  const isLast = index === children.length - 1;
  const multiline = body.slice(container.offset, children[0].offset).includes('\n');
  if (multiline && startsLine(body, node)) {
    const stop = endOfTriviaLine(body, ownComma);
    const s = lineStart(body, node.offset);
    if (!isLast) {
      if (stop === ownComma) return [{ offset: node.offset, length: children[index + 1].offset - node.offset, content: '' }];
      const next = body.indexOf('\n', stop);
      return [{ offset: s, length: (next < 0 ? body.length : next + 1) - s, content: '' }];
    }
    const eolLen = s >= 2 && body[s - 2] === '\r' ? 2 : 1;
    const edits: Edit[] = [{ offset: s - eolLen, length: stop - (s - eolLen), content: '' }];
    if (after.kind !== COMMA) {
      // No trailing comma on ours: the comma after the previous entry was added with it.
      const comma = nextToken(body, end(children[index - 1]));
      if (comma.kind === COMMA) edits.push({ offset: comma.offset, length: 1, content: '' });
    }
    return edits;
  }
  if (index > 0) return [{ offset: end(children[index - 1]), length: end(node) - end(children[index - 1]), content: '' }];
  return [{ offset: node.offset, length: children[1].offset - node.offset, content: '' }];
}
