/**
 * Turns stdin text into the payload object adapters read. Bad input is not an error here:
 * it yields `undefined` and the adapter decides (usually nothing to store).
 */
import { TRUNCATION_MARKER } from '../shared/capture-event.js';

export function parsePayload(text: string, truncated: boolean, tail?: string): Record<string, unknown> | undefined {
  const t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (!t.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(t);
  } catch {
    // Input cut at the size cap still holds a useful event: keep what arrived, marked.
    value = truncated ? repairTruncatedJson(t) : undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const obj = value as Record<string, unknown>;
  if (truncated && tail) recoverTailIds(obj, tail);
  return obj;
}

// Short string fields hosts put after a huge tool output (Claude Code: tool_use_id, duration_ms last).
const TAIL_ID_RE = /"([A-Za-z_]{2,40})"\s*:\s*"([A-Za-z0-9._:@\/ -]{1,256})"/g;
const TAIL_KEYS = /(?:_id|Id)$|^(?:hook_event_name|hookEventName|tool_name|toolName|cwd)$/;

/**
 * Ids that were cut away with the middle of an oversized payload, read back from its tail.
 * Only keys missing at the top level and named like ids are filled in; the last occurrence wins,
 * being the nearest to the end of the top-level object.
 */
export function recoverTailIds(obj: Record<string, unknown>, tail: string): void {
  const had = new Set(Object.keys(obj));
  for (const m of tail.matchAll(TAIL_ID_RE)) {
    const [, key, value] = m;
    if (TAIL_KEYS.test(key) && !had.has(key)) obj[key] = value;
  }
}

const closers = (stack: string[]): string => stack.slice().reverse().join('');

/**
 * Closes a JSON document cut short: an open string value is ended with the truncation marker;
 * otherwise the text falls back to the last point where a value was complete. Returns undefined
 * when nothing usable is left.
 */
export function repairTruncatedJson(text: string): unknown {
  const stack: string[] = [];
  let inStr = false;
  let esc = false;
  let uLeft = 0;
  let strIsKey = false;
  let expectKey = false;
  let safePos = -1;
  let safeClose = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inStr) {
      if (uLeft > 0) uLeft--;
      else if (esc) {
        esc = false;
        if (c === 'u') uLeft = 4;
      } else if (c === '\\') esc = true;
      else if (c === '"') {
        inStr = false;
        if (!strIsKey) {
          safePos = i + 1;
          safeClose = closers(stack);
        }
      }
      continue;
    }
    switch (c) {
      case '"':
        inStr = true;
        strIsKey = expectKey && stack[stack.length - 1] === '}';
        break;
      case '{':
      case '[':
        stack.push(c === '{' ? '}' : ']');
        expectKey = c === '{';
        safePos = i + 1;
        safeClose = closers(stack);
        break;
      case '}':
      case ']':
        stack.pop();
        expectKey = false;
        safePos = i + 1;
        safeClose = closers(stack);
        break;
      case ':':
        expectKey = false;
        break;
      case ',':
        // Everything before a comma is a complete value.
        safePos = i;
        safeClose = closers(stack);
        expectKey = stack[stack.length - 1] === '}';
        break;
    }
  }
  if (inStr && !strIsKey) {
    let end = text.length;
    if (esc) end -= 1;
    else if (uLeft > 0) end -= 6 - uLeft;
    const candidate = `${text.slice(0, end)}${TRUNCATION_MARKER}"${closers(stack)}`;
    try {
      return JSON.parse(candidate);
    } catch {
      // Fall back to the last complete value.
    }
  }
  if (safePos < 0) return undefined;
  try {
    return JSON.parse(text.slice(0, safePos) + safeClose);
  } catch {
    return undefined;
  }
}
