/** applyPlan: backups, atomic writes, and the manifest kept in step with each file. */
import { backup, readState, removeFile, sha256, writeAtomic } from './fs.js';
import { loadManifest, mergeRecords, saveManifest, serializeManifest } from './manifest.js';
import { asEngineError, type PlannedFile } from './plan.js';
import type { EngineError } from './errors.js';
import type { Manifest, ManifestFile } from './types.js';

export interface ApplyOptions {
  manifestPath: string;
  backupsDir: string;
  /** Called before each file write; a throw here aborts the run like a crash would (tests). */
  beforeWrite?: (path: string, index: number) => void;
}

export interface ApplySummary {
  written: string[];
  unchanged: string[];
  backups: string[];
  /** Files whose write failed (e.g. permissions); their hosts are reported, the rest carry on. */
  failed: Array<{ path: string; hosts: string[]; error: EngineError }>;
}

function entryFor(m: Manifest, host: string, f: PlannedFile): ManifestFile {
  const files = (m.hosts[host] ??= { files: {} }).files;
  return (files[f.path] ??= {
    createdByUs: !f.existed,
    createdDirs: f.createdDirs,
    hashBefore: f.before === null ? null : sha256(f.before),
    hashAfter: null,
    state: 'pending',
    changes: [],
  });
}

function entriesOf(m: Manifest, f: PlannedFile): ManifestFile[] {
  return f.hosts.map((h) => m.hosts[h]?.files[f.path]).filter((e): e is ManifestFile => !!e);
}

/**
 * Writes the plan. The manifest first records every change as pending (with what it replaces),
 * then each file is written and its entry marked applied: after a crash each file is old or
 * new, and running install again finishes the job with the right "previous" values.
 */
export async function applyPlan(plan: readonly PlannedFile[], opts: ApplyOptions): Promise<ApplySummary> {
  const summary: ApplySummary = { written: [], unchanged: [], backups: [], failed: [] };
  const m = loadManifest(opts.manifestPath);
  const original = serializeManifest(m);
  const todo = plan.filter((f) => !f.error && f.records.length > 0);
  for (const f of todo) {
    for (const host of f.hosts) {
      const entry = entryFor(m, host, f);
      entry.changes = mergeRecords(entry, f.records.filter((r) => r.host === host));
      if (f.changed) entry.state = 'pending';
      else {
        // Already in place (a re-run, or a run that crashed after this file's write).
        entry.state = 'applied';
        entry.hashAfter = f.before === null ? null : sha256(f.before);
      }
    }
  }
  if (serializeManifest(m) !== original) saveManifest(opts.manifestPath, m);

  let index = 0;
  for (const f of todo) {
    if (!f.changed) {
      summary.unchanged.push(f.path);
      continue;
    }
    opts.beforeWrite?.(f.path, index++);
    try {
      const entries = entriesOf(m, f);
      // The user's file is backed up once, before our first change to it.
      if (f.existed && f.before !== null && !entries.some((e) => e.backup)) {
        const file = backup(opts.backupsDir, f.path, f.before);
        summary.backups.push(file);
        entries.forEach((e) => (e.backup = file));
      }
      if (readState(f.path).text !== f.before) throw new Error('the file changed while installing; run the command again');
      if (f.after === null) removeFile(f.path);
      else writeAtomic(f.path, f.after, f.mode);
      for (const e of entries) {
        e.state = 'applied';
        e.hashAfter = f.after === null ? null : sha256(f.after);
      }
      saveManifest(opts.manifestPath, m);
      summary.written.push(f.path);
    } catch (e) {
      summary.failed.push({ path: f.path, hosts: f.hosts, error: asEngineError(f.path, e) });
    }
  }
  return summary;
}
