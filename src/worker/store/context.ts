/**
 * Session-start context: the project's last summary and its recent observations as one line each,
 * bounded by a token budget (about 4 characters a token). The asking session is left out, since
 * it cannot learn anything from its own first seconds.
 */
import type { StatementCache } from './statements.js';
import type { ContextQuery, ContextResult } from './types.js';

export const DEFAULT_CONTEXT_TOKENS = 1500;
const CHARS_PER_TOKEN = 4;
const DEFAULT_RECENT = 20;
const MAX_RECENT = 200;
// The summary may use at most this share of the budget, so recent work always shows too.
const SUMMARY_SHARE = 0.45;

const clampInt = (v: number | undefined, dflt: number, min: number, max: number): number =>
  v === undefined || !Number.isFinite(v) ? dflt : Math.min(max, Math.max(min, Math.trunc(v)));
const minute = (iso: string): string => iso.slice(0, 16).replace('T', ' ');
const oneLine = (s: string): string => s.replace(/\s+/g, ' ').trim();
const clip = (s: string, max: number): string => (s.length > max ? s.slice(0, Math.max(0, max - 1)) + '…' : s);

export interface ContextInput extends ContextQuery {
  project: string;
}

export function buildContext(stmts: StatementCache, q: ContextInput): ContextResult {
  const empty: ContextResult = { project: q.project, text: '', observationIds: [], summaryId: null, approxTokens: 0 };
  const maxChars = clampInt(q.maxTokens, DEFAULT_CONTEXT_TOKENS, 0, 1_000_000) * CHARS_PER_TOKEN;
  const limit = clampInt(q.limit, DEFAULT_RECENT, 0, MAX_RECENT);

  // The asking session and its subagents.
  const excluded = q.hostSessionId
    ? (stmts.get(`SELECT id FROM sessions WHERE host_session_id = @sid AND (@host IS NULL OR host = @host)
          UNION SELECT c.id FROM sessions c JOIN sessions p ON p.id = c.parent_session_id
          WHERE p.host_session_id = @sid AND (@host IS NULL OR p.host = @host)`)
        .all({ sid: q.hostSessionId, host: q.host ?? null }) as { id: number }[]).map((r) => r.id)
    : [];
  const ex = JSON.stringify(excluded);

  const summary = stmts.get(`SELECT m.id, m.text, m.host, m.created_at FROM summaries m JOIN sessions s ON s.id = m.session_id
      WHERE m.project = ? AND s.is_subagent = 0 AND m.session_id NOT IN (SELECT value FROM json_each(?))
      ORDER BY m.created_at DESC LIMIT 1`).get(q.project, ex) as
    | { id: number; text: string; host: string; created_at: string }
    | undefined;
  const recent = limit
    ? (stmts.get(`SELECT o.id, o.title, o.created_at FROM observations o
        WHERE o.project = ? AND o.session_id NOT IN (SELECT value FROM json_each(?))
        ORDER BY o.created_at DESC, o.id DESC LIMIT ?`).all(q.project, ex, limit) as
        { id: number; title: string; created_at: string }[])
    : [];
  if (!summary && !recent.length) return empty;

  const header = `# claude-mem: memory of ${q.project}\n`;
  const hint = (ids: number[]) =>
    ids.length ? `\nFor details call mem_get_observations with these ids (e.g. [${ids.slice(0, 3).join(', ')}]); mem_search finds more.\n` : '';
  let budget = maxChars - header.length - hint(recent.slice(0, 3).map((o) => o.id)).length;
  if (budget <= 0) return empty;

  let summaryBlock = '';
  if (summary) {
    const title = `\n## Last session (${summary.host}, ${minute(summary.created_at)})\n`;
    const room = Math.floor(budget * (recent.length ? SUMMARY_SHARE : 1)) - title.length - 1;
    if (room >= 40) {
      summaryBlock = `${title}${clip(summary.text.trim(), room)}\n`;
      budget -= summaryBlock.length;
    }
  }

  const lines: string[] = [];
  const ids: number[] = [];
  const recentTitle = '\n## Recent\n';
  budget -= recentTitle.length;
  for (const o of recent) {
    const line = `#${o.id} ${minute(o.created_at)} ${clip(oneLine(o.title), 160)}\n`;
    if (line.length > budget) break;
    budget -= line.length;
    lines.push(line);
    ids.push(o.id);
  }
  if (!summaryBlock && !lines.length) return empty;

  // Oldest first reads as a story; the newest sit next to the hint.
  const text = header + summaryBlock + (lines.length ? recentTitle + lines.reverse().join('') : '') + hint([...ids]);
  const bounded = clip(text, maxChars);
  return {
    project: q.project,
    text: bounded,
    observationIds: ids,
    summaryId: summaryBlock ? summary!.id : null,
    approxTokens: Math.ceil(bounded.length / CHARS_PER_TOKEN),
  };
}
