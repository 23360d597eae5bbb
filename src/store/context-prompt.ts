/**
 * Context at prompt time. The project memory is given once per session (at its start, or with the
 * first prompt on hosts that inject only then); a later prompt gets only memory relevant to what
 * it asks and not given to this session yet, and most prompts get nothing. What was given is kept
 * in context_given, so a restarted worker does not repeat it either.
 */
import { parseQuery } from './fts-query.js';
import { cut, oneLine } from '../shared/text.js';
import { askingSessions, buildContext, CHARS_PER_TOKEN, clampInt, DEFAULT_CONTEXT_TOKENS, emptyContext, minute, type ContextInput } from './context.js';
import type { Searcher } from './search.js';
import type { StatementCache } from './statements.js';
import type { ContextResult, SearchResult } from './types.js';

/** A prompt-time injection takes at most this share of the token budget. */
const PROMPT_SHARE = 1 / 3;
const RELATED_SESSIONS = 3;
const SEARCHED_SESSIONS = 10;
const GIVEN_DAYS = 30;
const DAY_MS = 86_400_000;
/** A prompt with fewer content words than this (yes, go on, thanks) asks nothing memory can answer. */
const MIN_TERMS = 2;
const PROJECT_ITEM = 'project';

export class ContextGiven {
  constructor(private readonly stmts: StatementCache, private readonly now: () => Date) {}

  has(host: string, sid: string, item: string): boolean {
    return !!this.stmts.get('SELECT 1 FROM context_given WHERE host = ? AND host_session_id = ? AND item = ?').get(host, sid, item);
  }

  items(host: string, sid: string): Set<string> {
    return new Set(this.stmts.get('SELECT item FROM context_given WHERE host = ? AND host_session_id = ?').pluck().all(host, sid) as string[]);
  }

  /** A session (re)starts: what it was given before is no longer in its context window. */
  reset(host: string, sid: string): void {
    this.stmts.get('DELETE FROM context_given WHERE host = ? AND host_session_id = ?').run(host, sid);
    this.stmts.get('DELETE FROM context_given WHERE at < ?').run(new Date(this.now().getTime() - GIVEN_DAYS * DAY_MS).toISOString());
  }

  record(host: string, sid: string, items: readonly string[]): void {
    const at = this.now().toISOString();
    const ins = this.stmts.get('INSERT OR IGNORE INTO context_given (host, host_session_id, item, at) VALUES (?, ?, ?, ?)');
    for (const item of items) ins.run(host, sid, item, at);
  }
}

const given = (r: ContextResult): string[] => [
  ...(r.kind === 'project' ? [PROJECT_ITEM] : []),
  ...r.observationIds.map((id) => `o:${id}`),
  ...(r.summaryIds ?? []).map((id) => `m:${id}`),
  // A session shown in the project block (b:) may still give details a prompt asks for; one
  // given at a prompt (s:) is not given again.
  ...(r.sessionIds ?? []).map((id) => `${r.kind === 'project' ? 'b' : 's'}:${id}`),
];

function relatedLines(r: SearchResult): { text: string; ids: number[] } {
  const ids = r.turns.flatMap((t) => t.evidence.filter((e) => e.kind === 'observation').map((e) => e.id));
  const turn = r.turns.find((t) => t.promptNumber !== null);
  const asked = turn?.request || r.request;
  const outcome = turn?.outcome || r.outcome;
  const lines = [`- ${minute(r.startedAt)} ${r.host}${asked ? `: ${cut(oneLine(asked), 200)}` : ''}`];
  if (outcome) lines.push(`  Outcome: ${cut(oneLine(outcome), 300)}`);
  for (const t of r.turns) {
    for (const e of t.evidence.slice(0, 2)) {
      if (e.kind === 'observation') lines.push(`  #${e.id} ${cut(oneLine(e.title), 140)}`);
    }
  }
  return { text: lines.join('\n') + '\n', ids };
}

/** Memory relevant to the prompt, not given to this session yet; '' when there is none. */
function relevant(searcher: Searcher, stmts: StatementCache, q: ContextInput, seen: Set<string>): ContextResult {
  const empty = emptyContext(q.project);
  const parsed = parseQuery(q.prompt ?? '');
  if (parsed.terms.filter((t) => !t.required).length + parsed.exact.length < MIN_TERMS) return empty;
  const maxChars = Math.floor(clampInt(q.maxTokens, DEFAULT_CONTEXT_TOKENS, 0, 1_000_000) * PROMPT_SHARE) * CHARS_PER_TOKEN;
  const own = new Set(askingSessions(stmts, q));
  const answer = searcher.search({ query: q.prompt ?? '', project: q.project, limit: SEARCHED_SESSIONS + own.size });
  const header = '# claude-mem: memory related to this prompt\n';
  const footer = '\nmem_get_observations gives the details of a #id; mem_search finds more.\n';
  let text = '';
  const ids: number[] = [];
  const summaryIds: number[] = [];
  const sessionIds: number[] = [];
  for (const r of answer.results) {
    if (sessionIds.length >= RELATED_SESSIONS) break;
    if (own.has(r.sessionId) || seen.has(`s:${r.sessionId}`)) continue;
    const part = relatedLines(r);
    const fresh = part.ids.filter((id) => !seen.has(`o:${id}`));
    if (part.ids.length && !fresh.length && r.summaryId !== null && seen.has(`m:${r.summaryId}`)) continue;
    if (header.length + text.length + part.text.length + footer.length > maxChars) break;
    text += part.text;
    ids.push(...fresh);
    if (r.summaryId !== null) summaryIds.push(r.summaryId);
    sessionIds.push(r.sessionId);
  }
  if (!text) return empty;
  const out = header + text + footer;
  return {
    project: q.project, text: out, observationIds: ids, summaryId: summaryIds[0] ?? null, summaryIds, sessionIds, kind: 'relevant',
    approxTokens: Math.ceil(out.length / CHARS_PER_TOKEN),
  };
}

/** The context for a hook: project memory once per session, then only what a prompt needs. */
export function contextForSession(stmts: StatementCache, searcher: Searcher, memo: ContextGiven, q: ContextInput): ContextResult {
  const sid = q.hostSessionId;
  const host = q.host ?? '';
  if (!sid || !q.mode) return buildContext(stmts, q);
  if (q.mode === 'session') memo.reset(host, sid);
  const seen = memo.items(host, sid);
  let result: ContextResult;
  if (!seen.has(PROJECT_ITEM)) {
    result = buildContext(stmts, q);
    // The project block was given even when empty: the next prompts get only what they ask for.
    memo.record(host, sid, [PROJECT_ITEM, ...given(result)]);
    return result;
  }
  result = relevant(searcher, stmts, q, seen);
  memo.record(host, sid, given(result));
  return result;
}
