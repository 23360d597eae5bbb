/** The common part of every CaptureEvent a plugin builds. */
import type { CaptureEvent, CaptureKind } from '../../shared/capture-event.js';
import type { HostId } from '../../shared/hosts.js';

export interface EventBase {
  sessionId: string;
  cwd: string;
  /** Set for a subagent's session: the session that spawned it. */
  parentSessionId?: string;
}

/** `{ host, source: 'plugin', kind, sessionId, cwd, at }` plus the subagent link when there is one. */
export function baseEvent(host: HostId, kind: CaptureKind, s: EventBase, at: string = new Date().toISOString()): CaptureEvent {
  return {
    host, source: 'plugin', kind, sessionId: s.sessionId, cwd: s.cwd, at,
    ...(s.parentSessionId && s.parentSessionId !== s.sessionId && { parentSessionId: s.parentSessionId, isSubagent: true }),
  };
}
