/**
 * The small language the project histories are written in: an episode is a session that answers
 * questions (its turns of steps, the key facts of its request and outcome, the questions a
 * developer asks about it later); noise templates write the ordinary sessions around them.
 */
import type { Rng } from '../rng.js';
import type { Step, Turn } from '../types.js';

export const say = (text: string): Step => ({ kind: 'say', text });
export const sh = (command: string, output: string, exitCode = 0): Step => ({ kind: 'bash', command, output, exitCode });
export const rd = (path: string, content: string): Step => ({ kind: 'read', path, content });
export const ed = (path: string, oldText: string, newText: string): Step => ({ kind: 'edit', path, oldText, newText });
export const wr = (path: string, content: string): Step => ({ kind: 'write', path, content });
export const gr = (pattern: string, output: string): Step => ({ kind: 'grep', pattern, output });

export const turn = (prompt: string, steps: Step[], final: string): Turn => ({ prompt, steps, final });

export interface QuestionSpec {
  ask: string;
  /** A few distinctive words for the same need. */
  kw: string;
  style: 'lit' | 'para';
  /** 0-based turn of this episode that holds the answer. */
  turn?: number;
  /** Other episodes (ids in the same project, or `project/id`) that answer it as well. */
  also?: string[];
  /** Asked from no project: searched across all of them. */
  anyProject?: boolean;
}

export interface Episode {
  id: string;
  /** Working day (0-based, weekends skipped) after the project's first day. */
  day: number;
  turns: Turn[];
  /** Short strings from the request or outcome, judged in the next session's start context. */
  facts: string[];
  q?: QuestionSpec[];
}

/** An ordinary session: turns plus the facts of its request and outcome. */
export interface NoiseSession {
  label: string;
  turns: Turn[];
  facts: string[];
}

export type NoiseTemplate = (rng: Rng) => NoiseSession;

export interface ProjectHistory {
  key: string;
  dir: string;
  remote: string;
  kind: string;
  /** ISO date of the first working day. */
  firstDay: string;
  /** Working days the history spans. */
  days: number;
  episodes: Episode[];
  /** How many ordinary sessions to add, drawn from `noise` (seeded). */
  noiseCount: number;
  noise: NoiseTemplate[];
  /** Single-turn requests some episodes start with before their real task. */
  warmups: NoiseTemplate[];
  /** Exploration steps (reads, git, tests) put before an episode's first step. */
  explore: (rng: Rng) => Step[];
}

/** Lines joined with newlines: command output and file contents read as they are. */
export const lines = (...l: string[]): string => l.join('\n');
