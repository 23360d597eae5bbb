/** Contract between the store and the deterministic observer (the observer owns these types; the store imports them). */
export type ObservationType =
  | 'command' // shell commands
  | 'read'
  | 'edit' // edits, writes, patches
  | 'search' // grep/glob/code search
  | 'web' // web fetch / web search
  | 'mcp' // MCP tool calls
  | 'agent' // subagent/task spawn
  | 'tool' // generic fallback
  | 'memory' // saved explicitly (mem_save)
  | 'note'; // ready-made observation from a transcript / plugin

/** What the observer derives from one event; the store adds ids, session, project and time. */
export interface ObservationDraft {
  type: ObservationType;
  title: string;
  subtitle: string | null;
  narrative: string;
  facts: string[];
  filesRead: string[];
  filesModified: string[];
  concepts: string[];
  toolName: string | null;
  toolUseId: string | null;
}

/** What a session looked like, for the deterministic summary at session end. */
export interface SessionDigest {
  host: string;
  project: string;
  prompts: string[]; // in order
  observations: ObservationDraft[]; // in order
  /** The session's assistant messages, in order (bounded). */
  assistantMessages?: string[];
  lastAssistantMessage?: string;
  endReason?: string;
}

export interface SummaryDraft {
  request: string;
  filesRead: string[];
  filesModified: string[];
  commands: string[];
  outcome: string;
  text: string;
}
