/**
 * Delivery: every event is either acknowledged by the worker (a 2xx carrying the worker's proof,
 * sent only after the commit) or in the spool (fsynced) before the hook exits; what neither could
 * keep is counted in the loss record (src/shared/losses.ts). The worker drains the spool;
 * idempotency keys make a double delivery a no-op.
 */
import type { CaptureEvent } from '../shared/capture-event.js';
import { truncateText } from '../shared/capture-event.js';
import type { DataPaths } from '../shared/paths.js';
import { recordLoss } from '../shared/losses.js';
import { writeSpool } from '../shared/spool.js';
import { ROUTES } from '../shared/worker-api.js';
import type { HookLog } from './debug-log.js';
import { errorText } from './debug-log.js';
import { liteRequest } from './http-lite.js';
import type { WorkerLink } from './link.js';

export type DeliveryOutcome = 'acknowledged' | 'spooled' | 'lost';

interface DeliverOptions {
  paths: DataPaths;
  link: WorkerLink;
  log: HookLog;
  /** Per request; a capture hook must return in tens of milliseconds. */
  timeoutMs: number;
}

/** Free text kept per field after the worker refused a batch as too large (413). */
const SHRUNK_FIELD_CHARS = 8 * 1024;

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
function shrinkEvents(events: readonly CaptureEvent[]): CaptureEvent[] {
  return events.map((e) => shrinkValue(e) as CaptureEvent);
}

const isRefused = (err: unknown) => {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EHOSTUNREACH' || code === 'EADDRNOTAVAIL';
};

/** Something answered on the recorded port without the worker's proof: not our worker. */
const isUnproven = (err: unknown) => (err as { code?: unknown }).code === 'unproven_answer';

type Attempt = { acked: true } | { acked: false; workerDown: boolean; batch: CaptureEvent[] };

/** At most two POSTs (the second with long fields cut after a 413); acknowledged only with the worker's proof. */
async function post(events: CaptureEvent[], opts: DeliverOptions): Promise<Attempt> {
  const { link, log } = opts;
  let batch = events;
  const endpoint = link.endpoint();
  if (!endpoint) return { acked: false, workerDown: true, batch };
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const res = await liteRequest({
        port: endpoint.port, auth: endpoint.auth, method: 'POST', path: ROUTES.events, body: { events: batch }, timeoutMs: opts.timeoutMs,
      });
      if (res.status >= 200 && res.status < 300) {
        const rejected = (res.body as { rejected?: { index: number; code: string; reason: string }[] } | undefined)?.rejected;
        for (const r of Array.isArray(rejected) ? rejected : []) log.problem(`worker rejected ${batch[r.index]?.kind ?? 'event'}: ${r.code} ${r.reason}`);
        return { acked: true };
      }
      if (res.status === 413 && attempt === 0) {
        log.problem(`worker refused ${batch.length} event(s) as too large; retrying truncated`);
        batch = shrinkEvents(batch);
        continue;
      }
      const code = (res.body as { error?: { code?: unknown } } | undefined)?.error?.code;
      log.detail(`worker answered ${res.status}${typeof code === 'string' ? ` (${code})` : ''}; spooling`);
      // Refusing our signature: a worker of an older claude-mem or of another token. A start replaces it.
      if (res.status === 401 && !res.verified) return { acked: false, workerDown: true, batch };
    } catch (err) {
      if (isUnproven(err)) {
        // Nothing was sent that a stranger could use (the request is signed); the events stay ours.
        log.problem(`${errorText(err)}; spooling`);
        link.markDown();
        return { acked: false, workerDown: true, batch };
      }
      log.detail(`worker unreachable (${errorText(err)}); spooling`);
      if (isRefused(err)) {
        link.markDown();
        return { acked: false, workerDown: true, batch };
      }
    }
    break;
  }
  return { acked: false, workerDown: false, batch };
}

export async function deliver(events: CaptureEvent[], opts: DeliverOptions): Promise<DeliveryOutcome> {
  const { paths, link, log } = opts;
  const sent = await post(events, opts);
  if (sent.acked) return 'acknowledged';
  let outcome: DeliveryOutcome = 'spooled';
  try {
    writeSpool(paths.spool, sent.batch);
  } catch (err) {
    outcome = 'lost';
    const counted = recordLoss(paths.root, sent.batch.length, err);
    log.problem(`LOST ${sent.batch.length} event(s) (${sent.batch.map((e) => e.kind).join(',')}): cannot spool: ${errorText(err)}${counted ? '' : '; the loss record could not be written either'}`);
  }
  // Only a worker that is not running needs starting; a slow one drains the spool itself.
  if (sent.workerDown) await link.start(0);
  return outcome;
}
