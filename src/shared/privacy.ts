/**
 * Privacy before storage (docs/capture.md, Privacy): `<private>` spans are removed and secret-shaped
 * strings redacted before an event is stored, spooled or sent anywhere. Imported by the hook
 * bundle: no dependencies, linear time.
 */
import { MAX_FIELD_CHARS, truncateText, type CaptureEvent, type FileEdit } from './capture-event.js';
import { isSecretName, redactSecrets, REDACTED } from './redact.js';

export { isSecretName, redactSecrets, REDACTED } from './redact.js';

interface StripResult {
  text: string;
  /** An opening `<private>` tag was found. */
  hadPrivate: boolean;
  /** Nothing but whitespace is left once the private spans are gone. */
  fullyPrivate: boolean;
}

// `<private>`, `</private>`, `<PRIVATE reason="x">`, `<private/>`. Attributes are bounded so a
// stray `<private` with no `>` costs at most 200 characters of scanning.
const TAG_RE = /<(\/?)private(?=[\s/>])[^<>]{0,200}>/gi;

/**
 * Removes `<private>…</private>` spans. Tags are case-insensitive and nest; a stray closing tag
 * is dropped; an unclosed `<private>` hides everything after it (failing closed).
 */
export function stripPrivate(text: string): StripResult {
  if (typeof text !== 'string' || text.indexOf('<') === -1) return { text, hadPrivate: false, fullyPrivate: false };
  let out = '';
  let last = 0; // start of the visible text not yet copied
  let depth = 0;
  let had = false;
  let sawTag = false;
  TAG_RE.lastIndex = 0;
  for (let m = TAG_RE.exec(text); m; m = TAG_RE.exec(text)) {
    sawTag = true;
    const end = m.index + m[0].length;
    const closing = m[1] === '/';
    const selfClosing = !closing && m[0].endsWith('/>');
    if (closing && depth > 0) {
      depth--;
      if (depth === 0) last = end;
    } else if (depth === 0) {
      out += text.slice(last, m.index); // a stray close or `<private/>`: drop the tag alone
      last = end;
      if (!closing && !selfClosing) {
        depth = 1;
        had = true;
      }
    } else if (!closing && !selfClosing) {
      depth++;
    }
  }
  if (!sawTag) return { text, hadPrivate: false, fullyPrivate: false };
  if (depth === 0) out += text.slice(last);
  if (had) out = out.trim();
  return { text: out, hadPrivate: had, fullyPrivate: had && out.length === 0 };
}

/** Counts what sanitizing found, so sanitizeEvent can tell "entirely private" from "had a private part". */
interface Tally {
  privateParts: number;
  keptText: number; // non-empty strings left after stripping
}

const MAX_DEPTH = 16;
// Under a secret-named key only these survive: empty, already redacted, `$VAR` / `{{ var }}` references.
const KEEP_UNDER_SECRET_KEY = /^(?:$|\[REDACTED|\$\{?[A-Za-z_]|\{\{)/;
const MAX_ITEMS = 2000;
// Work on at most twice the stored size: bounds the cost of a huge payload while leaving room
// for redaction to shorten the text before the final cut.
const PRE_CUT = MAX_FIELD_CHARS * 2;

function sanitizeString(s: string, tally: Tally, max: number): string {
  const src = s.length > PRE_CUT ? s.slice(0, PRE_CUT) : s;
  const stripped = stripPrivate(src);
  if (stripped.hadPrivate) tally.privateParts++;
  if (stripped.text.trim() !== '') tally.keptText++;
  return truncateText(redactSecrets(stripped.text), max);
}

function walk(v: unknown, depth: number, tally: Tally, max: number): unknown {
  if (typeof v === 'string') return sanitizeString(v, tally, max);
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'bigint') return v.toString();
    return typeof v === 'function' || typeof v === 'symbol' ? undefined : v;
  }
  if (depth >= MAX_DEPTH) {
    // Too deep to walk: keep it as sanitized text rather than losing it.
    let json: string;
    try {
      json = JSON.stringify(v) ?? '';
    } catch {
      json = '[unserializable]';
    }
    return sanitizeString(json, tally, max);
  }
  if (Array.isArray(v)) {
    const out = v.slice(0, MAX_ITEMS).map((x) => walk(x, depth + 1, tally, max));
    if (v.length > MAX_ITEMS) out.push(`…[${v.length - MAX_ITEMS} more items truncated by claude-mem]`);
    return out;
  }
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    if (++n > MAX_ITEMS) break;
    if (typeof val === 'string' && isSecretName(k)) {
      // A secret-named key: its value goes wholesale, whatever it looks like.
      out[k] = KEEP_UNDER_SECRET_KEY.test(val.trim()) ? val : REDACTED;
      if (val.trim()) tally.keptText++;
      continue;
    }
    out[k] = walk(val, depth + 1, tally, max);
  }
  return out;
}

/**
 * Strips private spans and redacts secrets in every string of a value (objects and arrays deep,
 * bounded depth and width); values under secret-named keys are redacted wholesale. Strings are
 * truncated to MAX_FIELD_CHARS with the visible marker.
 */
export function sanitizeValue(v: unknown): unknown {
  return walk(v, 0, { privateParts: 0, keptText: 0 }, MAX_FIELD_CHARS);
}

/**
 * Applies privacy to every free-text field of an event (prompt, message, title, reason, tool
 * input and response, edits). Paths, ids and names are left as they are.
 *
 * Returns:
 * - a prompt that was entirely private: the event without `prompt`, with `privateTurn: true`
 *   (the store drops that turn's tool events);
 * - null when nothing may be stored: an assistant message, a ready-made observation, a tool call
 *   or a file edit whose text was all inside `<private>` (storing the empty shell would only say
 *   "something private happened here");
 * - otherwise a copy with private parts removed, secrets redacted and oversize strings truncated.
 * Structural events (session start/end, compact) are never dropped.
 */
export function sanitizeEvent(e: CaptureEvent): CaptureEvent | null {
  const tally: Tally = { privateParts: 0, keptText: 0 };
  const out: CaptureEvent = { ...e };
  const str = (s: string | undefined): string | undefined =>
    typeof s === 'string' ? sanitizeString(s, tally, MAX_FIELD_CHARS) : s;

  if (e.kind === 'prompt' && typeof e.prompt === 'string') {
    const stripped = stripPrivate(e.prompt.length > PRE_CUT ? e.prompt.slice(0, PRE_CUT) : e.prompt);
    if (stripped.fullyPrivate) {
      delete out.prompt;
      out.privateTurn = true;
    } else {
      out.prompt = truncateText(redactSecrets(stripped.text));
    }
  } else if (e.prompt !== undefined) {
    out.prompt = str(e.prompt);
  }
  if (e.message !== undefined) out.message = str(e.message);
  if (e.title !== undefined) out.title = str(e.title);
  if (e.reason !== undefined) out.reason = str(e.reason);
  if (e.toolInput !== undefined) out.toolInput = walk(e.toolInput, 0, tally, MAX_FIELD_CHARS);
  if (e.toolResponse !== undefined) out.toolResponse = walk(e.toolResponse, 0, tally, MAX_FIELD_CHARS);
  if (Array.isArray(e.edits)) {
    out.edits = e.edits.slice(0, MAX_ITEMS).map((ed): FileEdit => {
      const r: FileEdit = {};
      if (typeof ed?.oldText === 'string') r.oldText = str(ed.oldText);
      if (typeof ed?.newText === 'string') r.newText = str(ed.newText);
      return r;
    });
  }

  const droppable = ['assistant_message', 'observation', 'tool_use', 'tool_result', 'file_edit'].includes(e.kind);
  if (droppable && tally.privateParts > 0 && tally.keptText === 0) return null;
  return out;
}
