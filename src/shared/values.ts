/** Reading untrusted JSON values: hook payloads, transcript lines, plugin events. */

export type Payload = Record<string, unknown>;

/** A plain object, or undefined. */
export function rec(v: unknown): Payload | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Payload) : undefined;
}

/** A non-empty string, or undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}
