/**
 * Delivery: every event is either acknowledged by the worker or in the spool (fsynced) before
 * the hook exits. The worker drains the spool; idempotency keys make a double delivery a no-op.
 */
import type { CaptureEvent } from '../shared/capture-event.js';
import { truncateText } from '../shared/capture-event.js';
import type { DataPaths } from '../shared/paths.js';
import { writeSpool } from '../shared/spool.js';
import type { HookLog } from './debug-log.js';
import { errorText } from './debug-log.js';
import { liteRequest } from './http-lite.js';
import type { WorkerLink } from './link.js';

export type DeliveryOutcome = 'acknowledged' | 'spooled' | 'lost';

export interface DeliverOptions {
  paths: DataPaths;
  link: WorkerLink;
  log: HookLog;
  /** Per request; a capture hook must return in tens of milliseconds. */
  timeoutMs: number;
}

/** Free text kept per field after the worker refused a batch as too large (413). */
export const SHRUNK_FIELD_CHARS = 8 * 1024;

function shrinkValue(v: unknown, depth = 0): unknown {
  if (typeof v === 'string') return truncateText(v, SHRUNK_FIELD_CHARS);
  if (!v || typeof v !== 'object') return v;
  if (depth > 32) return '[nested too deep]';
  if (Array.isArray(v)) {
    const items = v.slice(0, 200).map((x) => shrinkValue(x, depth + 1));
    return v.length > 200 ? [...items, `…[${v.length - 200} more items truncated by claude-mem]`] : items;
  }
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k] = shrinkValue(x, depth + 1);
  return out;
}

/** The same events with every long string cut and marked: kept rather than dropped. */
export function shrinkEvents(events: readonly CaptureEvent[]): CaptureEvent[] {
  return events.map((e) => shrinkValue(e) as CaptureEvent);
}

const isRefused = (err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH' || code === 'EADDRNOTAVAIL';
};

export async function deliver(events: CaptureEvent[], opts: DeliverOptions): Promise<DeliveryOutcome> {
  const { paths, link, log } = opts;
  let batch = events;
  const endpoint = link.endpoint();
  let workerDown = !endpoint;
  for (let attempt = 0; endpoint && attempt < 2; attempt++) {
    try {
      const res = await liteRequest({
        port: endpoint.port, token: endpoint.token, method: 'POST', path: '/api/events', body: { events: batch }, timeoutMs: opts.timeoutMs,
      });
      if (res.status >= 200 && res.status < 300) {
        const rejected = (res.body as { rejected?: { index: number; code: string; reason: string }[] } | undefined)?.rejected;
        for (const r of Array.isArray(rejected) ? rejected : []) log.problem(`worker rejected ${batch[r.index]?.kind ?? 'event'}: ${r.code} ${r.reason}`);
        return 'acknowledged';
      }
      if (res.status === 413 && attempt === 0) {
        log.problem(`worker refused ${batch.length} event(s) as too large; retrying truncated`);
        batch = shrinkEvents(batch);
        continue;
      }
      log.detail(`worker answered ${res.status}; spooling`);
    } catch (err) {
      log.detail(`worker unreachable (${errorText(err)}); spooling`);
      if (isRefused(err)) {
        link.markDown();
        workerDown = true;
      }
    }
    break;
  }
  let outcome: DeliveryOutcome = 'spooled';
  try {
    writeSpool(paths.spool, batch);
  } catch (err) {
    outcome = 'lost';
    log.problem(`LOST ${batch.length} event(s) (${batch.map((e) => e.kind).join(',')}): cannot spool: ${errorText(err)}`);
  }
  // Only a worker that is not running needs starting; a slow one drains the spool itself.
  if (workerDown) await link.start(0);
  return outcome;
}
