/** What the LongMemEval and LoCoMo readers share: ids the store accepts, chat turns, keywords. */
import { readFileSync } from 'node:fs';
import { tokenize } from '../bm25.js';
import { contentWords, overlap } from '../score.js';
import type { Question, Turn } from '../types.js';

/** Host session ids must match SESSION_ID_RE (letters, digits, . _ : -; at most 128). */
export function safeId(text: string): string {
  return text.replace(/[^A-Za-z0-9._:-]/g, '_').slice(0, 128);
}

export function readJson(file: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read the ${what} file ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new Error(`${file} is not JSON (${what} files are JSON): ${(err as Error).message}`);
  }
}

export class FormatError extends Error {
  constructor(file: string, where: string, what: string) {
    super(`${file}: ${where}: ${what}`);
  }
}

export interface ChatLine {
  /** true: the user's side (a prompt); false: the other side (assistant messages). */
  user: boolean;
  text: string;
}

/** Consecutive user lines open a turn; the replies that follow are its assistant messages. */
export function chatTurns(lines: ChatLine[]): { turns: Turn[]; turnOfLine: number[] } {
  const turns: Turn[] = [];
  const turnOfLine: number[] = [];
  let prompt: string[] = [];
  let replies: string[] = [];
  const flush = () => {
    if (!prompt.length && !replies.length) return;
    const said = replies.slice(0, -1).map((text) => ({ kind: 'say' as const, text }));
    turns.push({ prompt: prompt.join('\n') || '(continued)', steps: said, final: replies.at(-1) ?? '' });
    prompt = [];
    replies = [];
  };
  for (const l of lines) {
    if (l.user && replies.length) flush();
    (l.user ? prompt : replies).push(l.text);
    turnOfLine.push(turns.length);
  }
  flush();
  return { turns, turnOfLine };
}

/** A mechanical "keywords" form: the question's rarest content words, at most six. */
export function keywordsOf(question: string, df: Map<string, number>): string {
  const content = contentWords(question).filter((w) => w.length > 2 && !/^\d+$/.test(w));
  return content.sort((a, b) => (df.get(a) ?? 0) - (df.get(b) ?? 0)).slice(0, 6).join(' ') || question;
}

/** Literal when most content words of the question occur in the answer text, else paraphrased. */
export function styleOf(question: string, answerText: string): Question['style'] {
  return overlap(question, answerText) >= 0.5 ? 'literal' : 'paraphrased';
}

export function documentFrequency(texts: Iterable<string>): Map<string, number> {
  const df = new Map<string, number>();
  for (const t of texts) for (const w of new Set(tokenize(t))) df.set(w, (df.get(w) ?? 0) + 1);
  return df;
}

export const turnText = (turns: Turn[]): string =>
  turns.map((t) => [t.prompt, ...t.steps.map((s) => (s.kind === 'say' ? s.text : '')), t.final].join('\n')).join('\n');
