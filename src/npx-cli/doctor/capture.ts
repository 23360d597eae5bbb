/** Capture health: the spool drains, losses and dead letters are visible, and every installed host has been heard from. */
import { HOST_LABELS, type HostId } from '../../shared/hosts.js';
import { lossReason, readLosses } from '../../shared/losses.js';
import { listSpool } from '../../shared/spool.js';
import type { StorageFailure } from '../../worker/storage-health.js';
import type { StoreStats } from '../../store/types.js';
import type { DoctorContext } from './context.js';
import { freeBytes, sizeText } from './data.js';
import { age, errorText } from './timebox.js';
import type { Check } from './types.js';

/** Older than this, a spool file is not "in transit" any more: the worker drains every second. */
export const SPOOL_STALE_MS = 60_000;
const QUIET_AFTER_MS = 7 * 24 * 3600_000;

export async function spoolCheck(ctx: DoctorContext, now = Date.now()): Promise<Check> {
  const id = 'capture.spool';
  const files = listSpool(ctx.paths.spool);
  if (files.length === 0) {
    const lost = readLosses(ctx.paths.root);
    return {
      id, area: 'capture', status: 'ok',
      evidence: lost
        ? `${ctx.paths.spool} is empty, but ${lost.lost} event(s) never got that far (see capture.losses)`
        : `${ctx.paths.spool} is empty: every capture reached the worker`,
    };
  }
  const oldest = now - Math.min(...files.map((f) => f.mtimeMs));
  const bytes = files.reduce((n, f) => n + f.size, 0);
  const text = `${files.length} file(s), ${Math.ceil(bytes / 1024)} KiB waiting in ${ctx.paths.spool}, oldest ${age(oldest)}`;
  if (oldest <= SPOOL_STALE_MS) return { id, area: 'capture', status: 'ok', evidence: `${text} (in transit)` };
  const st = await ctx.worker();
  const up = st.state === 'running';
  const storage = (st.stats as { storage?: StorageFailure | null } | null)?.storage;
  if (up && storage) {
    return {
      id, area: 'capture', status: 'fail',
      evidence: `${text}: the worker cannot write its database (${storage.code}), so they wait (see data.writable)`,
      fix: 'Fix what data.writable names; the worker then stores them by itself (claude-mem doctor --fix restarts it when needed).',
    };
  }
  return {
    id, area: 'capture', status: 'fail',
    evidence: up ? `${text}: the running worker is not draining them, so they are not in memory` : `${text}: the worker is not running, so they are not in memory yet`,
    fix: up ? 'claude-mem doctor --fix (restarts the worker, which drains the spool on start); see logs/worker.log' : 'claude-mem doctor --fix (or: claude-mem start; the worker drains the spool on start)',
  };
}

/** What a failure code says about the cause, in the user's words. */
function lossCause(ctx: DoctorContext, code: string): string {
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    const free = freeBytes(ctx.paths);
    return `the disk of ${ctx.paths.root} was full${code === 'EDQUOT' ? ' (disk quota)' : ''} (now ${free === undefined ? 'free space unknown' : `${sizeText(free)} free`})`;
  }
  if (code === 'EROFS') return `the file system of ${ctx.paths.root} was read-only`;
  if (code === 'EACCES' || code === 'EPERM') return `${ctx.paths.spool} could not be written (permissions)`;
  return `writing ${ctx.paths.spool} failed`;
}

/** Events neither the worker nor the spool could keep: counted in the loss record by whoever lost them. */
export function lossCheck(ctx: DoctorContext): Check {
  const id = 'capture.losses';
  const lost = readLosses(ctx.paths.root);
  if (!lost) return { id, area: 'capture', status: 'ok', evidence: 'no capture was lost: every event was stored or spooled' };
  const when = lost.firstAt === lost.lastAt ? `at ${lost.lastAt}` : `between ${lost.firstAt} and ${lost.lastAt}`;
  return {
    id, area: 'capture', status: 'fail',
    evidence: `${lost.lost} event(s) were lost ${when}: the worker could not store them and the spool could not keep them, because ${lossCause(ctx, lost.code)} (last error ${lossReason(lost)})`,
    fix: `They cannot be recovered. Fix the cause (free disk space, or give ${ctx.paths.spool} back to your user), then claude-mem doctor --fix clears this record (${lost.file}).`,
  };
}

/** Store statistics: from the worker when it runs (it knows captures not yet flushed), else from the file. */
export async function storeStats(ctx: DoctorContext): Promise<{ stats?: StoreStats; error?: string }> {
  const st = await ctx.worker();
  const fromWorker = (st.stats as { store?: StoreStats } | null)?.store;
  if (fromWorker) return { stats: fromWorker };
  const { store, error } = await ctx.store();
  if (!store) return { error };
  try {
    return { stats: store.stats() };
  } catch (e) {
    return { error: errorText(e) };
  }
}

export async function deadLetterCheck(ctx: DoctorContext): Promise<Check> {
  const id = 'capture.dead-letters';
  const { stats, error } = await storeStats(ctx);
  if (!stats) return { id, area: 'capture', status: 'warn', evidence: `not counted: ${error}` };
  if (stats.deadLetters === 0) return { id, area: 'capture', status: 'ok', evidence: 'no dead letters: nothing was refused' };
  const { store } = await ctx.store();
  let newest = '';
  try {
    const d = store?.listDeadLetters(1)[0];
    if (d) newest = `; newest (${d.createdAt ?? '?'}, ${d.source}${d.filePath ? ` ${d.filePath}` : ''}): ${d.reason}`;
  } catch {
    // The count alone still says it.
  }
  return {
    id, area: 'capture', status: 'warn',
    evidence: `${stats.deadLetters} captured line(s) could not be stored and were kept aside${newest}`,
    fix: 'Read the reason: a transcript schema error is fixed in transcript-watch.json (claude-mem transcript validate); the lines stay in the dead_letters table.',
  };
}

/** Hosts whose capture is their own (hooks, plugin, transcript); recall-only ones are never heard from. */
const CAPTURING = new Set(['hooks', 'plugin', 'transcript']);

export async function lastEventChecks(ctx: DoctorContext, now = Date.now()): Promise<Check[]> {
  const { stats, error } = await storeStats(ctx);
  return ctx.hosts.flatMap((host: HostId): Check[] => {
    const id = `${host}.last-event`;
    const meta = ctx.meta(host);
    const label = meta?.label ?? HOST_LABELS[host];
    if (meta && !CAPTURING.has(meta.capture)) return [];
    if (!stats) return [{ id, area: 'capture', host, status: 'warn', evidence: `${label}: last event unknown (${error})` }];
    const last = stats.lastEventAtByHost[host];
    const installed = meta?.installedAt ? Date.parse(meta.installedAt) : NaN;
    if (last) return [{ id, area: 'capture', host, status: 'ok', evidence: `${label}: last event ${age(now - Date.parse(last))} ago (${last})` }];
    const since = Number.isFinite(installed) ? `installed ${age(now - installed)} ago` : 'install time unknown';
    if (Number.isFinite(installed) && now - installed > QUIET_AFTER_MS) {
      return [{
        id, area: 'capture', host, status: 'warn',
        evidence: `${label}: no event ever captured, ${since}`,
        fix: `Use ${label} once, then run claude-mem doctor --ide ${host}; if it stays empty, its round trip and prerequisites above say why.`,
      }];
    }
    return [{ id, area: 'capture', host, status: 'ok', evidence: `${label}: no events yet (${since})` }];
  });
}
