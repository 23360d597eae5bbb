/**
 * LoCoMo (locomo10.json): a JSON list of conversations, each {sample_id, conversation, qa}.
 * `conversation` holds speaker_a, speaker_b, session_<N> (lists of {speaker, dia_id "D<N>:<k>",
 * text}) and session_<N>_date_time ("1:56 pm on 8 May, 2023"); `qa` lists {question, answer,
 * evidence: ["D<N>:<k>", ...], category}. The first speaker's lines become prompts, the other's
 * the replies; every line keeps its speaker's name. A question's answer sessions are the sessions
 * of its evidence, its turn the turn of the first evidence line. Questions without evidence
 * (the adversarial category has none) are left out.
 */
import type { Corpus, Question } from '../types.js';
import { chatTurns, documentFrequency, FormatError, keywordsOf, readJson, safeId, styleOf, turnText } from './common.js';

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "1:56 pm on 8 May, 2023" → ISO; undefined when unreadable. */
export function locomoDate(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})/i.exec(v.trim());
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[5].toLowerCase());
  if (month < 0) return undefined;
  const hour = (Number(m[1]) % 12) + (m[3].toLowerCase() === 'pm' ? 12 : 0);
  return new Date(Date.UTC(Number(m[6]), month, Number(m[4]), hour, Number(m[2]))).toISOString();
}

interface Line {
  speaker: string;
  dia: string;
  text: string;
}

function sessionLines(file: string, where: string, raw: unknown): Line[] {
  if (!Array.isArray(raw)) throw new FormatError(file, where, 'expected a list of dialogue lines');
  return raw.map((l, j) => {
    if (!isObj(l) || typeof l.speaker !== 'string' || typeof l.text !== 'string') throw new FormatError(file, `${where}[${j}]`, 'expected {speaker, dia_id, text}');
    return { speaker: l.speaker, dia: typeof l.dia_id === 'string' ? l.dia_id : '', text: l.text };
  });
}

export function readLocomo(file: string, limit: number): Corpus {
  const data = readJson(file, 'LoCoMo');
  if (!Array.isArray(data)) throw new FormatError(file, '(root)', 'expected a JSON list of conversations');
  const corpus: Corpus = { name: `locomo (${file})`, projects: {}, sessions: [], fixtures: [], questions: [], probes: [] };
  const pending: { q: Omit<Question, 'keywords' | 'style'>; answerText: string }[] = [];
  for (const [i, sample] of data.entries()) {
    if (limit > 0 && pending.length >= limit) break;
    const where = `conversation ${i}`;
    if (!isObj(sample) || !isObj(sample.conversation)) throw new FormatError(file, where, 'expected {sample_id, conversation, qa}');
    const conv = sample.conversation;
    const project = safeId(`locomo-${typeof sample.sample_id === 'string' ? sample.sample_id : i}`);
    corpus.projects[project] = { dir: project, kind: 'LoCoMo conversation' };
    const where2 = (k: string) => `${where}.conversation.${k}`;
    const keys = Object.keys(conv).filter((k) => /^session_\d+$/.test(k)).sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)));
    const first = keys.length ? sessionLines(file, where2(keys[0]), conv[keys[0]])[0]?.speaker : undefined;
    const user = typeof conv.speaker_a === 'string' ? conv.speaker_a : first;
    const where3 = new Map<string, { session: string; turn: number }>();
    let fallback = Date.parse('2023-01-02T09:00:00Z');
    for (const k of keys) {
      const lines = sessionLines(file, where2(k), conv[k]);
      const { turns, turnOfLine } = chatTurns(lines.map((l) => ({ user: l.speaker === user, text: `${l.speaker}: ${l.text}` })));
      if (!turns.length) continue;
      const id = safeId(`${project}.${k}`);
      lines.forEach((l, j) => l.dia && where3.set(l.dia, { session: id, turn: turnOfLine[j] }));
      fallback += 7 * 86_400_000;
      corpus.sessions.push({ id, project, start: locomoDate(conv[`${k}_date_time`]) ?? new Date(fallback).toISOString(), turns, keyFacts: [], label: `locomo:${k}` });
    }
    const qa = Array.isArray(sample.qa) ? sample.qa : [];
    for (const [j, item] of qa.entries()) {
      if (limit > 0 && pending.length >= limit) break;
      if (!isObj(item) || typeof item.question !== 'string' || !Array.isArray(item.evidence)) continue;
      const found = item.evidence.flatMap((e) => String(e).split(/[;,\s]+/)).map((e) => where3.get(e)).filter((x) => x !== undefined);
      if (!found.length) continue;
      const answers = [...new Set(found.map((f) => f.session))];
      const answerText = corpus.sessions.filter((s) => answers.includes(s.id)).map((s) => turnText(s.turns)).join('\n');
      pending.push({ q: { id: `locomo/${project}/${j}`, asked: item.question, answers, turn: found[0].turn, project }, answerText });
    }
  }
  const used = new Set(pending.map((p) => p.q.project));
  corpus.sessions = corpus.sessions.filter((s) => used.has(s.project));
  corpus.projects = Object.fromEntries(Object.entries(corpus.projects).filter(([k]) => used.has(k)));
  const df = documentFrequency(corpus.sessions.map((s) => turnText(s.turns)));
  corpus.questions = pending.map(({ q, answerText }) => ({ ...q, keywords: keywordsOf(q.asked, df), style: styleOf(q.asked, answerText) }));
  corpus.name = `locomo (${file}, ${corpus.questions.length} questions from ${used.size} conversations)`;
  return corpus;
}
