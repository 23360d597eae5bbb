/**
 * Where things are in a TOML file. smol-toml (strict TOML 1.0) decides whether the file is valid
 * and what it means; toml-patch's concrete syntax tree tells us where each table and key sits,
 * so edits replace or remove exact line spans instead of pattern-matching the text.
 */
import { parseDocument } from '@decimalturn/toml-patch';
import { parse as parseStrict, TomlError } from 'smol-toml';
import { ConfigParseError } from './errors.js';
import { lineEnd, lineStart } from './text.js';

interface Pos { line: number; column: number }
interface CstNode {
  type: string;
  loc: { start: Pos; end: Pos };
  key?: { value?: string[]; item?: { value: string[] } };
  value?: CstNode;
  items?: Array<CstNode & { item?: CstNode }>;
}

export interface Kv {
  /** Key segments relative to the table the key sits in. */
  key: string[];
  start: number;
  end: number;
  value: CstNode;
  valueStart: number;
  valueEnd: number;
}

interface Block {
  kind: 'table' | 'array';
  key: string[];
  /** Start of the header line. */
  start: number;
  /** End of the header line, or of the last key's line (trailing comments excluded). */
  lastLineEnd: number;
  kvs: Kv[];
  /** Comments inside the block (a user note keeps an otherwise empty table we created). */
  comments: number;
}

export interface TomlDoc {
  body: string;
  data: Record<string, unknown>;
  rootKvs: Kv[];
  blocks: Block[];
  offset(p: Pos): number;
}

export function parseTomlData(body: string, file: string): Record<string, unknown> {
  try {
    return parseStrict(body) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof TomlError) {
      const reason = e.message.split('\n')[0].replace(/^Invalid TOML document: /, '');
      throw new ConfigParseError(file, e.line, e.column, `invalid TOML: ${reason}`,
        `Fix the TOML at ${file}:${e.line}:${e.column} (a table or key defined twice is a common cause), then run the command again.`);
    }
    throw e;
  }
}

export function parseToml(body: string, file: string): TomlDoc {
  const data = parseTomlData(body, file);
  let cst: CstNode[];
  try {
    cst = parseDocument(body).cst as unknown as CstNode[];
  } catch (e) {
    const m = /\((\d+), (\d+)\)/.exec(String((e as Error).message));
    throw new ConfigParseError(file, m ? Number(m[1]) : 1, m ? Number(m[2]) + 1 : 1, `unsupported TOML: ${String((e as Error).message).split('\n')[0]}`);
  }
  const starts = [0];
  for (let i = 0; i < body.length; i++) if (body.charCodeAt(i) === 10) starts.push(i + 1);
  const offset = (p: Pos) => starts[p.line - 1] + p.column;
  const kv = (n: CstNode): Kv => ({
    key: n.key?.value ?? [],
    start: offset(n.loc.start),
    end: offset(n.loc.end),
    value: n.value!,
    valueStart: offset(n.value!.loc.start),
    valueEnd: offset(n.value!.loc.end),
  });
  const rootKvs: Kv[] = [];
  const blocks: Block[] = [];
  for (const n of cst) {
    if (n.type === 'KeyValue') rootKvs.push(kv(n));
    if (n.type !== 'Table' && n.type !== 'TableArray') continue;
    const start = offset(n.loc.start);
    const kvs = (n.items ?? []).filter((i) => i.type === 'KeyValue').map(kv);
    const last = kvs.length > 0 ? kvs[kvs.length - 1].end : start;
    blocks.push({
      kind: n.type === 'Table' ? 'table' : 'array',
      key: n.key?.item?.value ?? [],
      start: lineStart(body, start),
      lastLineEnd: lineEnd(body, last),
      kvs,
      comments: (n.items ?? []).filter((i) => i.type === 'Comment').length,
    });
  }
  return { body, data, rootKvs, blocks, offset };
}

export const samePath = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
export const isPrefix = (p: readonly string[], of: readonly string[]) => p.length <= of.length && p.every((x, i) => x === of[i]);

/** End of a block together with the sub-tables that directly follow it (`[t]` then `[t.env]`). */
export function spanEnd(doc: TomlDoc, index: number): number {
  const head = doc.blocks[index];
  let end = head.lastLineEnd;
  for (let j = index + 1; j < doc.blocks.length; j++) {
    const b = doc.blocks[j];
    if (b.key.length <= head.key.length || !isPrefix(head.key, b.key)) break;
    end = b.lastLineEnd;
  }
  return end;
}

/** Where a new table for `path` reads best: after the last related table, else at the end. */
export function anchorFor(doc: TomlDoc, path: readonly string[]): number | null {
  let best = -1;
  let bestLen = 0;
  doc.blocks.forEach((b, i) => {
    let n = 0;
    while (n < b.key.length && n < path.length && b.key[n] === path[n]) n++;
    if (n > 0 && n >= bestLen) {
      best = i;
      bestLen = n;
    }
  });
  if (best >= 0) return spanEnd(doc, best);
  const { body } = doc;
  let end = body.length;
  while (end > 0 && /\s/.test(body[end - 1])) end--;
  return end === 0 ? null : lineEnd(body, end - 1);
}
