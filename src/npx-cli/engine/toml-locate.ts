/** Finding and editing keys and tables in a TOML document's text (shared by the TOML changes). */
import { ConfigConflictError } from './errors.js';
import { verifyEdit } from './verify.js';
import { getAt, isPlainObject } from './match.js';
import { applyEdits, insertLinesEdit, lineEnd, lineStart, removeBlockEdit, removeLinesEdit, type Edit, type Eol } from './text.js';
import { anchorFor, isPrefix, parseTomlData, samePath, spanEnd, type Kv, type TomlDoc } from './toml-cst.js';
import { tomlKey, tomlKeyPath, tomlValue } from './toml-write.js';
import type { KeyPath, TomlData } from './types.js';

export const header = (path: KeyPath, array = false) => (array ? `[[${tomlKeyPath(path)}]]` : `[${tomlKeyPath(path)}]`);

export function conflict(file: string, what: string, fix: string): never {
  throw new ConfigConflictError(file, `${file}: ${what}`, fix);
}

/** Every prefix of `path` must be a table (not a value, not an array of tables). */
export function checkTablePath(doc: TomlDoc, path: KeyPath, file: string, upTo = path.length): void {
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

export function findKey(doc: TomlDoc, target: KeyPath): Found | undefined {
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
export function insertKey(doc: TomlDoc, table: KeyPath, key: string, value: TomlData, eol: Eol): Planned {
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

export function newBlock(doc: TomlDoc, path: KeyPath, lines: string[], eol: Eol, array = false): Edit {
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

export function removeKeyEdit(doc: TomlDoc, found: Found, containerRaw?: string): Edit {
  const { kv, inline } = found;
  if (!inline) return removeLinesEdit(doc.body, lineStart(doc.body, kv.start), lineEnd(doc.body, kv.end));
  const { items, index, table } = inline;
  if (items.length === 1) return { offset: table.start, length: table.end - table.start, content: containerRaw ?? '{}' };
  if (index > 0) return { offset: items[index - 1].end, length: kv.end - items[index - 1].end, content: '' };
  return { offset: kv.start, length: items[1].start - kv.start, content: '' };
}

export function finishApply(file: string, doc: TomlDoc, bom: string, edits: Edit[], expected: unknown): string {
  const body = applyEdits(doc.body, edits);
  verifyEdit(file, 'TOML', () => parseTomlData(body, file), expected);
  return bom + body;
}

/** Edits that drop every block at or under `path` (a table and its sub-tables), except inside `keep`. */
export function dropTableEdits(doc: TomlDoc, path: KeyPath, keep?: { start: number; end: number }): Edit[] {
  return doc.blocks
    .filter((b) => isPrefix(path, b.key) && !(keep && b.start >= keep.start && b.lastLineEnd <= keep.end))
    .map((b) => removeBlockEdit(doc.body, b.start, b.lastLineEnd));
}

