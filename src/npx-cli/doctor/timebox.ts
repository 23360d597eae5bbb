/** Time boxes and memoization: every check has a deadline, and shared facts are computed once. */

class TimedOut extends Error {}

/** Resolves like `p`, or rejects with TimedOut after `ms` (the work itself is not cancelled). */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`${what} timed out after ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

/** Calls `fn` once, on first use; later calls share the result. */
export function once<T>(fn: () => T): () => T {
  let done = false;
  let value: T;
  return () => {
    if (!done) {
      value = fn();
      done = true;
    }
    return value;
  };
}

export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** "3 s", "4 min", "2 h", "5 days": for ages in evidence. */
export function age(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 120) return `${s} s`;
  const m = Math.round(s / 60);
  if (m < 120) return `${m} min`;
  const h = Math.round(m / 60);
  if (h < 48) return `${h} h`;
  return `${Math.round(h / 24)} days`;
}
