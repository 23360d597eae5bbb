/** install-manifest.json: every change install made, per host and file, enough to undo it exactly. */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { storedFile } from './editor.js';
import { ConfigConflictError } from './errors.js';
import { removeFile, sha256, writeAtomic } from './fs.js';
import { deepEqual, matches } from './match.js';
import type { ChangeRecord, Manifest, ManifestFile, PlannedRecord, StoredChange, StoredFileChange } from './types.js';

export const MANIFEST_SCHEMA_VERSION = 1;

function emptyManifest(): Manifest {
  return { schemaVersion: 1, hosts: {} };
}

export function loadManifest(path: string): Manifest {
  if (!existsSync(path)) return emptyManifest();
  let data: Manifest;
  try {
    data = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
  } catch (e) {
    throw new ConfigConflictError(path, `${path}: unreadable install manifest (${(e as Error).message})`, `Restore ${path} from a backup, or remove it and uninstall each host's entries by hand.`);
  }
  if (data?.schemaVersion !== MANIFEST_SCHEMA_VERSION || typeof data.hosts !== 'object') {
    throw new ConfigConflictError(path, `${path}: unsupported manifest schema ${String(data?.schemaVersion)}`, 'Use the claude-mem version that wrote it to uninstall, or upgrade claude-mem.');
  }
  for (const host of Object.values(data.hosts)) {
    for (const [file, entry] of Object.entries(host?.files ?? {})) {
      for (const r of entry?.changes ?? []) if (r?.change?.kind === 'file') contentOnDemand(r.change, file);
    }
  }
  return data;
}

/**
 * Readers that want a whole file's text (doctor re-plans recorded changes, reads the paths they
 * name) find it in `content` as before: read on first use from the file itself, which is exactly
 * what we wrote as long as its digest matches; undefined once it was changed or removed.
 */
function contentOnDemand(c: StoredFileChange, file: string): void {
  if (typeof c.content === 'string' || typeof c.sha256 !== 'string') return;
  let text: string | undefined | null = null;
  Object.defineProperty(c, 'content', {
    enumerable: true,
    configurable: true,
    get: () => (text === null ? (text = readIfWritten(file, c)) : text),
    set: (v: string | undefined) => {
      text = v;
    },
  });
}

function readIfWritten(file: string, c: StoredFileChange): string | undefined {
  try {
    const buf = readFileSync(file);
    return buf.length === c.size && sha256(buf) === c.sha256 ? buf.toString('utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** Whole files as digests (older manifests kept their text): the manifest stays a few KB. */
function compactChange(c: StoredChange): StoredChange {
  if (c.kind !== 'file') return c;
  if (typeof c.sha256 === 'string' && typeof c.size === 'number') return { kind: 'file', sha256: c.sha256, size: c.size, ...(c.mode !== undefined && { mode: c.mode }) };
  return storedFile(c.content ?? '', c.mode);
}

export function serializeManifest(m: Manifest): string {
  const hosts: Manifest['hosts'] = {};
  for (const [id, host] of Object.entries(m.hosts)) {
    const files: Record<string, ManifestFile> = {};
    for (const [file, entry] of Object.entries(host.files)) {
      files[file] = { ...entry, changes: entry.changes.map((r) => (r.change.kind === 'file' ? { ...r, change: compactChange(r.change) } : r)) };
    }
    hosts[id] = { ...host, files };
  }
  return `${JSON.stringify({ ...m, hosts }, null, 2)}\n`;
}

/** Writes the manifest atomically (0600); an empty one is removed instead of left behind. */
export function saveManifest(path: string, m: Manifest, durable = true): void {
  if (Object.keys(m.hosts).length === 0) return removeFile(path);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 }); // the data dir is private
  writeAtomic(path, serializeManifest(m), 0o600, durable);
}

/** What a change writes (to tell "the value there is still ours" from "the user's"). */
function written(c: ChangeRecord['change']): unknown {
  return 'value' in c ? c.value : 'entry' in c ? c.entry : undefined;
}

/** Where an array change puts its entry, to compare two records (`[[hooks]]` arrays included). */
function arrayOf(c: ChangeRecord['change']): unknown {
  return c.kind === 'json-array-upsert' ? c.path : c.kind === 'toml-array-entry' ? c.array : undefined;
}

/**
 * An older record of the same array whose entry this change's matcher finds owned that very entry
 * (written before matchers recognised our entries by what they are, or from another install
 * path): it gives way to the new record, which keeps what it first replaced. Returns it, removed
 * from `byId`.
 */
function supersede(byId: Map<string, ChangeRecord>, record: ChangeRecord): ChangeRecord | undefined {
  const c = record.change;
  const at = arrayOf(c);
  if (at === undefined || !('match' in c)) return undefined;
  for (const [id, r] of byId) {
    const o = r.change;
    if (o.kind !== c.kind || !deepEqual(arrayOf(o), at) || !('entry' in o) || !matches(o.entry, c.match)) continue;
    byId.delete(id);
    return r;
  }
  return undefined;
}

/**
 * Merges this run's records into a host's entry for one file. A change that was already in place
 * keeps what it replaced the first time: a re-install or upgrade never records our own value as "previous".
 */
export function mergeRecords(old: ManifestFile | undefined, planned: readonly PlannedRecord[]): ChangeRecord[] {
  const byId = new Map((old?.changes ?? []).map((r) => [r.id, r] as const));
  for (const { record, noop } of planned) {
    const prior = byId.get(record.id) ?? supersede(byId, record);
    if (!prior) {
      byId.set(record.id, record);
      continue;
    }
    const created = [...prior.created];
    for (const p of record.created) if (!created.some((q) => JSON.stringify(q) === JSON.stringify(p))) created.push(p);
    const stillOurs = noop || (record.previous.present && deepEqual(record.previous.value, written(prior.change)));
    byId.set(record.id, {
      ...record,
      previous: stillOurs ? prior.previous : record.previous,
      created,
      ...((prior.containerRaw ?? record.containerRaw) !== undefined && { containerRaw: prior.containerRaw ?? record.containerRaw }),
    });
  }
  return [...byId.values()];
}
