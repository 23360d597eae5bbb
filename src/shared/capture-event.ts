/**
 * The one event shape every capture path produces (hooks, transcript watcher, native plugins).
 * Kept free of dependencies: the hook bundle imports it (its type comes from capture-event-schema.ts).
 */
import { isAbsolute } from 'node:path';
import type { CaptureKind } from './capture-event-schema.js';

// The shape itself is one zod definition (capture-event-schema.ts); its types are re-exported here
// as types only, so the hook bundle never loads zod.
export type { CaptureEvent, CaptureKind, CaptureSource, FileEdit } from './capture-event-schema.js';

export const CAPTURE_KINDS: readonly CaptureKind[] = [
  'session_start', 'prompt', 'tool_use', 'tool_result', 'file_edit',
  'assistant_message', 'observation', 'compact', 'turn_end', 'session_end',
];

export const SESSION_ID_RE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Upper bound for any single free-text field before truncation (characters). */
export const MAX_FIELD_CHARS = 64 * 1024;
export const TRUNCATION_MARKER = '…[truncated by claude-mem]';

export function isValidSessionId(id: unknown): id is string {
  return typeof id === 'string' && SESSION_ID_RE.test(id);
}

export function isValidCwd(cwd: unknown): cwd is string {
  return typeof cwd === 'string' && cwd.length > 0 && cwd.length < 4096 && isAbsolute(cwd) && !cwd.includes('\0');
}

/** Truncates a string over `max` characters, keeping the head and a visible marker. */
export function truncateText(text: string, max = MAX_FIELD_CHARS): string {
  if (text.length <= max) return text;
  return text.slice(0, Math.max(0, max - TRUNCATION_MARKER.length)) + TRUNCATION_MARKER;
}
