/**
 * `--fix`: repairs only what is safe to repair without asking — permissions of our own files,
 * drifted entries (re-applied from the manifest, for those hosts only), a dead worker, a spool
 * that is not draining — and says exactly what it did. A foreign process, a broken file, a
 * corrupt database are left to the user: the checks say how.
 */
import { chmodSync } from 'node:fs';
import type { HostId } from '../../shared/hosts.js';
import { listSpool } from '../../shared/spool.js';
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

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until no spool file older than the staleness limit is left (the worker drains every second). */
async function waitDrained(ctx: DoctorContext, ms: number): Promise<number> {
  const end = Date.now() + ms;
  const old = () => listSpool(ctx.paths.spool).filter((f) => Date.now() - f.mtimeMs > SPOOL_STALE_MS).length;
  while (old() > 0 && Date.now() < end) await sleep(100);
  return old();
}

async function fixWorker(ctx: DoctorContext, checks: readonly Check[]): Promise<Fixed[]> {
  const out: Fixed[] = [];
  const st = await ctx.worker();
  const dead = st.state === 'stopped' || st.state === 'stale';
  const spool = failing(checks, 'capture.spool');
  if (!dead && !spool) return out;
  const { startWorker, stopWorker } = await import('../../worker/lifecycle/control.js');
  if (dead) {
    const { ensure } = await startWorker(ctx.paths, 10_000);
    out.push(ensure.ok
      ? { id: 'worker.identity', ok: true, action: `started the worker (pid ${ensure.info.pid}, port ${ensure.port})` }
      : { id: 'worker.identity', ok: false, action: `the worker did not start: ${ensure.reason}` });
    if (!ensure.ok) return out;
  }
  if (!spool) return out;
  let left = await waitDrained(ctx, 5000);
  if (left > 0 && !dead) {
    // Up but not draining: a restart drains the spool on start.
    const stop = await stopWorker(ctx.paths);
    const { ensure } = await startWorker(ctx.paths, 10_000);
    out.push({ id: 'worker.identity', ok: ensure.ok, action: ensure.ok ? `restarted the worker (pid ${stop.pid ?? '?'} → ${ensure.info.pid}) to drain the spool` : `restart failed: ${ensure.reason}` });
    left = await waitDrained(ctx, 5000);
  }
  out.push(left === 0
    ? { id: 'capture.spool', ok: true, action: 'the worker drained the spool into memory' }
    : { id: 'capture.spool', ok: false, action: `${left} spool file(s) are still waiting; see logs/worker.log` });
  return out;
}

export async function repair(ctx: DoctorContext, checks: readonly Check[]): Promise<Fixed[]> {
  const out: Fixed[] = [];
  if (failing(checks, 'data.permissions')) out.push(...fixPermissions(ctx));
  out.push(...(await fixDrift(ctx, checks)));
  out.push(...(await fixWorker(ctx, checks)));
  return out;
}
