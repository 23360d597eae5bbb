/**
 * toml-table: a whole table named for us, such as `[mcp_servers.claude-mem]`. The keys we write
 * are ours; a key the user adds to the table is theirs.
 *
 * - Install writes our keys and keeps the user's (and their comments) where they are.
 * - Uninstall removes our keys. When the user's keys remain, the table cannot stay as it is (Codex
 *   refuses to start on `[mcp_servers.claude-mem]` without a command: "invalid transport"), so
 *   they are kept commented out, under a line saying why, and uninstall says so.
 */
import { changeId, storedChange, type ApplyResult, type RevertResult } from './editor.js';
import { deepEqual, getAt, isPlainObject, setAt } from './match.js';
import { applyEdits, insertLinesEdit, lineEnd, type Edit, type Eol } from './text.js';
import { isPrefix, parseToml, samePath, spanEnd, type TomlDoc } from './toml-cst.js';
import { checkTablePath, conflict, dropTableEdits, findKey, finishApply, header, newBlock, removeKeyEdit } from './toml-locate.js';
import { tomlBody, tomlKey, tomlValue } from './toml-write.js';
import type { ChangeRecord, TomlData, TomlTableChange } from './types.js';

/** How the note above a table uninstall commented out begins. */
export const COMMENTED_OUT_MARK = '# claude-mem uninstall removed its own keys from ';

/** Keys of the table that are the user's: added by them, or ours changed by them since. */
function usersKeys(current: Record<string, unknown>, ours: Readonly<Record<string, TomlData>>): string[] {
  return Object.keys(current).filter((k) => !(k in ours) || !deepEqual(current[k], ours[k]));
}

/** Our keys set one by one in a table that also holds the user's keys; new ones go after its last key. */
function setOurKeys(doc: TomlDoc, c: TomlTableChange, eol: Eol): Edit[] {
  const edits: Edit[] = [];
  const missing: string[] = [];
  for (const [key, value] of Object.entries(c.value)) {
    const found = findKey(doc, [...c.table, key]);
    if (!found) missing.push(key);
    else if (!deepEqual(getAt(doc.data, [...c.table, key]), value)) edits.push({ offset: found.kv.valueStart, length: found.kv.valueEnd - found.kv.valueStart, content: tomlValue(value) });
  }
  const block = doc.blocks.find((b) => b.kind === 'table' && samePath(b.key, c.table))!;
  if (missing.length) edits.push(insertLinesEdit(doc.body, block.lastLineEnd, missing.map((k) => `${tomlKey(k)} = ${tomlValue(c.value[k])}`), eol));
  return edits;
}

export function applyTable(doc: TomlDoc, bom: string, c: TomlTableChange, file: string, eol: Eol): ApplyResult {
  checkTablePath(doc, c.table, file, c.table.length - 1);
  const old = getAt(doc.data, c.table);
  const base = { id: changeId(c), change: storedChange(c) };
  const index = doc.blocks.findIndex((b) => b.kind === 'table' && samePath(b.key, c.table));
  if (old === undefined) {
    const edit = newBlock(doc, c.table, tomlBody(c.value), eol);
    return { text: finishApply(file, doc, bom, [edit], setAt(doc.data, c.table, c.value)), record: { ...base, previous: { present: false }, created: [] }, noop: false };
  }
  const record: ChangeRecord = { ...base, previous: { present: true, value: old }, created: [] };
  if (index < 0 || !isPlainObject(old)) {
    conflict(file, `"${c.table.join('.')}" is defined inline or with dotted keys`, `Move it into its own ${header(c.table)} table (or remove it), then run the command again.`);
  }
  const theirs = Object.keys(old).filter((k) => !(k in c.value));
  const nested = Object.values(c.value).some((v) => isPlainObject(v));
  if (theirs.length > 0 && !nested) {
    const expected = setAt(doc.data, c.table, { ...old, ...c.value });
    const edits = setOurKeys(doc, c, eol);
    if (edits.length === 0) return { text: bom + doc.body, record, noop: true };
    return { text: finishApply(file, doc, bom, edits, expected), record, noop: false };
  }
  if (deepEqual(old, c.value)) return { text: bom + doc.body, record, noop: true };
  const b = doc.blocks[index];
  const end = spanEnd(doc, index);
  const replace: Edit = { offset: b.start, length: end - b.start, content: [header(c.table), ...tomlBody(c.value)].join(eol) };
  const stray = dropTableEdits(doc, c.table, { start: b.start, end });
  return { text: finishApply(file, doc, bom, [replace, ...stray], setAt(doc.data, c.table, c.value)), record, noop: false };
}

/** Comments out every line of the table and its sub-tables, under a line that says why. */
function commentOut(body: string, c: TomlTableChange, keys: readonly string[], file: string): string {
  const doc = parseToml(body, file);
  const eol = body.includes('\r\n') ? '\r\n' : '\n';
  const ranges: Array<[number, number]> = [];
  doc.blocks.forEach((b, i) => {
    if (!isPrefix(c.table, b.key) || ranges.some(([s, e]) => b.start >= s && b.start < e)) return;
    ranges.push([b.start, lineEnd(body, samePath(b.key, c.table) ? spanEnd(doc, i) : b.lastLineEnd)]);
  });
  const why = `${COMMENTED_OUT_MARK}${header(c.table)}; yours (${keys.join(', ')}) are kept below, commented out: the table does not work without claude-mem's.`;
  const edits = ranges.map(([start, end], n): Edit => {
    const text = body.slice(start, end).split(/\r?\n/).map((l) => (l.trim() === '' ? l : `# ${l}`)).join(eol);
    return { offset: start, length: end - start, content: n === 0 ? `${why}${eol}${text}` : text };
  });
  return applyEdits(body, edits);
}

export function revertTable(doc: TomlDoc, c: TomlTableChange, file: string): RevertResult {
  const current = getAt(doc.data, c.table);
  if (!isPlainObject(current)) return { text: applyEdits(doc.body, dropTableEdits(doc, c.table)) };
  const keys = usersKeys(current, c.value);
  if (keys.length === 0) return { text: applyEdits(doc.body, dropTableEdits(doc, c.table)) };
  // Ours go first, line by line (one at a time: each removal moves the others).
  let body = doc.body;
  for (const key of Object.keys(c.value).filter((k) => !keys.includes(k))) {
    const d = parseToml(body, file);
    const found = findKey(d, [...c.table, key]);
    if (found) body = applyEdits(body, [removeKeyEdit(d, found)]);
  }
  return { text: commentOut(body, c, keys, file), note: `${header(c.table)} also held your ${keys.join(', ')}: removed claude-mem's keys and kept yours, commented out (the table does not work without claude-mem's)` };
}
