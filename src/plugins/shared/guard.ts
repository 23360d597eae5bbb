/**
 * A plugin runs inside someone else's agent: a handler of ours must never throw into the host,
 * and never keep it waiting longer than its budget. `guard` wraps a handler so that it does both.
 */
import type { HookLog } from '../../hook/debug-log.js';
import { errorText } from '../../hook/debug-log.js';

/** Runs `fn`; on an exception or past `timeoutMs`, logs and resolves to `fallback` (the work may finish later). */
export async function withinBudget<T>(log: HookLog, label: string, timeoutMs: number, fallback: T, fn: () => Promise<T> | T): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const work = Promise.resolve().then(fn);
    work.catch((err) => log.problem(`${label}: ${errorText(err)}`));
    const late = new Promise<T>((r) => {
      timer = setTimeout(() => {
        log.detail(`${label}: over its ${timeoutMs} ms budget; the host goes on without it`);
        r(fallback);
      }, timeoutMs);
    });
    return await Promise.race([work.catch(() => fallback), late]);
  } catch (err) {
    log.problem(`${label}: ${errorText(err)}`);
    return fallback;
  } finally {
    clearTimeout(timer);
  }
}

/** `withinBudget` as a wrapper for handlers whose result the host ignores. */
export function guard<A extends unknown[]>(log: HookLog, label: string, timeoutMs: number, fn: (...args: A) => Promise<void> | void): (...args: A) => Promise<void> {
  return (...args: A) => withinBudget(log, label, timeoutMs, undefined, () => fn(...args));
}
