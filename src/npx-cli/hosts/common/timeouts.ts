/**
 * Hook timeouts. A capture hook answers in tens of milliseconds; its cap only bounds a wedged
 * process. A context hook waits at most the context budget (1.5 s by default) and its own
 * watchdog exits about 3 s after start, so 5 s leaves room for a cold node start.
 */
export const CAPTURE_TIMEOUT_S = 10;
const CONTEXT_TIMEOUT_S = 5;

/** Codex clamps SessionEnd (and Interrupt) hooks to 3 s and reports a larger value as an error item. */
export const CODEX_SESSION_END_TIMEOUT_S = 3;

/** Seconds for `event`: the context timeout when the host waits on it for context. */
export function timeoutSeconds(event: string, contextEvents: readonly string[]): number {
  return contextEvents.includes(event) ? CONTEXT_TIMEOUT_S : CAPTURE_TIMEOUT_S;
}
