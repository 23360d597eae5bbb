/**
 * What the plugin remembers about OpenCode's sessions between callbacks: the directory (from the
 * session info, else the plugin's own), the parent of a subagent session (the `task` tool creates
 * a child session with `parentID`), whether its start was recorded, and the last assistant text
 * (stored with the end of the turn, like a Stop hook). Bounded: old sessions are forgotten.
 */
import type { EventBase } from '../shared/events.js';
import { ref } from './map.js';

interface SessionState {
  id: string;
  cwd: string;
  parentId?: string;
  /** session_start sent (or being sent) for it. */
  started: boolean;
  lastText?: string;
}

const MAX_SESSIONS = 500;

export class Sessions {
  private readonly byId = new Map<string, SessionState>();

  constructor(private readonly defaultCwd: string) {}

  /** The session, created on first sight. */
  get(id: string): SessionState {
    let s = this.byId.get(id);
    if (!s) {
      s = { id, cwd: this.defaultCwd, started: false };
      this.byId.set(id, s);
      if (this.byId.size > MAX_SESSIONS) this.byId.delete(this.byId.keys().next().value as string);
    }
    return s;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** Takes the directory and parent from OpenCode's session info (`session.created` / `session.updated`). */
  learn(id: string, info: { directory?: unknown; parentID?: unknown } | undefined): SessionState {
    const s = this.get(id);
    if (typeof info?.directory === 'string' && info.directory.startsWith('/')) s.cwd = info.directory;
    if (typeof info?.parentID === 'string' && info.parentID) s.parentId = info.parentID;
    return s;
  }

  forget(id: string): void {
    this.byId.delete(id);
  }

  /** The event base for a session id, or undefined for an id OpenCode should never send. */
  base(id: unknown): EventBase | undefined {
    if (typeof id !== 'string') return undefined;
    const probe = ref(id, this.defaultCwd);
    if (!probe) return undefined;
    const s = this.get(id);
    return ref(id, s.cwd, s.parentId);
  }
}
