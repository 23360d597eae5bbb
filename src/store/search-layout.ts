/**
 * The one full-text index (memory_fts) over everything a search can find: observations, prompts,
 * assistant messages and session summaries. One index means one BM25 space: a word's rarity is
 * counted over all of memory, so scores of different kinds of rows can be compared.
 *
 * The index is contentless (it keeps no copy of the text) and its rowid says where a row lives:
 * the kind in the high bits, the row's id below (KIND_BASE). Search ranks each kind within its
 * rowid range, so prompts and summaries always get their own candidates.
 *
 * Columns: head (a title, the prompt, the request), body (the rest of the text), files, extra
 * (compound words, see compoundWords) and tags (filter words, tags.ts; weight 0).
 * Tokenizer: porter over unicode61 — English stemming in the index and, symmetrically, in the query.
 */
import type Database from 'better-sqlite3';
import { compoundWords } from './compound-words.js';
import { rowTags } from './tags.js';

export type IndexedKind = 'observation' | 'prompt' | 'assistant' | 'summary';

const SPAN = 2 ** 40;
export const KIND_BASE: Readonly<Record<IndexedKind, number>> = { observation: 0, prompt: SPAN, assistant: 2 * SPAN, summary: 3 * SPAN };
export const KIND_SPAN = SPAN;

export const FTS_TABLE = 'memory_fts';
export const FTS_COLUMNS = 'head, body, files, extra, tags';
export const TEXT_COLUMNS = '{head body files extra}';
export const FTS_TOKENIZE = `tokenize = 'porter unicode61 remove_diacritics 2'`;
/** The SQL function that computes the `extra` column (registered on every connection). */
const COMPOUND_FN = 'cm_compound';
/** Filter tags of a prompt-like row (tags.ts rowTags), for rows a migration writes. */
export const ROW_TAGS_FN = 'cm_row_tags';

interface IndexedSource {
  kind: IndexedKind;
  table: string;
  /** The five column values, written against the row alias `r`. */
  values: string;
}

export const INDEXED_SOURCES: readonly IndexedSource[] = [
  {
    kind: 'observation',
    table: 'observations',
    values: `r.title, coalesce(r.subtitle, '') || ' ' || r.narrative || ' ' || r.facts || ' ' || r.concepts,
      r.files_read || ' ' || r.files_modified, ${COMPOUND_FN}(r.title || ' ' || coalesce(r.subtitle, '') || ' ' || r.narrative), r.tags`,
  },
  { kind: 'prompt', table: 'prompts', values: `r.text, '', '', ${COMPOUND_FN}(r.text), r.tags` },
  { kind: 'assistant', table: 'assistant_messages', values: `'', r.text, '', ${COMPOUND_FN}(r.text), r.tags` },
  {
    kind: 'summary',
    table: 'summaries',
    values: `r.request, r.text, r.files_read || ' ' || r.files_modified, ${COMPOUND_FN}(r.text), r.tags`,
  },
];

/** `INSERT INTO memory_fts … SELECT … FROM <table> r WHERE <where>`. */
export function indexInsertSql(s: IndexedSource, where: string): string {
  return `INSERT INTO ${FTS_TABLE} (rowid, ${FTS_COLUMNS})
    SELECT r.id + ${KIND_BASE[s.kind]}, ${s.values} FROM ${s.table} r WHERE ${where}`;
}

/**
 * Triggers keeping the index in step with updates and deletes. New rows are not indexed by
 * trigger but in batches by fts-index.ts, up to the watermark kept in fts_state: indexing one row
 * per commit costs more than everything else a captured event writes. Updates and deletes touch
 * the index only for rows under the mark.
 */
export function indexTriggers(s: IndexedSource): string {
  const indexed = `WHEN old.id <= (SELECT upto FROM fts_state WHERE name = '${s.table}')`;
  const del = `DELETE FROM ${FTS_TABLE} WHERE rowid = old.id + ${KIND_BASE[s.kind]};`;
  return `
CREATE TRIGGER ${s.table}_fts_ad AFTER DELETE ON ${s.table} ${indexed} BEGIN
  ${del}
END;
CREATE TRIGGER ${s.table}_fts_au AFTER UPDATE ON ${s.table} ${indexed} BEGIN
  ${del}
  ${indexInsertSql(s, 'r.id = new.id')};
END;`;
}

/** Registers the functions the index's SQL calls. Every connection that writes needs them. */
export function registerSearchFunctions(db: Database.Database): void {
  db.function(COMPOUND_FN, { deterministic: true }, (text: unknown) => compoundWords(typeof text === 'string' ? text : null));
  db.function(ROW_TAGS_FN, { deterministic: true }, (host: unknown, project: unknown) => rowTags(String(host), String(project)));
}
