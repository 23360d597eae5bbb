/** toml-set, toml-table and toml-array-entry: span edits located by a real parser, verified by a strict one. */
import { changeId, storedChange, type ApplyResult, type Editor, type RevertResult } from './editor.js';
import { deepEqual, getAt, matches, setAt } from './match.js';
import { applyEdits, detectEol, removeBlockEdit, splitBom, type Eol } from './text.js';
import { parseToml, parseTomlData, samePath, spanEnd, type TomlDoc } from './toml-cst.js';
import { checkTablePath, conflict, findKey, finishApply, header, insertKey, newBlock, removeKeyEdit } from './toml-locate.js';
import { applyTable, COMMENTED_OUT_MARK, revertTable } from './toml-table.js';
import { tomlBody, tomlValue } from './toml-write.js';
import type { Change, ChangeRecord, KeyPath, TomlArrayEntryChange, TomlData, TomlSetChange, TomlTableChange } from './types.js';

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
  // Every entry the matcher finds is ours: the first is updated, the others (a second copy's) go.
  const hits = list.flatMap((e, i) => (matches(e, c.match) ? [i] : []));
  const at = hits.length ? hits[0] : -1;
  const base = { id: changeId(c), change: storedChange(c) };
  if (at >= 0) {
    const record: ChangeRecord = { ...base, previous: { present: true, value: list[at] }, created: [] };
    if (deepEqual(list[at], c.entry) && hits.length === 1) return { text: bom + doc.body, record, noop: true };
    const b = doc.blocks[idx[at]];
    const edit = { offset: b.start, length: spanEnd(doc, idx[at]) - b.start, content: [header(c.array, true), ...tomlBody(c.entry)].join(eol) };
    const extras = hits.slice(1).map((i) => removeBlockEdit(doc.body, doc.blocks[idx[i]].start, spanEnd(doc, idx[i])));
    const next = list.flatMap((e, i) => (i === at ? [c.entry] : hits.includes(i) ? [] : [e]));
    return { text: finishApply(file, doc, bom, [edit, ...extras], setAt(doc.data, c.array, next)), record, noop: false };
  }
  const edit = newBlock(doc, c.array, tomlBody(c.entry), eol, true);
  return { text: finishApply(file, doc, bom, [edit], setAt(doc.data, c.array, [...list, c.entry])), record: { ...base, previous: { present: false }, created: [] }, noop: false };
}

/**
 * Comments of the user's under a table's header: a note keeps an otherwise empty table we created.
 * A table uninstall commented out (toml-table.ts) may follow it; its lines are not the user's.
 */
function userComments(body: string, doc: TomlDoc, b: TomlDoc['blocks'][number]): boolean {
  if (b.comments === 0) return false;
  const next = doc.blocks.find((x) => x.start > b.start)?.start ?? body.length;
  for (const line of body.slice(b.lastLineEnd, next).split('\n')) {
    if (line.startsWith(COMMENTED_OUT_MARK)) return false;
    if (line.trim().startsWith('#')) return true;
  }
  return false;
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
    if (b && b.kvs.length === 0 && !userComments(body, after, b)) body = applyEdits(body, [removeBlockEdit(body, b.start, b.lastLineEnd)]);
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
    else if (c.kind === 'toml-table') r = revertTable(doc, c as TomlTableChange, file);
    else if (c.kind === 'toml-array-entry') r = revertArrayEntry(doc, c as TomlArrayEntryChange, file);
    else throw new Error(`toml editor cannot revert ${c.kind}`);
    parseTomlData(r.text, file); // never leave a file we cannot read back
    return { ...r, text: bom + r.text };
  },
  isEmpty(text: string): boolean {
    return splitBom(text).body.trim() === '';
  },
};
