/** planChanges: every file's new text (and, on first read, its diff), computed before anything is written. */
import { dirname, resolve } from 'node:path';
import { changeId, formatOf, storedChange, storedFile } from './editor.js';
import { ConfigConflictError, EngineError } from './errors.js';
import { withLazyDiff } from './diff.js';
import { missingDirs, readState, sha256, type FileState } from './fs.js';
import { editorFor } from './registry.js';
import type { Change, FileChange, PlannedFile, PlannedRecord, StoredFileChange } from './types.js';

export type { PlannedFile };


/** Wraps unexpected failures so one bad file never stops the other hosts. */
export function asEngineError(file: string, e: unknown): EngineError {
  if (e instanceof EngineError) return e;
  return new ConfigConflictError(file, `${file}: ${(e as Error)?.message ?? String(e)}`, 'Check the file by hand; run with --dry-run to see the planned change.');
}

function planWholeFile(path: string, state: FileState, c: FileChange): { after: string; records: PlannedRecord[]; mode?: number } {
  const modeOk = c.mode === undefined || state.mode === c.mode;
  if (typeof c.content !== 'string') {
    // A change re-planned from the manifest, which keeps a whole file's digest, not its text:
    // in place is a no-op; anything else has nothing to be written back from.
    const digest = (c as Partial<StoredFileChange>).sha256;
    if (!(state.exists && digest && modeOk && sha256(state.text!) === digest)) {
      throw new ConfigConflictError(path, `${path} ${state.exists ? 'changed' : 'was removed'} since install (the install manifest keeps only its digest)`, `Run \`claude-mem install --ide ${c.host}\` to write it again.`);
    }
    const record = { id: changeId(c), change: storedFile(state.text!, c.mode), previous: { present: false as const }, created: [] };
    return { after: state.text!, mode: c.mode, records: [{ host: c.host, noop: true, record }] };
  }
  const same = state.text === c.content && modeOk;
  const previous = state.exists ? { present: true as const, value: null, hash: sha256(state.text!) } : { present: false as const };
  return {
    after: c.content,
    mode: c.mode,
    records: [{ host: c.host, noop: same, record: { id: changeId(c), change: storedChange(c), previous, created: [] } }],
  };
}

async function planFile(path: string, changes: readonly Change[]): Promise<PlannedFile> {
  const hosts = [...new Set(changes.map((c) => c.host))];
  const format = formatOf(changes[0].kind);
  const base: PlannedFile = { path, format, hosts, existed: false, before: null, after: null, changed: false, diff: '', records: [], createdDirs: [], notes: [] };
  try {
    const state = readState(path);
    Object.assign(base, { existed: state.exists, before: state.text, after: state.text });
    if (changes.some((c) => formatOf(c.kind) !== format) || (format === 'file' && changes.length > 1)) {
      throw new ConfigConflictError(path, `${path}: changes of different kinds (${[...new Set(changes.map((c) => c.kind))].join(', ')}) target one file`, 'Fix the host modules: one file takes one kind of change.');
    }
    let after: string;
    let mode: number | undefined;
    let records: PlannedRecord[] = [];
    if (format === 'file') {
      ({ after, records, mode } = planWholeFile(path, state, changes[0] as FileChange));
    } else {
      after = state.text ?? '';
      const editor = await editorFor(format);
      for (const c of changes) {
        const r = editor.apply(after, c, path);
        after = r.text;
        records.push({ host: c.host, record: r.record, noop: r.noop });
      }
    }
    const changed = !state.exists || after !== state.text || (mode !== undefined && mode !== state.mode);
    return withLazyDiff({
      ...base,
      after,
      changed,
      ...(mode !== undefined && { mode }),
      records,
      createdDirs: state.exists ? [] : missingDirs(dirname(path)),
    }, state.text);
  } catch (e) {
    return { ...base, error: asEngineError(path, e) };
  }
}

/**
 * Plans every change, grouped by file, in order. A refused file fails its hosts: their changes
 * are dropped from every other file too, so no host is left half-installed.
 */
export async function planChanges(changes: readonly Change[]): Promise<PlannedFile[]> {
  const groups = new Map<string, Change[]>();
  for (const c of changes) {
    const path = resolve(c.file);
    const list = groups.get(path) ?? [];
    list.push({ ...c, file: path });
    groups.set(path, list);
  }
  const failed = new Set<string>();
  const errors = new Map<string, PlannedFile>();
  for (;;) {
    const out: PlannedFile[] = [];
    const before = failed.size;
    for (const [path, list] of groups) {
      if (errors.has(path)) {
        out.push(errors.get(path)!);
        continue;
      }
      const live = list.filter((c) => !failed.has(c.host));
      if (live.length === 0) continue;
      const planned = await planFile(path, live);
      if (planned.error) {
        planned.hosts.forEach((h) => failed.add(h));
        errors.set(path, planned);
      }
      out.push(planned);
    }
    if (failed.size === before) return out;
  }
}

/** Hosts that cannot be installed because one of their files was refused. */
export function failedHosts(plan: readonly PlannedFile[]): Map<string, EngineError> {
  const out = new Map<string, EngineError>();
  for (const f of plan) if (f.error) for (const h of f.hosts) if (!out.has(h)) out.set(h, f.error);
  return out;
}
