/** A JSON/JSONC document being edited: its text, tree and style, and the helpers both JSON changes share. */
import type { Node } from 'jsonc-parser';
import { ConfigConflictError } from './errors.js';
import { appendChildEdits, childValue, nodeValue, parseJson, removeChildEdits, type JsonStyle } from './json-tree.js';
import { deepEqual } from './match.js';
import { verifyEdit } from './verify.js';
import { applyEdits, detectEol, detectIndent, splitBom } from './text.js';
import type { ChangeRecord, JsonArrayUpsertChange, JsonSetChange, KeyPath } from './types.js';

export interface Doc {
  bom: string;
  body: string;
  root: Node;
  style: JsonStyle;
  /** The file was blank: we work on `{}` and remember the original text. */
  blank?: string;
}

export function load(text: string, file: string): Doc {
  const { bom, body } = splitBom(text);
  const style = { eol: detectEol(body), indent: detectIndent(body) };
  const root = parseJson(body, file);
  if (!root) return { bom, body: '{}', root: parseJson('{}', file)!, style, blank: body };
  if (root.type !== 'object') {
    throw new ConfigConflictError(file, `${file}: expected a JSON object at the top level, found ${root.type}`, 'Make the file a JSON object ({ … }) or remove it, then run the command again.');
  }
  return { bom, body, root, style };
}

export function save(doc: Doc, body: string): string {
  return doc.bom + body + (doc.blank !== undefined ? doc.style.eol : '');
}

/** Walks `path`; returns the deepest existing container and how many segments exist. */
export function walk(doc: Doc, path: KeyPath, file: string, wantLast: 'object' | 'array' | 'any'): { node: Node; depth: number } {
  let node = doc.root;
  for (let i = 0; i < path.length; i++) {
    const child = childValue(node, path[i]);
    if (!child) return { node, depth: i };
    const isLast = i === path.length - 1;
    const want = isLast ? wantLast : 'object';
    if (want !== 'any' && child.type !== want) {
      const at = path.slice(0, i + 1).join('.');
      throw new ConfigConflictError(file, `${file}: "${at}" is ${child.type === 'object' ? 'an object' : `a ${child.type}`}, expected ${want === 'object' ? 'an object' : 'an array'}`, `Change "${at}" by hand (or remove it), then run the command again.`);
    }
    node = child;
  }
  return { node, depth: path.length };
}

function nest(path: KeyPath, value: unknown): unknown {
  return path.reduceRight<unknown>((v, k) => ({ [k]: v }), value);
}

/** Inserts `value` at `path` under the deepest existing container; records what we created. */
export function insertAt(doc: Doc, path: KeyPath, value: unknown, found: { node: Node; depth: number }) {
  const { node, depth } = found;
  const rest = path.slice(depth + 1);
  const { edits, containerRaw } = appendChildEdits(doc.body, node, path[depth], nest(rest, value), doc.style);
  const created: string[][] = doc.blank !== undefined ? [[]] : [];
  for (let i = depth + 1; i < path.length; i++) created.push(path.slice(0, i));
  return { edits, created, containerRaw: doc.blank ?? containerRaw };
}

export function verify(file: string, body: string, expected: unknown): void {
  verifyEdit(file, 'JSON', () => nodeValue(parseJson(body, file)!), expected);
}

/** The container we first inserted into; its exact empty text comes back when it empties again. */
export function rawFor(record: ChangeRecord, containerPath: KeyPath): string | undefined {
  if (record.containerRaw === undefined || record.created.some((p) => p.length === 0)) return undefined;
  const made = record.created.filter((p) => p.length > 0).sort((a, b) => a.length - b.length)[0];
  const c = record.change as JsonSetChange | JsonArrayUpsertChange;
  const target = made ? made.slice(0, -1) : c.kind === 'json-set' ? c.path.slice(0, -1) : c.path;
  return deepEqual(target, containerPath) ? record.containerRaw : undefined;
}

export function reparse(doc: Doc, body: string, file: string): Doc {
  return { ...doc, body, root: parseJson(body, file) ?? parseJson('{}', file)! };
}

/** Removes containers we created that are now empty, deepest first; the root goes back to the blank text. */
export function dropCreated(doc: Doc, record: ChangeRecord, file: string): Doc {
  const paths = [...record.created].sort((a, b) => b.length - a.length);
  for (const p of paths) {
    const node = p.length === 0 ? doc.root : walkExact(doc.root, p);
    if (!node || (node.children?.length ?? 0) > 0 || (node.type !== 'object' && node.type !== 'array')) continue;
    if (p.length === 0) return { ...doc, body: '', blank: record.containerRaw ?? '' };
    const parent = p.length === 1 ? doc.root : walkExact(doc.root, p.slice(0, -1))!;
    const index = parent.children!.findIndex((prop) => prop.children?.[0]?.value === p[p.length - 1]);
    doc = reparse(doc, applyEdits(doc.body, removeChildEdits(doc.body, parent, index, rawFor(record, p.slice(0, -1)))), file);
  }
  return doc;
}

export function walkExact(root: Node, path: KeyPath): Node | undefined {
  let node: Node | undefined = root;
  for (const k of path) node = node && childValue(node, k);
  return node;
}

export function finish(doc: Doc): string {
  if (doc.blank !== undefined && doc.body === '') return doc.bom + doc.blank;
  return doc.bom + doc.body;
}

/** Parses `text` for a revert: undefined when it is blank (nothing of ours can be in it). */
export function loadForRevert(text: string, record: ChangeRecord, file: string): Doc | undefined {
  const { bom, body } = splitBom(text);
  const root = parseJson(body, file);
  if (!root) return undefined;
  const doc: Doc = { bom, body, root, style: { eol: detectEol(body), indent: detectIndent(body) } };
  if (record.created.some((p) => p.length === 0)) doc.blank = record.containerRaw ?? '';
  return doc;
}
