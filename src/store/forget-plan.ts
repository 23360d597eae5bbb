/**
 * What a forget request names, resolved to rows: observations, prompts and assistant messages by
 * id, sessions (with their subagents) by the host's session id, or every row a query matches.
 * Resolving reads only; forget.ts removes what the plan holds.
 */
import type { HostId } from '../shared/hosts.js';
import { StoreError } from './errors.js';
import { altToFts, hasExactPhrases, parseQuery, type QueryTerm } from './fts-query.js';
import { FTS_TABLE, KIND_BASE, KIND_SPAN, TEXT_COLUMNS, type IndexedKind } from './search-layout.js';
import { timeBound } from './search.js';
import type { StatementCache } from './statements.js';
import { fileTag, hostTag, projectTag, queryFileSuffixes, typeTag } from './tags.js';
import { eventKeyFamily } from './memory-keys.js';
import type { ForgetQuery, ForgetTarget } from './types.js';
export type { ForgetQuery, ForgetTarget } from './types.js';



export interface ForgetPlan {
  sessions: number[];
  observations: number[];
  prompts: number[];
  assistant: number[];
  summaries: number[];
  /** Lines that could not be stored, holding the query's words or the session's id. */
  deadLetters: number[];
  /** Captured events whose stored payload holds the query's words (whatever rows they made). */
  events: number[];
}

const MAX_IDS = 100_000;
const TABLE: Record<IndexedKind, string> = {
  observation: 'observations', prompt: 'prompts', assistant: 'assistant_messages', summary: 'summaries',
};
const TEXT_SQL: Record<IndexedKind, string> = {
  observation: `r.title || ' ' || coalesce(r.subtitle, '') || ' ' || r.narrative || ' ' || r.facts || ' ' || r.concepts || ' ' || r.files_read || ' ' || r.files_modified`,
  prompt: 'r.text',
  assistant: 'r.text',
  summary: `r.request || ' ' || r.text`,
};

const ids = (v: number[] | undefined): number[] =>
  [...new Set((v ?? []).filter((n) => Number.isSafeInteger(n) && n > 0))].slice(0, MAX_IDS);

function isEmptyTarget(t: ForgetTarget): boolean {
  return !t.observationIds?.length && !t.promptIds?.length && !t.assistantIds?.length && !t.summaryIds?.length &&
    !t.sessions?.length && !t.query;
}

export function resolvePlan(stmts: StatementCache, t: ForgetTarget): ForgetPlan {
  if (isEmptyTarget(t)) throw new StoreError('invalid_input', 'nothing to forget: give observation ids, a session or a query');
  const plan: ForgetPlan = {
    sessions: sessionIds(stmts, t.sessions ?? []),
    observations: existing(stmts, 'observations', ids(t.observationIds)),
    prompts: existing(stmts, 'prompts', ids(t.promptIds)),
    assistant: existing(stmts, 'assistant_messages', ids(t.assistantIds)),
    summaries: existing(stmts, 'summaries', ids(t.summaryIds)),
    deadLetters: deadLetters(stmts, t),
    events: [],
  };
  if (t.query) {
    const m = queryMatches(stmts, t.query);
    plan.observations.push(...m.observation);
    plan.prompts.push(...m.prompt);
    plan.assistant.push(...m.assistant);
    plan.summaries.push(...m.summary);
    const e = eventMatches(stmts, t.query);
    plan.events = e.events;
    plan.observations.push(...e.observations);
    plan.prompts.push(...e.prompts);
    plan.assistant.push(...e.assistant);
  }
  // Rows of a session that goes anyway are counted with it, not on their own.
  const gone = JSON.stringify(plan.sessions);
  const outside = (table: string, list: number[]): number[] => {
    const unique = [...new Set(list)];
    if (!plan.sessions.length || !unique.length) return unique;
    return stmts.get(`SELECT id FROM ${table} WHERE id IN (SELECT value FROM json_each(?))
      AND session_id NOT IN (SELECT value FROM json_each(?)) ORDER BY id`).pluck().all(JSON.stringify(unique), gone) as number[];
  };
  plan.observations = outside('observations', plan.observations);
  plan.prompts = outside('prompts', plan.prompts);
  plan.assistant = outside('assistant_messages', plan.assistant);
  plan.summaries = outside('summaries', plan.summaries);
  return plan;
}

const likeEscape = (s: string): string => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Dead letters (raw lines that could not be stored) that hold every word of the query, or name a
 * forgotten session: they are diagnostics, and must not keep what was forgotten.
 */
function deadLetters(stmts: StatementCache, t: ForgetTarget): number[] {
  const patterns: string[][] = [];
  for (const s of t.sessions ?? []) if (s.hostSessionId) patterns.push([JSON.stringify(s.hostSessionId)]);
  if (t.query) {
    const words = parseQuery(t.query.q).terms.map((term) => term.alts[0]?.tokens ?? []).flat();
    if (words.length) patterns.push(words);
  }
  const out = new Set<number>();
  for (const words of patterns) {
    const where = words.map(() => `raw LIKE ? ESCAPE '\\'`).join(' AND ');
    for (const id of stmts.get(`SELECT id FROM dead_letters WHERE ${where}`).pluck().all(...words.map(likeEscape)) as number[]) out.add(id);
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * Events whose stored payload holds every word of the query, and the rows they made. A row keeps
 * only part of what was captured (an observation is a bounded digest of a tool's output), so a
 * secret deep in an output may be in the event alone. One scan of the events table.
 */
function eventMatches(stmts: StatementCache, q: ForgetQuery): { events: number[]; observations: number[]; prompts: number[]; assistant: number[] } {
  const none = { events: [], observations: [], prompts: [], assistant: [] };
  const words = parseQuery(q.q).terms.flatMap((term) => term.alts[0]?.tokens ?? []);
  // A type or file filter names observations, which the raw events do not say.
  if (!words.length || q.type || q.file) return none;
  const since = timeBound(q.since, 'since') ?? null;
  const until = timeBound(q.until, 'until') ?? null;
  const hits = stmts.get(`SELECT e.id, e.idem_key AS key FROM events e JOIN sessions s ON s.id = e.session_id
    WHERE ${words.map(() => `e.payload LIKE ? ESCAPE '\\'`).join(' AND ')} AND e.probe = 0
      AND (@project IS NULL OR s.project = @project) AND (@host IS NULL OR e.host = @host)
      AND (@since IS NULL OR e.at >= @since) AND (@until IS NULL OR e.at <= @until)`)
    .all(...words.map(likeEscape), { project: q.project ?? null, host: q.host ?? null, since, until }) as { id: number; key: string }[];
  if (!hits.length) return none;
  // The rows an event made point at it, or (the second half of a tool call) at its twin.
  const family = JSON.stringify(hits.flatMap((h) => eventKeyFamily(h.key)));
  const rowsOf = (table: string) => stmts.get(`SELECT r.id FROM events e JOIN ${table} r ON r.session_id = e.session_id AND r.event_id = e.id
    WHERE e.idem_key IN (SELECT value FROM json_each(?))`).pluck().all(family) as number[];
  return { events: hits.map((h) => h.id), observations: rowsOf('observations'), prompts: rowsOf('prompts'), assistant: rowsOf('assistant_messages') };
}

function existing(stmts: StatementCache, table: string, list: number[]): number[] {
  if (!list.length) return [];
  return stmts.get(`SELECT id FROM ${table} WHERE id IN (SELECT value FROM json_each(?)) ORDER BY id`).pluck()
    .all(JSON.stringify(list)) as number[];
}

function sessionIds(stmts: StatementCache, sessions: { hostSessionId: string; host?: HostId }[]): number[] {
  const out = new Set<number>();
  for (const s of sessions) {
    if (typeof s.hostSessionId !== 'string' || !s.hostSessionId) throw new StoreError('invalid_input', 'a session id is required');
    const rows = stmts.get(`WITH RECURSIVE tree(id) AS (
        SELECT id FROM sessions WHERE host_session_id = @sid AND (@host IS NULL OR host = @host)
        UNION SELECT c.id FROM sessions c JOIN tree t ON c.parent_session_id = t.id)
      SELECT id FROM tree`).pluck().all({ sid: s.hostSessionId, host: s.host ?? null }) as number[];
    for (const id of rows) out.add(id);
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * Every term must match (search ORs them; forgetting takes only rows that hold all of them), and
 * a word matches itself only, not as a prefix, unless written `word*`.
 */
function strictExpression(terms: readonly QueryTerm[]): string | null {
  if (!terms.length) return null;
  const parts = terms.map((t) => {
    const explicitPrefix = /\*["]?$/.test(t.text);
    const seen = new Set<string>();
    const alts = t.alts
      .map((a) => ({ tokens: a.tokens, prefix: explicitPrefix && a.prefix }))
      .filter((a) => !seen.has(altToFts(a)) && seen.add(altToFts(a)));
    const fts = alts.map((a) => (/^z/.test(a.tokens[0]) ? `${TEXT_COLUMNS} : ${altToFts(a)}` : altToFts(a)));
    return fts.length === 1 ? fts[0] : `(${fts.join(' OR ')})`;
  });
  return parts.join(' AND ');
}

function kindsFor(type: string | undefined, file: string | undefined): IndexedKind[] {
  if (type === 'prompt' || type === 'assistant' || type === 'summary') return file ? [] : [type];
  if (type || file) return ['observation'];
  return ['observation', 'prompt', 'assistant', 'summary'];
}

function queryMatches(stmts: StatementCache, q: ForgetQuery): Record<IndexedKind, number[]> {
  const parsed = parseQuery(typeof q.q === 'string' ? q.q : '');
  const expr = strictExpression(parsed.terms);
  if (!expr) throw new StoreError('invalid_input', 'the query holds no searchable word: forgetting by query needs words to match');
  const since = timeBound(q.since, 'since');
  const until = timeBound(q.until, 'until');
  const out: Record<IndexedKind, number[]> = { observation: [], prompt: [], assistant: [], summary: [] };
  for (const kind of kindsFor(q.type, q.file)) {
    const tags: string[] = [];
    if (q.project) tags.push(`"${projectTag(q.project)}"`);
    if (q.host) tags.push(`"${hostTag(q.host)}"`);
    if (kind === 'observation' && q.type) tags.push(`"${typeTag(q.type)}"`);
    if (kind === 'observation' && q.file) {
      const suffixes = queryFileSuffixes(q.file);
      if (!suffixes.length) continue;
      tags.push(`(${suffixes.map((x) => `"${fileTag(x)}"`).join(' OR ')})`);
    }
    const match = [expr, ...tags.map((t) => `tags : ${t}`)].join(' AND ');
    const base = KIND_BASE[kind];
    // The project is checked on the row as well: a tag is a hash, and forgetting must be exact.
    const rows = stmts.get(`SELECT r.id, r.project, r.host, ${TEXT_SQL[kind]} AS text FROM ${FTS_TABLE}
        JOIN ${TABLE[kind]} r ON r.id = ${FTS_TABLE}.rowid - ${base}
      WHERE ${FTS_TABLE} MATCH ? AND ${FTS_TABLE}.rowid BETWEEN ${base + 1} AND ${base + KIND_SPAN - 1}
        AND (@since IS NULL OR r.created_at >= @since) AND (@until IS NULL OR r.created_at <= @until)`)
      .all(match, { since: since ?? null, until: until ?? null }) as { id: number; project: string; host: string; text: string }[];
    out[kind] = rows
      .filter((r) => (!q.project || r.project === q.project) && (!q.host || r.host === q.host))
      .filter((r) => hasExactPhrases(r.text, parsed.exact))
      .map((r) => r.id);
  }
  return out;
}
