/**
 * revertFromManifest: undoes recorded changes by finding our entries again (by owned key or
 * matcher), not by restoring backups, so whatever the user changed since install survives.
 */
import { readFileSync } from 'node:fs';
import { formatOf } from './editor.js';
import { withLazyDiff } from './diff.js';
import { readState, removeEmptyDirs, removeFile, sha256, writeAtomic } from './fs.js';
import { loadManifest, saveManifest } from './manifest.js';
import { asEngineError, type PlannedFile } from './file-plan.js';
import { editorFor } from './registry.js';
import type { EngineError } from './errors.js';
import type { ChangeRecord, Manifest, ManifestFile } from './types.js';

export interface RevertOptions {
  /** Host ids to uninstall (default: every host in the manifest). */
  hosts?: readonly string[];
  /** Plan and diff only; nothing is written. */
  dryRun?: boolean;
}

export interface RevertSummary {
  files: PlannedFile[];
  written: string[];
  deleted: string[];
  failed: Array<{ path: string; hosts: string[]; error: EngineError }>;
}

/** Undo of a whole file we wrote: delete it (or put back the one we replaced) unless the user changed it. */
function revertWholeFile(text: string, entry: ManifestFile, record: ChangeRecord): { text: string | null; note?: string } {
  if (entry.hashAfter !== null && sha256(text) !== entry.hashAfter) return { text, note: 'changed after install; left as is' };
  if (!record.previous.present) return { text: null };
  if (!entry.backup) return { text, note: 'no backup of the file it replaced; left as is' };
  return { text: readFileSync(entry.backup, 'utf8') };
}

async function planFileRevert(m: Manifest, path: string, hosts: string[]): Promise<PlannedFile> {
  const own = hosts.map((h) => ({ host: h, entry: m.hosts[h].files[path] }));
  const others = Object.keys(m.hosts).filter((h) => !hosts.includes(h) && m.hosts[h].files[path]);
  const records = own.flatMap(({ entry }) => entry.changes);
  const format = records.length > 0 ? formatOf(records[0].change.kind) : 'text';
  const base: PlannedFile = { path, format, hosts, existed: false, before: null, after: null, changed: false, diff: '', records: [], createdDirs: [], notes: [] };
  try {
    const state = readState(path);
    if (!state.exists) return { ...base, notes: ['already removed'], createdDirs: own.flatMap(({ entry }) => entry.createdDirs) };
    let text: string | null = state.text!;
    const editor = format === 'file' ? undefined : await editorFor(format);
    for (const { entry } of [...own].reverse()) {
      for (const record of [...entry.changes].reverse()) {
        if (text === null) break;
        const r: { text: string | null; note?: string } = editor ? editor.revert(text, record, path) : revertWholeFile(text, entry, record);
        text = r.text;
        if (r.note) base.notes.push(r.note);
      }
    }
    const ours = own.some(({ entry }) => entry.createdByUs) || others.some((h) => m.hosts[h].files[path].createdByUs);
    if (text !== null && editor && ours && others.length === 0 && editor.isEmpty(text)) text = null;
    const after = text;
    const changed = after !== state.text;
    return withLazyDiff({
      ...base,
      existed: true,
      before: state.text,
      after,
      changed,
      createdDirs: after === null ? own.flatMap(({ entry }) => entry.createdDirs) : [],
    }, state.text);
  } catch (e) {
    return { ...base, error: asEngineError(path, e) };
  }
}

export async function revertFromManifest(manifestPath: string, opts: RevertOptions = {}): Promise<RevertSummary> {
  const m = loadManifest(manifestPath);
  return revertManifest(m, opts, () => saveManifest(manifestPath, m));
}

/**
 * Reverts the records of `m` (the install manifest, or records found in the host files when it
 * has none: install/discover.ts); `save` persists `m` after each file (reverted hosts leave it).
 */
export async function revertManifest(m: Manifest, opts: RevertOptions, save: () => void): Promise<RevertSummary> {
  const selected = (opts.hosts ?? Object.keys(m.hosts)).filter((h) => m.hosts[h]);
  const byFile = new Map<string, string[]>();
  for (const h of selected) for (const path of Object.keys(m.hosts[h].files)) byFile.set(path, [...(byFile.get(path) ?? []), h]);
  const files = await Promise.all([...byFile].map(([path, hosts]) => planFileRevert(m, path, hosts)));
  const summary: RevertSummary = { files, written: [], deleted: [], failed: [] };
  if (opts.dryRun) return summary;
  for (const f of files) {
    if (f.error) {
      summary.failed.push({ path: f.path, hosts: f.hosts, error: f.error });
      continue;
    }
    try {
      if (f.changed && f.after !== null) {
        writeAtomic(f.path, f.after);
        summary.written.push(f.path);
      } else if (f.changed) {
        removeFile(f.path);
        summary.deleted.push(f.path);
      }
      if (f.after === null) removeEmptyDirs([...new Set(f.createdDirs)].sort((a, b) => a.length - b.length));
      for (const h of f.hosts) {
        delete m.hosts[h].files[f.path];
        if (Object.keys(m.hosts[h].files).length === 0) delete m.hosts[h];
      }
      save();
    } catch (e) {
      summary.failed.push({ path: f.path, hosts: f.hosts, error: asEngineError(f.path, e) });
    }
  }
  return summary;
}
