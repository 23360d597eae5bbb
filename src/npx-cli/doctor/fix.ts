/**
 * `--fix`: repairs only what is safe to repair without asking — permissions of our own files,
 * write access of the database's companion files, drifted entries (re-applied from the manifest,
 * for those hosts only), a dead worker, a spool that is not draining — and says exactly what it
 * did. A foreign process, a broken file, a corrupt or read-only database are left to the user:
 * the checks say how.
 */
import { chmodSync, lstatSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostId } from '../../shared/hosts.js';
import { clearLosses, lossRecordPath, readLosses } from '../../shared/losses.js';
import { listSpool } from '../../shared/spool.js';
import type { StorageFailure } from '../../worker/storage-health.js';
import { companionFiles } from '../../store/writable.js';
import { SPOOL_STALE_MS } from './capture.js';
import type { DoctorContext } from './context.js';
import { modeProblems } from './data.js';
import { planHosts, repairDrift } from './drift.js';
import { regenerateFiles } from './regenerate.js';
import { errorText } from './timebox.js';
import type { Check, Fixed } from './types.js';

const failing = (checks: readonly Check[], id: string) => checks.some((c) => c.id === id && c.status !== 'ok');

function fixPermissions(ctx: DoctorContext): Fixed[] {
  return modeProblems(ctx.paths).filter((p) => p.want !== p.mode).map((p) => {
    try {
      chmodSync(p.path, p.want);
      return { id: 'data.permissions', ok: true, action: `chmod 0${p.want.toString(8)} ${p.path} (was 0${p.mode.toString(8)})` };
    } catch (e) {
      return { id: 'data.permissions', ok: false, action: `chmod ${p.path} failed: ${errorText(e)}` };
    }
  });
}

async function fixDrift(ctx: DoctorContext, checks: readonly Check[]): Promise<Fixed[]> {
  const hosts = checks.filter((c) => c.id.endsWith('.drift') && c.status === 'fail' && c.host).map((c) => c.host as HostId);
  const out: Fixed[] = [];
  if (hosts.length === 0) return out;
  const states = await planHosts(ctx, hosts);
  // One host at a time: hosts may share a file, and each apply updates the manifest.
  for (const { host, plans } of states) {
    const id = `${host}.drift`;
    try {
      const entries = await repairDrift(ctx, [host]);
      for (const f of entries.written) out.push({ id, ok: true, action: `re-applied claude-mem's entries in ${f} (the rest of the file is unchanged)` });
      const whole = plans.filter((f) => f.error && f.format === 'file').map((f) => f.path);
      const files = whole.length ? await regenerateFiles(ctx, host, whole) : { written: [], failed: [] };
      for (const f of files.written) out.push({ id, ok: true, action: `wrote ${f} again (a file wholly claude-mem's)` });
      for (const f of [...entries.failed, ...files.failed]) out.push({ id, ok: false, action: `could not write ${f}` });
    } catch (e) {
      out.push({ id, ok: false, action: `re-applying failed: ${errorText(e)}` });
    }
  }
  return out;
}

/**
 * Write access back for what claude-mem itself created — the data and spool directories, the
 * database's -wal and -shm (SQLite gives them the database's mode, so a database that was read-only
 * once leaves them read-only) and the loss record — if they are ours: owned by this user, of the
 * expected type, not a symlink. The database file itself is the user's to change.
 */
function fixWriteAccess(ctx: DoctorContext): Fixed[] {
  const uid = process.getuid?.();
  const own: [string, 'dir' | 'file'][] = [
    [ctx.paths.root, 'dir'], [ctx.paths.spool, 'dir'],
    ...companionFiles(ctx.paths.db).map((p): [string, 'file'] => [p, 'file']), [lossRecordPath(ctx.paths.root), 'file'],
  ];
  const out: Fixed[] = [];
  for (const [path, kind] of own) {
    let st;
    try {
      st = lstatSync(path);
    } catch {
      continue;
    }
    const want = kind === 'dir' ? 0o700 : 0o600;
    if ((st.mode & 0o700) === (want & 0o700)) continue;
    if (!(kind === 'dir' ? st.isDirectory() : st.isFile()) || (uid !== undefined && st.uid !== uid)) {
      out.push({ id: 'data.writable', ok: false, action: `left ${path} alone: not a ${kind === 'dir' ? 'directory' : 'regular file'} owned by you` });
      continue;
    }
    try {
      chmodSync(path, want);
      out.push({ id: 'data.writable', ok: true, action: `chmod 0${want.toString(8)} ${path} (was 0${(st.mode & 0o777).toString(8)})` });
    } catch (e) {
      out.push({ id: 'data.writable', ok: false, action: `chmod ${path} failed: ${errorText(e)}` });
    }
  }
  return out;
}

const SPOOL_PROBE_BYTES = 256 * 1024;

/** Clears the loss record once its cause is gone (the spool takes a file, the disk has room again). */
function fixLosses(ctx: DoctorContext): Fixed[] {
  const lost = readLosses(ctx.paths.root);
  if (!lost) return [];
  // The spool taking a file the size of a large capture batch is what the lost events lacked.
  const probe = join(ctx.paths.spool, `.doctor-${process.pid}.tmp`);
  try {
    writeFileSync(probe, Buffer.alloc(SPOOL_PROBE_BYTES, 0x20), { mode: 0o600 });
  } catch (e) {
    return [{ id: 'capture.losses', ok: false, action: `kept the record of ${lost.lost} lost event(s): ${ctx.paths.spool} still cannot take a file (${errorText(e)})` }];
  } finally {
    try { unlinkSync(probe); } catch { /* not created */ }
  }
  return [clearLosses(ctx.paths.root)
    ? { id: 'capture.losses', ok: true, action: `cleared the record of ${lost.lost} lost event(s) (they cannot be recovered; their cause, ${lost.code}, is gone)` }
    : { id: 'capture.losses', ok: false, action: `could not clear ${lost.file}` }];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until none of `names` (or no file older than the staleness limit) is left in the spool. */
async function waitDrained(ctx: DoctorContext, ms: number, names?: ReadonlySet<string>): Promise<number> {
  const end = Date.now() + ms;
  const left = () => listSpool(ctx.paths.spool).filter((f) => (names ? names.has(f.name) : Date.now() - f.mtimeMs > SPOOL_STALE_MS)).length;
  while (left() > 0 && Date.now() < end) await sleep(100);
  return left();
}

async function fixWorker(ctx: DoctorContext, checks: readonly Check[], storageRepaired: boolean): Promise<Fixed[]> {
  const out: Fixed[] = [];
  const st = await ctx.worker();
  const dead = st.state === 'stopped' || st.state === 'stale';
  const storage = (st.stats as { storage?: StorageFailure | null } | null)?.storage;
  // A worker that opened the database read-only keeps its read-only handle: it must reopen it.
  const reopen = !dead && (storage?.problem === 'readonly' || (storageRepaired && !!storage));
  const spool = failing(checks, 'capture.spool') || storageRepaired || reopen;
  if (!dead && !spool) return out;
  const waiting = new Set(listSpool(ctx.paths.spool).map((f) => f.name));
  const { startWorker, stopWorker } = await import('../../worker/lifecycle/control.js');
  if (dead || reopen) {
    const stop = reopen ? await stopWorker(ctx.paths) : undefined;
    const { ensure } = await startWorker(ctx.paths, 10_000);
    const what = stop ? `restarted the worker (pid ${stop.pid ?? '?'} → ${ensure.ok ? ensure.info.pid : '?'}) so it reopens the database for writing` : 'started the worker';
    out.push(ensure.ok
      ? { id: 'worker.identity', ok: true, action: `${what} (port ${ensure.port})` }
      : { id: 'worker.identity', ok: false, action: `the worker did not start: ${ensure.reason}` });
    if (!ensure.ok) return out;
  }
  if (!spool) return out;
  // After a storage repair every waiting file must go in; otherwise only the stale ones count.
  const all = storageRepaired || reopen ? waiting : undefined;
  let left = await waitDrained(ctx, 5000, all);
  if (left > 0 && !dead && !reopen) {
    // Up but not draining: a restart drains the spool on start.
    const stop = await stopWorker(ctx.paths);
    const { ensure } = await startWorker(ctx.paths, 10_000);
    out.push({ id: 'worker.identity', ok: ensure.ok, action: ensure.ok ? `restarted the worker (pid ${stop.pid ?? '?'} → ${ensure.info.pid}) to drain the spool` : `restart failed: ${ensure.reason}` });
    left = await waitDrained(ctx, 5000, all);
  }
  out.push(left === 0
    ? { id: 'capture.spool', ok: true, action: 'the worker drained the spool into memory' }
    : { id: 'capture.spool', ok: false, action: `${left} spool file(s) are still waiting; see logs/worker.log` });
  return out;
}

export async function repair(ctx: DoctorContext, checks: readonly Check[]): Promise<Fixed[]> {
  const out: Fixed[] = [];
  if (failing(checks, 'data.permissions')) out.push(...fixPermissions(ctx));
  const access = failing(checks, 'data.writable') ? fixWriteAccess(ctx) : [];
  out.push(...access);
  out.push(...(await fixDrift(ctx, checks)));
  out.push(...(await fixWorker(ctx, checks, access.some((f) => f.ok))));
  if (failing(checks, 'capture.losses')) out.push(...fixLosses(ctx));
  return out;
}
