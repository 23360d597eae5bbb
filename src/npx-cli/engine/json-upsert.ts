/**
 * json-array-upsert: our entry in an array (a hook group, a plugin string). Every entry the matcher
 * finds is ours, so an older install's or a second copy's entry is replaced, never kept beside
 * ours. A group the user also put their own items in (`inner`) is ours only in part: install and
 * uninstall touch only our items in it and keep the group and the rest.
 */
import type { Node } from 'jsonc-parser';
import { changeId, storedChange, type ApplyResult, type RevertResult } from './editor.js';
import { dropCreated, finish, insertAt, rawFor, reparse, save, verify, walk, walkExact, type Doc } from './json-doc.js';
import { appendChildEdits, nodeText, nodeValue, removeChildEdits, replaceValueEdit } from './json-tree.js';
import { deepEqual, getAt, isPlainObject, matches, setAt } from './match.js';
import { applyEdits, type Edit } from './text.js';
import type { ChangeRecord, JsonArrayUpsertChange, KeyPath } from './types.js';

/** Where our items sit in an entry. Older manifests do not say; their Claude-layout groups keep them in `hooks`. */
function innerOf(c: Pick<JsonArrayUpsertChange, 'inner' | 'entry'>): KeyPath | undefined {
  if (c.inner) return c.inner;
  return isPlainObject(c.entry) && Array.isArray(c.entry.hooks) ? ['hooks'] : undefined;
}

interface Ours {
  index: number;
  /** Nothing of the user's is in it: the whole entry is ours. */
  wholly: boolean;
  /** The array of items inside the entry, and which of them are ours (when not wholly ours). */
  items?: Node;
  mine: number[];
}

function oursIn(arr: Node, c: JsonArrayUpsertChange): Ours[] {
  const inner = innerOf(c);
  return (arr.children ?? []).flatMap((node, index): Ours[] => {
    if (!matches(nodeValue(node), c.match)) return [];
    const items = inner && walkExact(node, inner);
    if (!items || items.type !== 'array') return [{ index, wholly: true, mine: [] }];
    const kids = items.children ?? [];
    const mine = kids.flatMap((k, i) => (matches(nodeValue(k), c.match) ? [i] : []));
    return [{ index, wholly: mine.length === 0 || mine.length === kids.length, items, mine }];
  });
}

/** Removes one piece of ours: a whole entry, or the last of our items in a shared group. */
function removeOne(doc: Doc, arr: Node, o: Ours, file: string, containerRaw?: string): Doc {
  const edits = o.wholly ? removeChildEdits(doc.body, arr, o.index, containerRaw) : removeChildEdits(doc.body, o.items!, o.mine[o.mine.length - 1]);
  return reparse(doc, applyEdits(doc.body, edits), file);
}

/** Entries of ours after the first go (or, in a shared group, our items in it). */
function dropExtras(doc: Doc, c: JsonArrayUpsertChange, file: string): { doc: Doc; dropped: boolean } {
  let dropped = false;
  for (;;) {
    const arr = walkExact(doc.root, c.path)!;
    const ours = oursIn(arr, c);
    if (ours.length <= 1) return { doc, dropped };
    doc = removeOne(doc, arr, ours[ours.length - 1], file);
    dropped = true;
  }
}

/** The array after the upsert, computed on plain values: the edited text must read back as this. */
function predict(list: readonly unknown[], c: JsonArrayUpsertChange): unknown[] {
  const inner = innerOf(c);
  const ours = (v: unknown) => matches(v, c.match);
  const out: unknown[] = [];
  let placed = false;
  for (const v of list) {
    const kids = inner && ours(v) ? getAt(v, inner) : undefined;
    const shared = Array.isArray(kids) && kids.some(ours) && !kids.every(ours);
    if (!ours(v)) out.push(v);
    else if (!shared) {
      if (!placed) out.push(c.entry);
      placed = true;
    } else {
      const theirs = (kids as unknown[]).filter((k) => !ours(k));
      if (placed) out.push(setAt(v, inner!, theirs));
      else {
        const first = (kids as unknown[]).findIndex(ours);
        const next = (kids as unknown[]).filter((k, i) => !ours(k) || i === first).map((k) => (ours(k) ? (getAt(c.entry, inner!) as unknown[])[0] : k));
        out.push(setAt(v, inner!, next));
      }
      placed = true;
    }
  }
  if (!placed) out.push(c.entry);
  return out;
}

/** Our handler in a group that also holds the user's: replaced in place, the rest of the group kept. */
function updateShared(doc: Doc, c: JsonArrayUpsertChange, o: Ours, file: string): { doc: Doc; changed: boolean } {
  const mine = (getAt(c.entry, innerOf(c)!) as unknown[])[0];
  let changed = false;
  for (let cur = o; cur.mine.length > 1; changed = true) {
    doc = removeOne(doc, walkExact(doc.root, c.path)!, cur, file);
    cur = oursIn(walkExact(doc.root, c.path)!, c)[0];
  }
  const o2 = oursIn(walkExact(doc.root, c.path)!, c)[0];
  const item = o2.items!.children![o2.mine[0]];
  if (deepEqual(nodeValue(item), mine)) return { doc, changed };
  return { doc: reparse(doc, applyEdits(doc.body, [replaceValueEdit(doc.body, item, mine, doc.style)]), file), changed: true };
}

export function applyUpsert(doc: Doc, c: JsonArrayUpsertChange, file: string): ApplyResult {
  const data = nodeValue(doc.root);
  const found = walk(doc, c.path, file, 'array');
  const base = { id: changeId(c), change: storedChange(c) };
  if (found.depth < c.path.length) {
    const ins = insertAt(doc, c.path, [c.entry], found);
    const body = applyEdits(doc.body, ins.edits);
    verify(file, body, setAt(data, c.path, [c.entry]));
    // The array itself is new too: it goes when our entry goes.
    const record: ChangeRecord = { ...base, previous: { present: false }, created: [...ins.created, [...c.path]], ...(ins.containerRaw !== undefined && { containerRaw: ins.containerRaw }) };
    return { text: save(doc, body), record, noop: false };
  }
  const expected = setAt(data, c.path, predict(getAt(data, c.path) as unknown[], c));
  const first = oursIn(found.node, c)[0];
  if (!first) {
    const ins = appendChildEdits(doc.body, found.node, null, c.entry, doc.style);
    const body = applyEdits(doc.body, ins.edits);
    verify(file, body, expected);
    const record: ChangeRecord = { ...base, previous: { present: false }, created: [], ...(ins.containerRaw !== undefined && { containerRaw: ins.containerRaw }) };
    return { text: save(doc, body), record, noop: false };
  }
  const oldNode = found.node.children![first.index];
  const record: ChangeRecord = { ...base, previous: { present: true, value: nodeValue(oldNode), raw: nodeText(doc.body, oldNode) }, created: [] };
  const deduped = dropExtras(doc, c, file);
  let next = deduped.doc;
  let changed = deduped.dropped;
  const o = oursIn(walkExact(next.root, c.path)!, c)[0];
  if (!o.wholly) {
    const r = updateShared(next, c, o, file);
    next = r.doc;
    changed ||= r.changed;
  } else {
    const node = walkExact(next.root, c.path)!.children![o.index];
    if (!deepEqual(nodeValue(node), c.entry)) {
      const edit: Edit = replaceValueEdit(next.body, node, c.entry, next.style);
      next = reparse(next, applyEdits(next.body, [edit]), file);
      changed = true;
    }
  }
  if (!changed) return { text: save(doc, doc.body), record, noop: true };
  verify(file, next.body, expected);
  return { text: save(doc, next.body), record, noop: false };
}

export function revertUpsert(doc: Doc, record: ChangeRecord, c: JsonArrayUpsertChange, file: string): RevertResult {
  let shared = false;
  for (;;) {
    const arr = walkExact(doc.root, c.path);
    if (!arr || arr.type !== 'array') break;
    const o = oursIn(arr, c)[0];
    if (!o) break;
    shared ||= !o.wholly;
    doc = removeOne(doc, arr, o, file, rawFor(record, c.path));
  }
  const note = shared ? `${c.path.join('.')}: kept the group you added your own ${innerOf(c)!.join('.')} entries to; removed only claude-mem's` : undefined;
  return { text: finish(dropCreated(doc, record, file)), ...(note && { note }) };
}
