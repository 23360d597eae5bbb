/** Small helpers shared by the hook adapters: reading untrusted payloads, bounding sizes. */
import { MAX_FIELD_CHARS, truncateText, type CaptureEvent, type FileEdit } from '../../shared/capture-event.js';
import { normalizeToolName } from '../../shared/tool-names.js';

export { rec, str, type Payload } from '../../shared/values.js';
import { rec, str, type Payload } from '../../shared/values.js';

/** What a handler returns: the event minus the fields every event of an invocation shares. */
export type Draft = Omit<Partial<CaptureEvent>, 'host' | 'source' | 'sessionId' | 'cwd' | 'at'> &
  Pick<CaptureEvent, 'kind'>;

/** The first key of `p` holding a non-empty string. */
export function pickStr(p: Payload, ...keys: string[]): string | undefined {
  for (const k of keys) {
    const s = str(p[k]);
    if (s !== undefined) return s;
  }
  return undefined;
}

/** The first key of `p` holding anything but undefined/null. */
export function pick(p: Payload, ...keys: string[]): unknown {
  for (const k of keys) if (p[k] !== undefined && p[k] !== null) return p[k];
  return undefined;
}

/** `PostToolUse`, `postToolUse` and `post_tool_use` are one event. */
export function canonicalEvent(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** Some hosts send structured arguments as a JSON string (Cursor MCP, sometimes Copilot). */
export function parseMaybeJson(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return v;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return v;
  }
}

const MAX_DEPTH = 24;

function clipDeep(v: unknown, depth: number): unknown {
  if (typeof v === 'string') return truncateText(v);
  if (v === null || typeof v !== 'object') return v;
  if (depth >= MAX_DEPTH) return truncateText(JSON.stringify(v) ?? '');
  if (Array.isArray(v)) return v.map((x) => clipDeep(x, depth + 1));
  const out: Payload = {};
  for (const [k, x] of Object.entries(v as Payload)) out[k] = clipDeep(x, depth + 1);
  return out;
}

/** A structure may hold several long strings, but not without bound. */
const MAX_STRUCTURE_CHARS = 4 * MAX_FIELD_CHARS;

/**
 * Bounds a free-form field: long strings keep their head plus the truncation marker; a structure
 * still too large once its strings are cut becomes its truncated JSON text (marked, not dropped).
 */
export function clip(v: unknown): unknown {
  if (v === undefined) return undefined;
  const c = clipDeep(v, 0);
  if (typeof c !== 'object' || c === null) return c;
  const json = JSON.stringify(c) ?? '';
  return json.length > MAX_STRUCTURE_CHARS ? truncateText(json) : c;
}

/** `[{old_string,new_string}]` (Cursor, Windsurf) → FileEdit[]. */
export function toEdits(v: unknown): FileEdit[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const edits: FileEdit[] = [];
  for (const e of v) {
    const r = rec(e);
    if (!r) continue;
    const oldText = pickStr(r, 'old_string', 'oldString', 'oldText', 'old_text');
    const newText = pickStr(r, 'new_string', 'newString', 'newText', 'new_text');
    if (oldText !== undefined || newText !== undefined) edits.push({ oldText, newText });
  }
  return edits.length ? edits : undefined;
}

/** A finished tool call with its normalized name. */
export function toolDraft(host: string, rawName: string | undefined, fields: Omit<Draft, 'kind'>): Draft | undefined {
  if (!rawName) return undefined;
  return { kind: 'tool_result', toolName: normalizeToolName(host, rawName), rawToolName: rawName, ...fields };
}

/** Zero or one draft; a note says why a call was not captured. */
export function one(d: Draft | undefined, notes: string[], why = 'no tool name in the payload'): Draft[] {
  if (d) return [d];
  notes.push(`${why}; nothing stored`);
  return [];
}

/** A message draft, or nothing when the host sent no text. */
export function messageDraft(message: string | undefined, fields: Omit<Draft, 'kind'> = {}): Draft[] {
  return message ? [{ kind: 'assistant_message', message, ...fields }] : [];
}

/** Claude-style context answer, used by every host of that lineage. */
export function hookSpecificOutput(hookEventName: string, context: string): string {
  return context ? JSON.stringify({ hookSpecificOutput: { hookEventName, additionalContext: context } }) : '';
}
