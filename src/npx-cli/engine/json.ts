/** json-set and json-array-upsert on JSON/JSONC files. */
import type { Node } from 'jsonc-parser';
import { ConfigConflictError } from './errors.js';
import { changeId, storedChange, type ApplyResult, type Editor, type RevertResult } from './editor.js';
import {
  appendChildEdits, childValue, nodeText, nodeValue, parseJson, removeChildEdits, replaceValueEdit, type JsonStyle,
} from './json-tree.js';
import { deepEqual, getAt, matches, setAt } from './match.js';
import { verifyEdit } from './verify.js';
import { applyEdits, detectEol, detectIndent, splitBom, type Edit } from './text.js';
import type { Change, ChangeRecord, JsonArrayUpsertChange, JsonSetChange, KeyPath, Previous } from './types.js';

interface Doc {
  bom: string;
  body: string;
  root: Node;
  style: JsonStyle;
  /** The file was blank: we work on `{}` and remember the original text. */
  blank?: string;
}

function load(text: string, file: string): Doc {
  const { bom, body } = splitBom(text);
  const style = { eol: detectEol(body), indent: detectIndent(body) };
  const root = parseJson(body, file);
  if (!root) return { bom, body: '{}', root: parseJson('{}', file)!, style, blank: body };
  if (root.type !== 'object') {
    throw new ConfigConflictError(file, `${file}: expected a JSON object at the top level, found ${root.type}`, 'Make the file a JSON object ({ … }) or remove it, then run the command again.');
  }
  return { bom, body, root, style };
}

function save(doc: Doc, body: string): string {
  return doc.bom + body + (doc.blank !== undefined ? doc.style.eol : '');
}

/** Walks `path`; returns the deepest existing container and how many segments exist. */
function walk(doc: Doc, path: KeyPath, file: string, wantLast: 'object' | 'array' | 'any'): { node: Node; depth: number } {
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
function insertAt(doc: Doc, path: KeyPath, value: unknown, found: { node: Node; depth: number }) {
  const { node, depth } = found;
  const rest = path.slice(depth + 1);
  const { edits, containerRaw } = appendChildEdits(doc.body, node, path[depth], nest(rest, value), doc.style);
  const created: string[][] = doc.blank !== undefined ? [[]] : [];
  for (let i = depth + 1; i < path.length; i++) created.push(path.slice(0, i));
  return { edits, created, containerRaw: doc.blank ?? containerRaw };
}

function verify(file: string, body: string, expected: unknown): void {
  verifyEdit(file, 'JSON', () => nodeValue(parseJson(body, file)!), expected);
}

function applySet(doc: Doc, c: JsonSetChange, file: string): ApplyResult {
  const data = nodeValue(doc.root);
  const found = walk(doc, c.path, file, 'any');
  const base = { id: changeId(c), change: storedChange(c) };
  let edits: Edit[];
  let record: ChangeRecord;
  if (found.depth === c.path.length) {
    const old = nodeValue(found.node);
    const previous: Previous = { present: true, value: old, raw: nodeText(doc.body, found.node) };
    record = { ...base, previous, created: [] };
    if (deepEqual(old, c.value)) return { text: save(doc, doc.body), record, noop: true };
    edits = [replaceValueEdit(doc.body, found.node, c.value, doc.style)];
  } else {
    const ins = insertAt(doc, c.path, c.value, found);
    edits = ins.edits;
    record = { ...base, previous: { present: false }, created: ins.created, ...(ins.containerRaw !== undefined && { containerRaw: ins.containerRaw }) };
  }
  const body = applyEdits(doc.body, edits);
  verify(file, body, setAt(data, c.path, c.value));
  return { text: save(doc, body), record, noop: false };
}

function applyUpsert(doc: Doc, c: JsonArrayUpsertChange, file: string): ApplyResult {
  const data = nodeValue(doc.root);
  const found = walk(doc, c.path, file, 'array');
  const base = { id: changeId(c), change: storedChange(c) };
  let edits: Edit[];
  let record: ChangeRecord;
  let expected: unknown;
  if (found.depth === c.path.length) {
    const items = found.node.children ?? [];
    const index = items.findIndex((n) => matches(nodeValue(n), c.match));
    const list = [...(getAt(data, c.path) as unknown[])];
    if (index >= 0) {
      const old = nodeValue(items[index]);
      record = { ...base, previous: { present: true, value: old, raw: nodeText(doc.body, items[index]) }, created: [] };
      if (deepEqual(old, c.entry)) return { text: save(doc, doc.body), record, noop: true };
      edits = [replaceValueEdit(doc.body, items[index], c.entry, doc.style)];
      list[index] = c.entry;
    } else {
      const ins = appendChildEdits(doc.body, found.node, null, c.entry, doc.style);
      edits = ins.edits;
      record = { ...base, previous: { present: false }, created: [], ...(ins.containerRaw !== undefined && { containerRaw: ins.containerRaw }) };
      list.push(c.entry);
    }
    expected = setAt(data, c.path, list);
  } else {
    const ins = insertAt(doc, c.path, [c.entry], found);
    edits = ins.edits;
    // The array itself is new too: it goes when our entry goes.
    record = { ...base, previous: { present: false }, created: [...ins.created, [...c.path]], ...(ins.containerRaw !== undefined && { containerRaw: ins.containerRaw }) };
    expected = setAt(data, c.path, [c.entry]);
  }
  const body = applyEdits(doc.body, edits);
  verify(file, body, expected);
  return { text: save(doc, body), record, noop: false };
}

/** The container we first inserted into; its exact empty text comes back when it empties again. */
function rawFor(record: ChangeRecord, containerPath: KeyPath): string | undefined {
  if (record.containerRaw === undefined || record.created.some((p) => p.length === 0)) return undefined;
  const made = record.created.filter((p) => p.length > 0).sort((a, b) => a.length - b.length)[0];
  const c = record.change as JsonSetChange | JsonArrayUpsertChange;
  const target = made ? made.slice(0, -1) : c.kind === 'json-set' ? c.path.slice(0, -1) : c.path;
  return deepEqual(target, containerPath) ? record.containerRaw : undefined;
}

function reparse(doc: Doc, body: string, file: string): Doc {
  return { ...doc, body, root: parseJson(body, file) ?? parseJson('{}', file)! };
}

/** Removes containers we created that are now empty, deepest first; the root goes back to the blank text. */
function dropCreated(doc: Doc, record: ChangeRecord, file: string): Doc {
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

function walkExact(root: Node, path: KeyPath): Node | undefined {
  let node: Node | undefined = root;
  for (const k of path) node = node && childValue(node, k);
  return node;
}

function finish(doc: Doc): string {
  if (doc.blank !== undefined && doc.body === '') return doc.bom + doc.blank;
  return doc.bom + doc.body;
}

function revertSet(doc: Doc, record: ChangeRecord, c: JsonSetChange, file: string): RevertResult {
  const node = walkExact(doc.root, c.path);
  if (node) {
    if (!deepEqual(nodeValue(node), c.value)) {
      return { text: finish(doc), note: `${c.path.join('.')} was changed after install; left as is` };
    }
    let edits: Edit[];
    if (record.previous.present) {
      const raw = record.previous.raw ?? JSON.stringify(record.previous.value);
      edits = [{ offset: node.offset, length: node.length, content: raw }];
    } else {
      const parent = node.parent!.parent!;
      const index = parent.children!.indexOf(node.parent!);
      edits = removeChildEdits(doc.body, parent, index, rawFor(record, c.path.slice(0, -1)));
    }
    doc = reparse(doc, applyEdits(doc.body, edits), file);
  }
  return { text: finish(dropCreated(doc, record, file)) };
}

function revertUpsert(doc: Doc, record: ChangeRecord, c: JsonArrayUpsertChange, file: string): RevertResult {
  for (;;) {
    const arr = walkExact(doc.root, c.path);
    if (!arr || arr.type !== 'array') break;
    const items = arr.children ?? [];
    const index = items.findIndex((n) => matches(nodeValue(n), c.match));
    if (index < 0) break;
    doc = reparse(doc, applyEdits(doc.body, removeChildEdits(doc.body, arr, index, rawFor(record, c.path))), file);
  }
  return { text: finish(dropCreated(doc, record, file)) };
}

export const jsonEditor: Editor = {
  apply(text: string, change: Change, file: string): ApplyResult {
    const doc = load(text, file);
    if (change.kind === 'json-set') return applySet(doc, change, file);
    if (change.kind === 'json-array-upsert') return applyUpsert(doc, change, file);
    throw new Error(`json editor cannot apply ${change.kind}`);
  },
  revert(text: string, record: ChangeRecord, file: string): RevertResult {
    const { bom, body } = splitBom(text);
    const root = parseJson(body, file);
    if (!root) return { text };
    const doc: Doc = { bom, body, root, style: { eol: detectEol(body), indent: detectIndent(body) } };
    if (record.created.some((p) => p.length === 0)) doc.blank = record.containerRaw ?? '';
    const c = record.change;
    if (c.kind === 'json-set') return revertSet(doc, record, c as JsonSetChange, file);
    if (c.kind === 'json-array-upsert') return revertUpsert(doc, record, c as JsonArrayUpsertChange, file);
    throw new Error(`json editor cannot revert ${c.kind}`);
  },
  isEmpty(text: string): boolean {
    return splitBom(text).body.trim() === '';
  },
};
