import { sha256 } from './fs.js';
import type { Change, ChangeRecord, FileFormat, StoredFileChange } from './types.js';

export interface ApplyResult {
  text: string;
  record: ChangeRecord;
  /** The file already held exactly this change. */
  noop: boolean;
}

export interface RevertResult {
  text: string;
  /** Why something was left in place (e.g. the user changed our value since install). */
  note?: string;
}

/** One format's apply/revert. Both take and return the whole file text (BOM included). */
export interface Editor {
  apply(text: string, change: Change, file: string): ApplyResult;
  revert(text: string, record: ChangeRecord, file: string): RevertResult;
  /** True when nothing but whitespace (or our removed root) is left: a file we created can go. */
  isEmpty(text: string): boolean;
}

export function formatOf(kind: Change['kind']): FileFormat {
  if (kind.startsWith('json')) return 'json';
  if (kind.startsWith('toml')) return 'toml';
  if (kind.startsWith('yaml')) return 'yaml';
  return kind === 'text-block' ? 'text' : 'file';
}

/** Stable identity of a change inside one file (what it owns), used to merge manifests. */
export function changeId(c: Change | ChangeRecord['change']): string {
  switch (c.kind) {
    case 'json-set':
    case 'yaml-set':
      return `${c.kind}:${JSON.stringify(c.path)}`;
    case 'json-array-upsert':
      return `${c.kind}:${JSON.stringify(c.path)}:${JSON.stringify(c.match)}`;
    case 'toml-set':
      return `${c.kind}:${JSON.stringify([...c.table, c.key])}`;
    case 'toml-table':
      return `${c.kind}:${JSON.stringify(c.table)}`;
    case 'toml-array-entry':
      return `${c.kind}:${JSON.stringify(c.array)}:${JSON.stringify(c.match)}`;
    case 'text-block':
      return `${c.kind}:${c.id}`;
    case 'file':
      return 'file';
  }
}

/** The change as stored in the manifest (file and host are its keys there; a whole file by its digest). */
export function storedChange(c: Change): ChangeRecord['change'] {
  if (c.kind === 'file') return storedFile(c.content, c.mode);
  const { file: _file, host: _host, ...rest } = c;
  return rest as ChangeRecord['change'];
}

export function storedFile(content: string, mode?: number): StoredFileChange {
  return { kind: 'file', sha256: sha256(content), size: Buffer.byteLength(content, 'utf8'), ...(mode !== undefined && { mode }) };
}
