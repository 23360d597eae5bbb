/**
 * Capture for a long-lived plugin: privacy first (nothing private is sent or spooled), then the
 * hook's own delivery (acknowledged by the worker, or fsynced to the spool), one batch at a time
 * so the worker sees events in the order the host emitted them.
 *
 * A plugin dies with its host, so batches still in flight when the process exits are written to
 * the spool synchronously from the `exit` handler (a batch the worker already took is then stored
 * once more as a duplicate, which its idempotency key turns into a no-op).
 */
import type { HookLog } from '../../hook/debug-log.js';
import { errorText } from '../../hook/debug-log.js';
import { deliver, type DeliveryOutcome } from '../../hook/deliver.js';
import type { WorkerLink } from '../../hook/link.js';
import type { CaptureEvent } from '../../shared/capture-event.js';
import type { DataPaths } from '../../shared/paths.js';
import { sanitizeEvent } from '../../shared/privacy.js';
import { recordLoss } from '../../shared/losses.js';
import { writeSpool } from '../../shared/spool.js';

/** Per request to the worker while capturing: a local worker answers in milliseconds. */
const CAPTURE_REQUEST_MS = 1_000;

interface Capturer {
  /** Queues events (undefined/null entries are skipped); resolves once they are delivered, spooled or dropped. Never rejects. */
  capture(events: ReadonlyArray<CaptureEvent | undefined | null>): Promise<void>;
  /** Waits for queued deliveries, at most `timeoutMs`. */
  flush(timeoutMs: number): Promise<void>;
  /** Batches not yet acknowledged or spooled. */
  pending(): number;
  /** Writes every pending batch to the spool now (synchronous; the `exit` handler calls it). */
  spoolPending(): void;
}

const live = new Set<Capturer>();
let exitHooked = false;

/** One `exit` listener for every capturer of the process (a host may load the plugin per project). */
function hookExit(c: Capturer): void {
  live.add(c);
  if (exitHooked) return;
  exitHooked = true;
  process.once('exit', () => {
    for (const x of live) x.spoolPending();
  });
}

export function createCapturer(paths: DataPaths, link: WorkerLink, log: HookLog): Capturer {
  const inFlight = new Set<CaptureEvent[]>();
  let chain: Promise<void> = Promise.resolve();

  const send = async (batch: CaptureEvent[]) => {
    let outcome: DeliveryOutcome | 'failed' = 'failed';
    try {
      if (!inFlight.has(batch)) return; // spooled at exit meanwhile
      outcome = await deliver(batch, { paths, link, log, timeoutMs: CAPTURE_REQUEST_MS });
      log.detail(`${batch.map((e) => e.kind).join(',')}: ${outcome}`);
    } catch (err) {
      log.problem(`capture failed: ${errorText(err)}`);
    } finally {
      inFlight.delete(batch);
    }
  };

  const capturer: Capturer = {
    capture(events) {
      const batch: CaptureEvent[] = [];
      for (const e of events) {
        if (!e) continue;
        try {
          const clean = sanitizeEvent(e);
          if (clean) batch.push(clean);
        } catch (err) {
          log.problem(`privacy filter failed on ${e.kind}; event dropped: ${errorText(err)}`);
        }
      }
      if (!batch.length) return chain;
      inFlight.add(batch);
      chain = chain.then(() => send(batch));
      return chain;
    },
    async flush(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([chain, new Promise<void>((r) => (timer = setTimeout(r, Math.max(0, timeoutMs))))]);
      clearTimeout(timer);
    },
    pending: () => inFlight.size,
    spoolPending() {
      for (const batch of [...inFlight]) {
        inFlight.delete(batch);
        try {
          writeSpool(paths.spool, batch);
        } catch (err) {
          const counted = recordLoss(paths.root, batch.length, err);
          log.problem(`LOST ${batch.length} event(s) at exit: cannot spool: ${errorText(err)}${counted ? '' : '; the loss record could not be written either'}`);
        }
      }
    },
  };
  hookExit(capturer);
  return capturer;
}
