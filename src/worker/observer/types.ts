/** Contract between the store and the deterministic observer. */
import type { Observation, ObservationType } from '../store/types.js';

/** What the observer derives from one event; the store adds ids, session, project and time. */
export type ObservationDraft = Pick<
  Observation,
  'type' | 'title' | 'subtitle' | 'narrative' | 'facts' | 'filesRead' | 'filesModified' | 'concepts' | 'toolName' | 'toolUseId'
>;

export type { ObservationType };

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
