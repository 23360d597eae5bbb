/**
 * yaml-set. The `yaml` Document locates pairs (with source ranges) and renders our entry; the
 * edit splices only our lines, because re-stringifying the whole document would re-space the
 * user's file (and Goose's own serde-style layout).
 */
import { isMap, isScalar, parseDocument, stringify, type Document, type Node as YNode, type Pair } from 'yaml';
import { ConfigConflictError, ConfigParseError } from './errors.js';
import { changeId, storedChange, type ApplyResult, type Editor, type RevertResult } from './editor.js';
import { deepEqual, setAt } from './match.js';
import { verifyEdit } from './verify.js';
import {
  applyEdits, detectEol, insertLinesEdit, lastContentLineEnd, lineEnd, lineStart, removeLinesEdit, splitBom, type Edit, type Eol,
} from './text.js';
import type { Change, ChangeRecord, KeyPath, YamlSetChange } from './types.js';

interface Style { eol: Eol; unit: number; indentSeq: boolean }

function load(body: string, file: string): Document {
  const doc = parseDocument(body, { uniqueKeys: true });
  const err = doc.errors[0];
  if (err) {
    const pos = err.linePos?.[0] ?? { line: 1, col: 1 };
    throw new ConfigParseError(file, pos.line, pos.col, `invalid YAML: ${err.message.split('\n')[0]}`,
      `Fix the YAML at ${file}:${pos.line}:${pos.col} (indentation is a common cause), then run the command again.`);
  }
  return doc;
}

function detectStyle(body: string): Style {
  const m = /^( +)\S/m.exec(body);
  // serde-style files write `key:\n- item`; the yaml package defaults to `key:\n  - item`.
  const seq = /^( *)[^\s#-][^\n]*:[ \t]*\r?\n( *)- /m.exec(body);
  return { eol: detectEol(body), unit: m ? m[1].length : 2, indentSeq: seq ? seq[2].length > seq[1].length : true };
}

function render(key: string, value: unknown, indent: string, style: Style): string[] {
  const text = stringify({ [key]: value }, { indent: style.unit, indentSeq: style.indentSeq, lineWidth: 0 });
  return text.replace(/\n$/, '').split('\n').map((l) => (l === '' ? l : indent + l));
}

const keyOf = (p: Pair) => (isScalar(p.key) ? p.key.value : p.key);
const findPair = (map: YNode | null | undefined, key: string) => (isMap(map) ? (map.items as Pair[]).find((p) => keyOf(p) === key) : undefined);

/** Lines of a pair: from its key's line start to the end of its value's last line. */
function pairLines(body: string, p: Pair): { start: number; end: number } {
  const k = (p.key as YNode).range!;
  const v = (p.value as YNode | null)?.range;
  let e = v && v[1] > k[1] ? v[1] : k[1];
  while (e > k[0] && /\s/.test(body[e - 1])) e--;
  return { start: lineStart(body, k[0]), end: lineEnd(body, e - 1) };
}

/** A pair whose value is null (`key:`) or an empty flow map (`key: {}`): a container with nothing in it yet. */
const isEmptyHolder = (p: Pair) => p.value == null || (isScalar(p.value) && p.value.value == null) || (isMap(p.value) && p.value.items.length === 0);

function pairAt(doc: Document, path: KeyPath): Pair | undefined {
  let node: YNode | null | undefined = doc.contents as YNode | null;
  let pair: Pair | undefined;
  for (const k of path) {
    pair = findPair(node, k);
    if (!pair) return undefined;
    node = pair.value as YNode | null;
  }
  return pair;
}

function conflict(file: string, at: string): never {
  throw new ConfigConflictError(file, `${file}: "${at}" is not a block mapping`, `Rewrite "${at}" as an indented mapping (key: value lines) or remove it, then run the command again.`);
}

function applySet(body: string, bom: string, c: YamlSetChange, file: string): ApplyResult {
  const doc = load(body, file);
  const style = detectStyle(body);
  const data = doc.toJS();
  const base = { id: changeId(c), change: storedChange(c) };
  const root = doc.contents as YNode | null;
  if (root && (!isMap(root) || (root.flow && root.items.length > 0))) conflict(file, '(top level)');
  const expected = setAt(data, c.path, c.value);
  const existing = pairAt(doc, c.path);
  if (existing) {
    const { start, end } = pairLines(body, existing);
    const old = getJs(doc, c.path);
    const record: ChangeRecord = { ...base, previous: { present: true, value: old, raw: body.slice(start, end) }, created: [] };
    if (deepEqual(old, c.value)) return { text: bom + body, record, noop: true };
    const indent = body.slice(start, (existing.key as YNode).range![0]);
    const edit = { offset: start, length: end - start, content: render(c.path[c.path.length - 1], c.value, indent, style).join(style.eol) };
    return { text: finish(file, body, bom, [edit], expected), record, noop: false };
  }
  // Walk down the existing block maps; the rest of the path is missing.
  let node: YNode | null = root;
  let holder: Pair | undefined;
  let i = 0;
  for (; i < c.path.length - 1; i++) {
    const p = findPair(node, c.path[i]);
    if (!p) break;
    if (isEmptyHolder(p)) {
      holder = p;
      i++;
      break;
    }
    if (!isMap(p.value) || p.value.flow) conflict(file, c.path.slice(0, i + 1).join('.'));
    node = p.value as YNode;
  }
  const key = c.path[i];
  const rest = c.path.slice(i + 1).reduceRight<unknown>((v, k) => ({ [k]: v }), c.value);
  const created = c.path.slice(i + 1).map((_, j) => c.path.slice(0, i + 1 + j));
  let edit: Edit;
  let containerRaw: string | undefined;
  if (holder) {
    // `key:` or `key: {}` holds nothing yet: rewrite that line as a block mapping holding ours.
    const { start, end } = pairLines(body, holder);
    const k = (holder.key as YNode).range!;
    const indent = body.slice(start, k[0]);
    containerRaw = body.slice(start, end);
    const lines = [`${indent}${body.slice(k[0], k[1])}:`, ...render(key, rest, indent + ' '.repeat(style.unit), style)];
    edit = { offset: start, length: end - start, content: lines.join(style.eol) };
  } else if (isMap(node) && node.items.length > 0) {
    const items = node.items as Pair[];
    const first = (items[0].key as YNode).range![0];
    const indent = body.slice(lineStart(body, first), first);
    edit = insertLinesEdit(body, pairLines(body, items[items.length - 1]).end, render(key, rest, indent, style), style.eol);
  } else if (node === root && root) {
    // A top-level `{}`: the document becomes a block mapping; revert puts the exact text back.
    containerRaw = body;
    created.unshift([]);
    edit = { offset: 0, length: body.length, content: render(key, rest, '', style).join(style.eol) + style.eol };
  } else if (node === root) {
    edit = insertLinesEdit(body, lastContentLineEnd(body), render(key, rest, '', style), style.eol);
  } else {
    conflict(file, c.path.slice(0, i).join('.'));
  }
  const record: ChangeRecord = { ...base, previous: { present: false }, created, ...(containerRaw !== undefined && { containerRaw }) };
  return { text: finish(file, body, bom, [edit], expected), record, noop: false };
}

function getJs(doc: Document, path: KeyPath): unknown {
  let cur = doc.toJS() as unknown;
  for (const k of path) cur = (cur as Record<string, unknown> | null)?.[k];
  return cur;
}

function finish(file: string, body: string, bom: string, edits: Edit[], expected: unknown): string {
  const out = applyEdits(body, edits);
  verifyEdit(file, 'YAML', () => load(out, file).toJS(), expected);
  return bom + out;
}

function revertSet(body: string, record: ChangeRecord, c: YamlSetChange, file: string): RevertResult {
  let doc = load(body, file);
  const pair = pairAt(doc, c.path);
  if (pair) {
    if (!deepEqual(getJs(doc, c.path), c.value)) return { text: body, note: `${c.path.join('.')} was changed after install; left as is` };
    const { start, end } = pairLines(body, pair);
    body = applyEdits(body, [record.previous.present ? { offset: start, length: end - start, content: record.previous.raw ?? '' } : removeLinesEdit(body, start, end)]);
  }
  for (const p of [...record.created].sort((a, b) => b.length - a.length)) {
    if (p.length === 0) {
      doc = load(body, file);
      if (doc.contents === null || (isMap(doc.contents) && doc.contents.items.length === 0)) body = record.containerRaw ?? '';
      continue;
    }
    doc = load(body, file);
    const holder = pairAt(doc, p);
    if (holder && isEmptyHolder(holder)) {
      const { start, end } = pairLines(body, holder);
      body = applyEdits(body, [removeLinesEdit(body, start, end)]);
    }
  }
  const made = record.created.filter((p) => p.length > 0).sort((a, b) => a.length - b.length)[0];
  const target = made ? made.slice(0, -1) : c.path.slice(0, -1);
  if (record.containerRaw !== undefined && target.length > 0 && !record.created.some((p) => p.length === 0)) {
    const holder = pairAt(load(body, file), target);
    if (holder && isEmptyHolder(holder)) {
      const { start, end } = pairLines(body, holder);
      body = applyEdits(body, [{ offset: start, length: end - start, content: record.containerRaw }]);
    }
  }
  return { text: body };
}

export const yamlEditor: Editor = {
  apply(text: string, change: Change, file: string): ApplyResult {
    if (change.kind !== 'yaml-set') throw new Error(`yaml editor cannot apply ${change.kind}`);
    const { bom, body } = splitBom(text);
    return applySet(body, bom, change, file);
  },
  revert(text: string, record: ChangeRecord, file: string): RevertResult {
    const { bom, body } = splitBom(text);
    const r = revertSet(body, record, record.change as YamlSetChange, file);
    return { ...r, text: bom + r.text };
  },
  isEmpty(text: string): boolean {
    return splitBom(text).body.trim() === '';
  },
};
