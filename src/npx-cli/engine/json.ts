/** json-set on JSON/JSONC files, and the JSON editor (json-array-upsert lives in json-upsert.ts). */
import { changeId, storedChange, type ApplyResult, type Editor, type RevertResult } from './editor.js';
import { dropCreated, finish, insertAt, load, loadForRevert, rawFor, reparse, save, verify, walk, walkExact, type Doc } from './json-doc.js';
import { nodeText, nodeValue, removeChildEdits, replaceValueEdit } from './json-tree.js';
import { applyUpsert, revertUpsert } from './json-upsert.js';
import { deepEqual, setAt } from './match.js';
import { applyEdits, splitBom, type Edit } from './text.js';
import type { Change, ChangeRecord, JsonArrayUpsertChange, JsonSetChange, Previous } from './types.js';

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

export const jsonEditor: Editor = {
  apply(text: string, change: Change, file: string): ApplyResult {
    const doc = load(text, file);
    if (change.kind === 'json-set') return applySet(doc, change, file);
    if (change.kind === 'json-array-upsert') return applyUpsert(doc, change, file);
    throw new Error(`json editor cannot apply ${change.kind}`);
  },
  revert(text: string, record: ChangeRecord, file: string): RevertResult {
    const doc = loadForRevert(text, record, file);
    if (!doc) return { text };
    const c = record.change;
    if (c.kind === 'json-set') return revertSet(doc, record, c as JsonSetChange, file);
    if (c.kind === 'json-array-upsert') return revertUpsert(doc, record, c as JsonArrayUpsertChange, file);
    throw new Error(`json editor cannot revert ${c.kind}`);
  },
  isEmpty(text: string): boolean {
    return splitBom(text).body.trim() === '';
  },
};
