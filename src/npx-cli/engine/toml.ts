/** toml-set, toml-table and toml-array-entry: span edits located by a real parser, verified by a strict one. */
import { ConfigConflictError } from './errors.js';
import { changeId, storedChange, type ApplyResult, type Editor, type RevertResult } from './editor.js';
import { verifyEdit } from './verify.js';
import { deepEqual, getAt, isPlainObject, matches, setAt } from './match.js';
import {
  applyEdits, detectEol, insertLinesEdit, lineEnd, lineStart, removeBlockEdit, removeLinesEdit, splitBom, type Edit, type Eol,
} from './text.js';
import { anchorFor, isPrefix, parseToml, parseTomlData, samePath, spanEnd, type Kv, type TomlDoc } from './toml-cst.js';
import { tomlBody, tomlKey, tomlKeyPath, tomlValue } from './toml-write.js';
import type {
  Change, ChangeRecord, KeyPath, TomlArrayEntryChange, TomlData, TomlSetChange, TomlTableChange,
} from './types.js';

const header = (path: KeyPath, array = false) => (array ? `[[${tomlKeyPath(path)}]]` : `[${tomlKeyPath(path)}]`);

function conflict(file: string, what: string, fix: string): never {
  throw new ConfigConflictError(file, `${file}: ${what}`, fix);
}

/** Every prefix of `path` must be a table (not a value, not an array of tables). */
function checkTablePath(doc: TomlDoc, path: KeyPath, file: string, upTo = path.length): void {
  for (let i = 1; i <= upTo; i++) {
    const v = getAt(doc.data, path.slice(0, i));
    if (v !== undefined && !isPlainObject(v)) {
      conflict(file, `"${path.slice(0, i).join('.')}" is ${Array.isArray(v) ? 'an array' : 'a value'}, not a table`,
        `Rename or remove "${path.slice(0, i).join('.')}" by hand, then run the command again.`);
    }
  }
}

/** A key/value whose full path is `target`: a line in a table, or an item inside an inline table. */
type Found = { kv: Kv; inline?: { items: Kv[]; index: number; table: { start: number; end: number } } };

function inlineItems(doc: TomlDoc, kv: Kv): Kv[] {
  return (kv.value.items ?? []).map((i) => i.item!).filter((n) => n?.type === 'KeyValue').map((n) => ({
    key: n.key?.value ?? [],
    start: doc.offset(n.loc.start),
    end: doc.offset(n.loc.end),
    value: n.value!,
    valueStart: doc.offset(n.value!.loc.start),
    valueEnd: doc.offset(n.value!.loc.end),
  }));
}

/** Key/value lines with the table they sit in: the root, then every `[table]` (array entries are not addressable). */
function contexts(doc: TomlDoc): Array<[string[], Kv[]]> {
  return [[[], doc.rootKvs], ...doc.blocks.filter((b) => b.kind === 'table').map((b): [string[], Kv[]] => [b.key, b.kvs])];
}

function findKey(doc: TomlDoc, target: KeyPath): Found | undefined {
  const search = (base: string[], kvs: Kv[], parent?: Kv): Found | undefined => {
    for (let i = 0; i < kvs.length; i++) {
      const full = [...base, ...kvs[i].key];
      if (samePath(full, target)) {
        return parent ? { kv: kvs[i], inline: { items: kvs, index: i, table: { start: parent.valueStart, end: parent.valueEnd } } } : { kv: kvs[i] };
      }
      if (full.length < target.length && isPrefix(full, target) && kvs[i].value.type === 'InlineTable') {
        const hit = search(full, inlineItems(doc, kvs[i]), kvs[i]);
        if (hit) return hit;
      }
    }
    return undefined;
  };
  for (const [base, kvs] of contexts(doc)) {
    const hit = search(base, kvs);
    if (hit) return hit;
  }
  return undefined;
}

interface Planned { edits: Edit[]; created: string[][]; containerRaw?: string }

/** Adds `key = value` to table `table` wherever that table is defined. */
function insertKey(doc: TomlDoc, table: KeyPath, key: string, value: TomlData, eol: Eol): Planned {
  const line = `${tomlKey(key)} = ${tomlValue(value)}`;
  if (table.length === 0) {
    const last = doc.rootKvs[doc.rootKvs.length - 1];
    return { edits: [insertLinesEdit(doc.body, last ? lineEnd(doc.body, last.end) : null, [line], eol)], created: [] };
  }
  const block = doc.blocks.find((b) => b.kind === 'table' && samePath(b.key, table));
  if (block) return { edits: [insertLinesEdit(doc.body, block.lastLineEnd, [line], eol)], created: [] };
  const inline = findKey(doc, table);
  if (inline && inline.kv.value.type === 'InlineTable') {
    const items = inlineItems(doc, inline.kv);
    const pair = `${tomlKey(key)} = ${tomlValue(value)}`;
    if (items.length > 0) return { edits: [{ offset: items[items.length - 1].end, length: 0, content: `, ${pair}` }], created: [] };
    const raw = doc.body.slice(inline.kv.valueStart, inline.kv.valueEnd);
    return { edits: [{ offset: inline.kv.valueStart, length: raw.length, content: `{ ${pair} }` }], created: [], containerRaw: raw };
  }
  // Dotted keys (`features.x = 1`) define the table: add ours next to them, in the same style.
  for (const [base, kvs] of contexts(doc)) {
    const dotted = kvs.filter((kv) => { const full = [...base, ...kv.key]; return full.length > table.length && isPrefix(table, full); });
    if (dotted.length > 0 && isPrefix(base, table)) {
      const rel = tomlKeyPath([...table.slice(base.length), key]);
      return { edits: [insertLinesEdit(doc.body, lineEnd(doc.body, dotted[dotted.length - 1].end), [`${rel} = ${tomlValue(value)}`], eol)], created: [] };
    }
  }
  return { edits: [newBlock(doc, table, [line], eol)], created: [[...table]] };
}

function newBlock(doc: TomlDoc, path: KeyPath, lines: string[], eol: Eol, array = false): Edit {
  const anchor = array ? lastEntryEnd(doc, path) ?? anchorFor(doc, path) : anchorFor(doc, path);
  const block = [header(path, array), ...lines];
  return insertLinesEdit(doc.body, anchor, anchor === null ? block : ['', ...block], eol);
}

function lastEntryEnd(doc: TomlDoc, path: KeyPath): number | null {
  for (let i = doc.blocks.length - 1; i >= 0; i--) {
    if (doc.blocks[i].kind === 'array' && samePath(doc.blocks[i].key, path)) return spanEnd(doc, i);
  }
  return null;
}

function removeKeyEdit(doc: TomlDoc, found: Found, containerRaw?: string): Edit {
  const { kv, inline } = found;
  if (!inline) return removeLinesEdit(doc.body, lineStart(doc.body, kv.start), lineEnd(doc.body, kv.end));
  const { items, index, table } = inline;
  if (items.length === 1) return { offset: table.start, length: table.end - table.start, content: containerRaw ?? '{}' };
  if (index > 0) return { offset: items[index - 1].end, length: kv.end - items[index - 1].end, content: '' };
  return { offset: kv.start, length: items[1].start - kv.start, content: '' };
}

function finishApply(file: string, doc: TomlDoc, bom: string, edits: Edit[], expected: unknown): string {
  const body = applyEdits(doc.body, edits);
  verifyEdit(file, 'TOML', () => parseTomlData(body, file), expected);
  return bom + body;
}

function applySet(doc: TomlDoc, bom: string, c: TomlSetChange, file: string, eol: Eol): ApplyResult {
  checkTablePath(doc, c.table, file);
  const target = [...c.table, c.key];
  const found = findKey(doc, target);
  const base = { id: changeId(c), change: storedChange(c) };
  if (found) {
    const old = getAt(doc.data, target);
    const record: ChangeRecord = { ...base, previous: { present: true, value: old, raw: doc.body.slice(found.kv.valueStart, found.kv.valueEnd) }, created: [] };
    if (deepEqual(old, c.value)) return { text: bom + doc.body, record, noop: true };
    const edit = { offset: found.kv.valueStart, length: found.kv.valueEnd - found.kv.valueStart, content: tomlValue(c.value) };
    return { text: finishApply(file, doc, bom, [edit], setAt(doc.data, target, c.value)), record, noop: false };
  }
  const p = insertKey(doc, c.table, c.key, c.value, eol);
  const record: ChangeRecord = { ...base, previous: { present: false }, created: p.created, ...(p.containerRaw !== undefined && { containerRaw: p.containerRaw }) };
  return { text: finishApply(file, doc, bom, p.edits, setAt(doc.data, target, c.value)), record, noop: false };
}

/** Edits that drop every block at or under `path` (a table and its sub-tables), except inside `keep`. */
function dropTableEdits(doc: TomlDoc, path: KeyPath, keep?: { start: number; end: number }): Edit[] {
  return doc.blocks
    .filter((b) => isPrefix(path, b.key) && !(keep && b.start >= keep.start && b.lastLineEnd <= keep.end))
    .map((b) => removeBlockEdit(doc.body, b.start, b.lastLineEnd));
}

function applyTable(doc: TomlDoc, bom: string, c: TomlTableChange, file: string, eol: Eol): ApplyResult {
  checkTablePath(doc, c.table, file, c.table.length - 1);
  const old = getAt(doc.data, c.table);
  const base = { id: changeId(c), change: storedChange(c) };
  const expected = setAt(doc.data, c.table, c.value);
  const index = doc.blocks.findIndex((b) => b.kind === 'table' && samePath(b.key, c.table));
  if (old !== undefined) {
    const record: ChangeRecord = { ...base, previous: { present: true, value: old }, created: [] };
    if (deepEqual(old, c.value)) return { text: bom + doc.body, record, noop: true };
    if (index < 0 || !isPlainObject(old)) {
      conflict(file, `"${c.table.join('.')}" is defined inline or with dotted keys`, `Move it into its own ${header(c.table)} table (or remove it), then run the command again.`);
    }
    const b = doc.blocks[index];
    const end = spanEnd(doc, index);
    const replace: Edit = { offset: b.start, length: end - b.start, content: [header(c.table), ...tomlBody(c.value)].join(eol) };
    const stray = dropTableEdits(doc, c.table, { start: b.start, end });
    return { text: finishApply(file, doc, bom, [replace, ...stray], expected), record, noop: false };
  }
  const edit = newBlock(doc, c.table, tomlBody(c.value), eol);
  return { text: finishApply(file, doc, bom, [edit], expected), record: { ...base, previous: { present: false }, created: [] }, noop: false };
}

/** The `[[array]]` blocks in order; refuses arrays written inline, whose entries have no header of their own. */
function entries(doc: TomlDoc, path: KeyPath, file: string): number[] {
  checkTablePath(doc, path, file, path.length - 1);
  const list = getAt(doc.data, path);
  const idx = doc.blocks.flatMap((b, i) => (b.kind === 'array' && samePath(b.key, path) ? [i] : []));
  if (list !== undefined && (!Array.isArray(list) || list.length !== idx.length)) {
    conflict(file, `"${path.join('.')}" is not an array of ${header(path, true)} tables`, `Rewrite "${path.join('.')}" as ${header(path, true)} tables (or remove it), then run the command again.`);
  }
  return idx;
}

function applyArrayEntry(doc: TomlDoc, bom: string, c: TomlArrayEntryChange, file: string, eol: Eol): ApplyResult {
  const idx = entries(doc, c.array, file);
  const list = (getAt(doc.data, c.array) as unknown[] | undefined) ?? [];
  const at = list.findIndex((e) => matches(e, c.match));
  const base = { id: changeId(c), change: storedChange(c) };
  if (at >= 0) {
    const record: ChangeRecord = { ...base, previous: { present: true, value: list[at] }, created: [] };
    if (deepEqual(list[at], c.entry)) return { text: bom + doc.body, record, noop: true };
    const b = doc.blocks[idx[at]];
    const edit = { offset: b.start, length: spanEnd(doc, idx[at]) - b.start, content: [header(c.array, true), ...tomlBody(c.entry)].join(eol) };
    const next = [...list];
    next[at] = c.entry;
    return { text: finishApply(file, doc, bom, [edit], setAt(doc.data, c.array, next)), record, noop: false };
  }
  const edit = newBlock(doc, c.array, tomlBody(c.entry), eol, true);
  return { text: finishApply(file, doc, bom, [edit], setAt(doc.data, c.array, [...list, c.entry])), record: { ...base, previous: { present: false }, created: [] }, noop: false };
}

function revertSet(doc: TomlDoc, record: ChangeRecord, c: TomlSetChange, file: string): RevertResult {
  const target = [...c.table, c.key];
  const found = findKey(doc, target);
  let body = doc.body;
  if (found) {
    if (!deepEqual(getAt(doc.data, target), c.value)) return { text: body, note: `${target.join('.')} was changed after install; left as is` };
    const edit = record.previous.present
      ? { offset: found.kv.valueStart, length: found.kv.valueEnd - found.kv.valueStart, content: record.previous.raw ?? tomlValue(record.previous.value as TomlData) }
      : removeKeyEdit(doc, found, record.containerRaw);
    body = applyEdits(body, [edit]);
  }
  if (record.created.some((p) => samePath(p, c.table))) {
    const after = parseToml(body, file);
    const b = after.blocks.find((x) => x.kind === 'table' && samePath(x.key, c.table));
    if (b && b.kvs.length === 0 && b.comments === 0) body = applyEdits(body, [removeBlockEdit(body, b.start, b.lastLineEnd)]);
  }
  return { text: body };
}

function revertArrayEntry(doc: TomlDoc, c: TomlArrayEntryChange, file: string): RevertResult {
  const idx = entries(doc, c.array, file);
  const list = (getAt(doc.data, c.array) as unknown[] | undefined) ?? [];
  const edits = list.flatMap((e, i) => (matches(e, c.match) ? [removeBlockEdit(doc.body, doc.blocks[idx[i]].start, spanEnd(doc, idx[i]))] : []));
  return { text: applyEdits(doc.body, edits) };
}

export const tomlEditor: Editor = {
  apply(text: string, change: Change, file: string): ApplyResult {
    const { bom, body } = splitBom(text);
    const doc = parseToml(body, file);
    const eol = detectEol(body);
    if (change.kind === 'toml-set') return applySet(doc, bom, change, file, eol);
    if (change.kind === 'toml-table') return applyTable(doc, bom, change, file, eol);
    if (change.kind === 'toml-array-entry') return applyArrayEntry(doc, bom, change, file, eol);
    throw new Error(`toml editor cannot apply ${change.kind}`);
  },
  revert(text: string, record: ChangeRecord, file: string): RevertResult {
    const { bom, body } = splitBom(text);
    const doc = parseToml(body, file);
    const c = record.change;
    let r: RevertResult;
    if (c.kind === 'toml-set') r = revertSet(doc, record, c as TomlSetChange, file);
    else if (c.kind === 'toml-table') r = { text: applyEdits(body, dropTableEdits(doc, (c as TomlTableChange).table)) };
    else if (c.kind === 'toml-array-entry') r = revertArrayEntry(doc, c as TomlArrayEntryChange, file);
    else throw new Error(`toml editor cannot revert ${c.kind}`);
    parseTomlData(r.text, file); // never leave a file we cannot read back
    return { ...r, text: bom + r.text };
  },
  isEmpty(text: string): boolean {
    return splitBom(text).body.trim() === '';
  },
};
