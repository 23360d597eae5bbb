/**
 * applyPlan: backups, atomic writes, and the manifest: durable pending records first, applied ones
 * at the end. A host is installed whole or not at all: when one of its files cannot be written,
 * the files of its that were written are put back as they were (rollback.ts).
 */
import { backup, readState, removeFile, sha256, writeAtomicAsync } from './fs.js';
import { loadManifest, mergeRecords, saveManifest, serializeManifest } from './manifest.js';
import { asEngineError, type PlannedFile } from './file-plan.js';
import type { EngineError } from './errors.js';
import { rollBackFailedHosts } from './rollback.js';
import type { ApplySummary, Manifest, ManifestFile } from './types.js';

export interface ApplyOptions {
  manifestPath: string;
  backupsDir: string;
  /** Called before each file write; a throw here aborts the run like a crash would (tests). */
  beforeWrite?: (path: string, index: number) => void;
}

export type { ApplySummary } from './types.js';


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

const PARALLEL = 8;

/** The user's file is backed up once, before our first change to it; the pending record names the backup. */
function backupOnce(f: PlannedFile, m: Manifest, opts: ApplyOptions, summary: ApplySummary): void {
  const entries = entriesOf(m, f);
  if (!f.existed || f.before === null || entries.some((e) => e.backup)) return;
  const file = backup(opts.backupsDir, f.path, f.before);
  summary.backups.push(file);
  entries.forEach((e) => (e.backup = file));
}

async function writeOne(f: PlannedFile, m: Manifest, summary: ApplySummary): Promise<void> {
  try {
    if (readState(f.path).text !== f.before) throw new Error('the file changed while installing; run the command again');
    if (f.after === null) removeFile(f.path);
    else await writeAtomicAsync(f.path, f.after, f.mode);
    // Marked in memory; the manifest is saved once at the end (the durable pending record already
    // makes a re-run after a crash correct: that file is then found in place, a no-op).
    const hashAfter = f.after === null ? null : sha256(f.after);
    for (const e of entriesOf(m, f)) {
      e.state = 'applied';
      e.hashAfter = hashAfter;
    }
    summary.written.push(f.path);
  } catch (e) {
    summary.failed.push({ path: f.path, hosts: f.hosts, error: asEngineError(f.path, e) });
  }
}

/**
 * Writes the plan. The manifest first records every change as pending (with what it replaces and
 * the backup of each file it changes), durably, before any file is touched; then the files are
 * written and the manifest saved once more with them marked applied. After a crash each file is
 * old or new, and running install again finishes the job with the right "previous" values.
 */
export async function applyPlan(plan: readonly PlannedFile[], opts: ApplyOptions): Promise<ApplySummary> {
  const summary: ApplySummary = { written: [], unchanged: [], backups: [], failed: [], rolledBack: [], rollbackFailed: [] };
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
  const queue: PlannedFile[] = [];
  for (const f of todo) {
    if (!f.changed) {
      summary.unchanged.push(f.path);
      continue;
    }
    try {
      backupOnce(f, m, opts, summary);
      queue.push(f);
    } catch (e) {
      summary.failed.push({ path: f.path, hosts: f.hosts, error: asEngineError(f.path, e) });
    }
  }
  if (serializeManifest(m) !== original) saveManifest(opts.manifestPath, m);

  // Files are written a few at a time (their fsyncs overlap).
  const inFlight = new Set<Promise<void>>();
  let crash: unknown;
  try {
    for (let index = 0; index < queue.length; index++) {
      const f = queue[index];
      try {
        opts.beforeWrite?.(f.path, index);
      } catch (e) {
        crash = e;
        break;
      }
      const job = writeOne(f, m, summary).finally(() => inFlight.delete(job));
      inFlight.add(job);
      if (inFlight.size >= PARALLEL) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  } finally {
    // Even when stopped early: what was written is recorded as applied.
    if (summary.written.length > 0) saveManifest(opts.manifestPath, m);
  }
  if (crash !== undefined) throw crash;
  if (summary.failed.length > 0) {
    await rollBackFailedHosts(todo, m, JSON.parse(original) as Manifest, summary);
    if (serializeManifest(m) !== original || summary.written.length > 0) saveManifest(opts.manifestPath, m);
  }
  return summary;
}
