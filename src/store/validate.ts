/** What the store requires of a captured event before it stores it. */
import { CAPTURE_KINDS, isValidCwd, isValidSessionId, SESSION_ID_RE } from '../shared/capture-event.js';
import { isHostId } from '../shared/hosts.js';
import { isoTime } from './rows.js';
import type { IngestRejection } from './types.js';

const MAX_ID_CHARS = 256;

type Rejection = Omit<IngestRejection, 'index'>;

/**
 * Checks the shape the store relies on. Returns the event's time in stored form, or a rejection
 * whose reason names the offending field.
 */
export function validateEvent(raw: unknown): { at: string } | Rejection {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { code: 'invalid_event', reason: 'event is not an object' };
  const e = raw as Record<string, unknown>;
  if (!isValidSessionId(e.sessionId)) return { code: 'invalid_session_id', reason: 'sessionId must match ^[A-Za-z0-9._:-]{1,128}$' };
  if (!isValidCwd(e.cwd)) return { code: 'invalid_cwd', reason: 'cwd must be an absolute path' };
  if (typeof e.host !== 'string' || !isHostId(e.host)) return { code: 'invalid_host', reason: `unknown host ${JSON.stringify(e.host)}` };
  if (typeof e.kind !== 'string' || !(CAPTURE_KINDS as readonly string[]).includes(e.kind)) {
    return { code: 'invalid_kind', reason: `unknown kind ${JSON.stringify(e.kind)}` };
  }
  // Optional ids may come as null from JSON: that is the same as absent.
  if (e.parentSessionId != null && !isValidSessionId(e.parentSessionId)) {
    return { code: 'invalid_session_id', reason: 'parentSessionId must match ^[A-Za-z0-9._:-]{1,128}$' };
  }
  const at = typeof e.at === 'string' ? isoTime(e.at) : null;
  if (at === null) return { code: 'invalid_event', reason: 'at must be an ISO time' };
  for (const f of ['promptId', 'toolUseId'] as const) {
    const v = e[f];
    if (v != null && (typeof v !== 'string' || !v || v.length > MAX_ID_CHARS)) {
      return { code: 'invalid_event', reason: `${f} must be a non-empty string of at most ${MAX_ID_CHARS} characters` };
    }
  }
  if (e.agentId != null && (typeof e.agentId !== 'string' || !SESSION_ID_RE.test(e.agentId))) {
    return { code: 'invalid_event', reason: 'agentId must match ^[A-Za-z0-9._:-]{1,128}$' };
  }
  if (e.kind === 'prompt' && e.privateTurn !== true && typeof e.prompt !== 'string') {
    return { code: 'invalid_event', reason: 'a prompt event needs prompt text' };
  }
  return { at };
}
