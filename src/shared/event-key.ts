/** Idempotency keys: the worker's and the transcript engine's; the hook bundle does not need them. */
import * as crypto from 'node:crypto';
import type { CaptureEvent } from './capture-event.js';

/** Stable JSON (sorted keys) so equal content always hashes equally. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).filter((k) => obj[k] !== undefined).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableStringify(obj[k])}`).join(',')}}`;
}

// One-shot hashing (Node 20.12 and later) costs half as much as building a Hash object.
const sha256Hex: (text: string) => string = typeof crypto.hash === 'function'
  ? (text) => crypto.hash('sha256', text, 'hex')
  : (text) => crypto.createHash('sha256').update(text).digest('hex');

function sha(text: string): string {
  return sha256Hex(text).slice(0, 32);
}

/**
 * The idempotency key of an event. Native ids win:
 * - prompt with promptId: host|session|prompt|<promptId>  (same id = a retry = one row)
 * - tool_use / tool_result with toolUseId: host|session|<kind>|<toolUseId>
 * - otherwise a hash of the normalized content, kind and capture time. `at` is set once when the
 *   event is captured and kept through spool and retries, so a redelivery is one row while the
 *   same text typed twice (two captures, two times) stays two rows.
 */
export function eventKey(e: CaptureEvent): string {
  if ((e.kind === 'tool_use' || e.kind === 'tool_result') && e.toolUseId) return toolEventKey(e, e.kind);
  const base = `${e.host}|${e.sessionId}|${e.kind}`;
  if (e.kind === 'prompt' && e.promptId) return `${base}|p:${e.promptId}`;
  const { host: _h, source: _s, probe: _p, ...content } = e;
  return `${base}|h:${sha(stableStringify(content))}`;
}

/** The key of one half of a tool call with a native id: `kind` names the half (the event's own, or its sibling). */
export function toolEventKey(e: Pick<CaptureEvent, 'host' | 'sessionId' | 'toolUseId'>, kind: 'tool_use' | 'tool_result'): string {
  return `${e.host}|${e.sessionId}|${kind}|t:${e.toolUseId}`;
}
