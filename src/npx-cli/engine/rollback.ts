/**
 * All or nothing per host. When a file of a host cannot be written (an immutable file: EPERM on
 * rename), the files of that host that were written go back to what they held, byte for byte, and
 * its manifest records go back to what they were. A file shared with another host is put back too,
 * and that host fails with it (said so): nothing is left half-installed.
 */
import { removeEmptyDirs, removeFile, writeAtomicAsync } from './fs.js';
import { ConfigConflictError } from './errors.js';
import { asEngineError, type PlannedFile } from './file-plan.js';
import type { ApplySummary } from './types.js';
import type { Manifest } from './types.js';

/** Hosts that failed, and every host sharing a written file with one of them. */
function failedClosure(files: readonly PlannedFile[], summary: ApplySummary): Set<string> {
  const failed = new Set(summary.failed.flatMap((f) => f.hosts));
  for (let grew = true; grew;) {
    grew = false;
    for (const f of files) {
      if (!summary.written.includes(f.path) || !f.hosts.some((h) => failed.has(h))) continue;
      for (const h of f.hosts) {
        if (failed.has(h)) continue;
        failed.add(h);
        grew = true;
        const cause = f.hosts.find((x) => failed.has(x) && x !== h)!;
        summary.failed.push({ path: f.path, hosts: [h], error: new ConfigConflictError(f.path, `${f.path} was put back as it was: it is shared with ${cause}, whose install failed`, `Fix ${cause} first, then run the command again.`) });
      }
    }
  }
  return failed;
}

/** The manifest records of `hosts` for `path` become what they were before this run. */
function restoreRecords(m: Manifest, original: Manifest, path: string, hosts: readonly string[]): void {
  for (const h of hosts) {
    const before = original.hosts[h]?.files[path];
    if (before) (m.hosts[h] ??= { files: {} }).files[path] = before;
    else if (m.hosts[h]) {
      delete m.hosts[h].files[path];
      if (Object.keys(m.hosts[h].files).length === 0 && !original.hosts[h]) delete m.hosts[h];
    }
  }
}

export async function rollBackFailedHosts(files: readonly PlannedFile[], m: Manifest, original: Manifest, summary: ApplySummary): Promise<void> {
  const failed = failedClosure(files, summary);
  for (const f of files) {
    if (!f.hosts.some((h) => failed.has(h))) continue;
    if (!summary.written.includes(f.path)) {
      // Never written (the failed file itself, or one not reached): only its pending records go.
      restoreRecords(m, original, f.path, f.hosts);
      continue;
    }
    try {
      if (f.before === null) {
        removeFile(f.path);
        removeEmptyDirs([...f.createdDirs].sort((a, b) => a.length - b.length));
      } else await writeAtomicAsync(f.path, f.before);
      summary.written.splice(summary.written.indexOf(f.path), 1);
      summary.rolledBack.push({ path: f.path, hosts: f.hosts });
      restoreRecords(m, original, f.path, f.hosts);
    } catch (e) {
      // It keeps our change, recorded as applied: uninstall can still remove it.
      summary.rollbackFailed.push({ path: f.path, hosts: f.hosts, error: asEngineError(f.path, e) });
    }
  }
}
