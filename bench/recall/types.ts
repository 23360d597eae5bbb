/**
 * The shapes every dataset of the recall benchmark is turned into: projects with sessions of
 * turns of steps (what a coding agent did), questions labelled with the sessions that answer them,
 * and "what was I doing here last time?" probes. The project's own generated histories, the
 * captured host fixtures, LongMemEval-S and LoCoMo all become a Corpus.
 */

/** One thing that happened inside a turn, in order. */
export type Step =
  | { kind: 'say'; text: string }
  | { kind: 'bash'; command: string; output: string; exitCode: number }
  | { kind: 'read'; path: string; content: string }
  | { kind: 'edit'; path: string; oldText: string; newText: string }
  | { kind: 'write'; path: string; content: string }
  | { kind: 'grep'; pattern: string; output: string };

export interface Turn {
  prompt: string;
  steps: Step[];
  /** The turn's last assistant message (what Claude Code's Stop hook carries). */
  final: string;
}

export interface Session {
  /** The host's session id (unique across the corpus). */
  id: string;
  /** Key of Corpus.projects. */
  project: string;
  /** ISO time of the session start; steps follow a few seconds to minutes apart. */
  start: string;
  turns: Turn[];
  /** Short strings from this session's request or outcome; see probes. */
  keyFacts: string[];
  /** Free label for reports (episode id, noise template name). */
  label: string;
}

export interface Question {
  id: string;
  /** The question as a developer asks it later. */
  asked: string;
  /** The same need as a few distinctive words. */
  keywords: string;
  /** literal: shares its distinctive words with the answer; paraphrased: shares few. */
  style: 'literal' | 'paraphrased';
  /** Sessions that answer it (any one in the top k is a hit). */
  answers: string[];
  /** Turn index (0-based) of the first answer session, where one turn holds the answer. */
  turn?: number;
  /** The project a caller asks from; undefined for a question across all projects. */
  project?: string;
}

/** A session start whose context should let the developer pick up the previous session. */
export interface Probe {
  /** The session whose SessionStart context is judged. */
  session: string;
  /** The session it should recall (the project's latest one before it). */
  previous: string;
  /** Every one must appear in the context text (case and whitespace folded). */
  keyFacts: string[];
}

export interface Project {
  /** Directory name under ~/projects in the scratch HOME. */
  dir: string;
  /** git remote written into .git/config (the product derives the project identity from it). */
  remote?: string;
  kind: string;
}

/** Hook payloads captured from a real host, replayed as they are (paths remapped). */
export interface FixtureReplay {
  host: string;
  /** `claude-mem hook <hostArg> <event>`. */
  hostArg: string;
  project: string;
  sessionId: string;
  calls: { event: string; payload: string; env: Record<string, string> }[];
  /** Files the host wrote (transcripts), relative to HOME, written before the replay. */
  files: { path: string; content: string }[];
  /** Text of the session for the raw-text baseline. */
  text: string;
}

export interface Corpus {
  name: string;
  projects: Record<string, Project>;
  sessions: Session[];
  fixtures: FixtureReplay[];
  questions: Question[];
  probes: Probe[];
}
