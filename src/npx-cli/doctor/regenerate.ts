/**
 * Whole files of ours (a hooks file of our own, a plugin) are kept in the manifest by digest, so a
 * changed one cannot be replayed from it: --fix asks the host module for the file again, as
 * install would, with the version install recorded (so the same plugin API is chosen), and
 * writes only the files that drifted.
 */
import { resolve } from 'node:path';
import type { HostId } from '../../shared/hosts.js';
import { applyPlan, planChanges, type PlannedFile } from '../engine/index.js';
import { loadHostModule } from '../hosts/modules.js';
import { hostContext } from '../install/context.js';
import type { DoctorContext } from './context.js';

export async function regenerateFiles(ctx: DoctorContext, host: HostId, files: readonly string[]): Promise<{ written: string[]; failed: string[] }> {
  const want = new Set(files.map((f) => resolve(f)));
  const version = ctx.meta(host)?.versionDetected ?? undefined;
  const ictx = hostContext(ctx.base, { installed: true, evidence: [], ...(version && { version }), facts: {} }, ctx.hosts);
  const plan = await (await loadHostModule(host)).plan(ictx);
  const changes = plan.changes.filter((c) => c.kind === 'file' && want.has(resolve(c.file)));
  const planned: PlannedFile[] = (await planChanges(changes)).filter((f) => !f.error && f.changed);
  const missing = [...want].filter((f) => !changes.some((c) => resolve(c.file) === f)).map((f) => `${f}: the ${host} module no longer plans this file`);
  if (planned.length === 0) return { written: [], failed: missing };
  const r = await applyPlan(planned, { manifestPath: ctx.paths.manifest, backupsDir: ctx.paths.backups });
  return { written: r.written, failed: [...missing, ...r.failed.map((f) => `${f.path}: ${f.error.message}`)] };
}
