/**
 * LongMemEval-S (longmemeval_s.json): a JSON list of items, each one question with its own
 * haystack of chat sessions. Used fields: question_id, question, haystack_session_ids,
 * haystack_sessions (lists of {role: "user"|"assistant", content}), answer_session_ids, and
 * haystack_dates when present ("2023/05/20 (Sat) 02:21"). Each item becomes its own project,
 * so a question is searched within its own haystack, as the benchmark intends.
 */
import type { Corpus, Question, Session } from '../types.js';
import { chatTurns, documentFrequency, FormatError, keywordsOf, readJson, safeId, styleOf, turnText } from './common.js';

const isObj = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** "2023/05/20 (Sat) 02:21" → ISO; undefined when absent or unreadable. */
export function lmeDate(v: unknown): string | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^(\d{4})\/(\d{2})\/(\d{2})(?:\s*\([A-Za-z]+\))?\s*(\d{1,2}):(\d{2})/.exec(v.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4].padStart(2, '0')}:${m[5]}:00.000Z` : undefined;
}

export function readLongMemEval(file: string, limit: number): Corpus {
  const data = readJson(file, 'LongMemEval');
  if (!Array.isArray(data)) throw new FormatError(file, '(root)', 'expected a JSON list of items');
  const items = limit > 0 ? data.slice(0, limit) : data;
  const corpus: Corpus = { name: `longmemeval (${file}, ${items.length} of ${data.length} items)`, projects: {}, sessions: [], fixtures: [], questions: [], probes: [] };
  const pending: { q: Omit<Question, 'keywords' | 'style'>; answerText: string }[] = [];
  items.forEach((item, i) => {
    const where = `item ${i}`;
    if (!isObj(item)) throw new FormatError(file, where, 'not an object');
    const { question, haystack_sessions: hs, haystack_session_ids: ids, answer_session_ids: answerIds } = item;
    if (typeof question !== 'string') throw new FormatError(file, where, 'question must be a string');
    if (!Array.isArray(hs) || !Array.isArray(ids) || hs.length !== ids.length) throw new FormatError(file, where, 'haystack_sessions and haystack_session_ids must be lists of the same length');
    if (!Array.isArray(answerIds)) throw new FormatError(file, where, 'answer_session_ids must be a list');
    const qid = typeof item.question_id === 'string' ? item.question_id : String(i);
    const project = safeId(`lme-${qid}`);
    corpus.projects[project] = { dir: project, kind: 'LongMemEval-S haystack' };
    const dates = Array.isArray(item.haystack_dates) ? item.haystack_dates : [];
    const idOf = new Map<string, string>();
    let fallback = Date.parse('2023-01-02T09:00:00Z');
    hs.forEach((turnsRaw, k) => {
      if (!Array.isArray(turnsRaw)) throw new FormatError(file, `${where}.haystack_sessions[${k}]`, 'expected a list of turns');
      const lines = turnsRaw.map((t, j) => {
        if (!isObj(t) || typeof t.content !== 'string' || (t.role !== 'user' && t.role !== 'assistant')) {
          throw new FormatError(file, `${where}.haystack_sessions[${k}][${j}]`, 'expected {role: "user"|"assistant", content: string}');
        }
        return { user: t.role === 'user', text: t.content };
      });
      const { turns } = chatTurns(lines);
      if (!turns.length) return;
      const id = safeId(`${project}.${String(ids[k])}`);
      idOf.set(String(ids[k]), id);
      fallback += 3_600_000;
      const start = lmeDate(dates[k]) ?? new Date(fallback).toISOString();
      corpus.sessions.push({ id, project, start, turns, keyFacts: [], label: `lme:${String(ids[k])}` });
    });
    const answers = answerIds.map((a) => idOf.get(String(a))).filter((a): a is string => a !== undefined);
    if (!answers.length) return; // abstention items: nothing in the haystack answers them
    const answerText = corpus.sessions.filter((s) => answers.includes(s.id)).map((s) => turnText(s.turns)).join('\n');
    pending.push({ q: { id: `lme/${qid}`, asked: question, answers, project }, answerText });
  });
  // Items nothing answers (abstention) add no question, so their haystacks are not replayed.
  const used = new Set(pending.map((p) => p.q.project));
  corpus.sessions = corpus.sessions.filter((s) => used.has(s.project));
  corpus.projects = Object.fromEntries(Object.entries(corpus.projects).filter(([k]) => used.has(k)));
  const df = documentFrequency(corpus.sessions.map((s: Session) => turnText(s.turns)));
  corpus.questions = pending.map(({ q, answerText }) => ({ ...q, keywords: keywordsOf(q.asked, df), style: styleOf(q.asked, answerText) }));
  return corpus;
}
