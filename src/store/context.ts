/**
 * The project memory injected when a session starts: the last few sessions of the project (what
 * each was asked, what it found, how it ended, what it changed) and the recent observations as
 * one line each, bounded by a token budget (about 4 characters a token). The asking session is
 * left out, since it cannot learn anything from its own first seconds.
 */
import { cut, oneLine } from '../shared/text.js';
import { ACTIVE_PIN, MAX_PINNED_IN_CONTEXT } from './pins.js';
import { parseList } from './rows.js';
import type { StatementCache } from './statements.js';
import type { ContextQuery, ContextResult } from './types.js';

export const DEFAULT_CONTEXT_TOKENS = 1500;
export const CHARS_PER_TOKEN = 4;
const DEFAULT_RECENT = 20;
const MAX_RECENT = 200;
const SESSIONS_SHOWN = 3;
// The sessions may use at most this share of the budget, so recent work always shows too; the
// newest session gets the largest part of it.
const SESSIONS_SHARE = 0.6;
const SESSION_SHARES = [0.5, 0.3, 0.2];

export const clampInt = (v: number | undefined, dflt: number, min: number, max: number): number =>
  v === undefined || !Number.isFinite(v) ? dflt : Math.min(max, Math.max(min, Math.trunc(v)));
export const minute = (iso: string): string => iso.slice(0, 16).replace('T', ' ');

export interface ContextInput extends ContextQuery {
  project: string;
}

export const emptyContext = (project: string): ContextResult =>
  ({ project, text: '', observationIds: [], summaryId: null, summaryIds: [], sessionIds: [], kind: 'none', approxTokens: 0 });

/** The asking session and its subagents. */
export function askingSessions(stmts: StatementCache, q: ContextQuery): number[] {
  if (!q.hostSessionId) return [];
  return (stmts.get(`SELECT id FROM sessions WHERE host_session_id = @sid AND (@host IS NULL OR host = @host)
      UNION SELECT c.id FROM sessions c JOIN sessions p ON p.id = c.parent_session_id
      WHERE p.host_session_id = @sid AND (@host IS NULL OR p.host = @host)`)
    .all({ sid: q.hostSessionId, host: q.host ?? null }) as { id: number }[]).map((r) => r.id);
}

interface PastSession {
  id: number;
  host: string;
  started_at: string;
  ended_at: string | null;
  summary_id: number | null;
  request: string | null;
  outcome: string | null;
  summary_text: string | null;
  files_modified: string | null;
  /** The machine (and member) a pulled session came from: 'desktop (alice)'. */
  from_device: string | null;
}

/** One past session in a few lines: asked, found, outcome, changed (summary, else its prompts and replies). */
function sessionBlock(stmts: StatementCache, s: PastSession, room: number): string {
  const title = `\n## Session ${minute(s.started_at)} (${s.host}${s.from_device ? `, from ${s.from_device}` : ''}${s.ended_at ? '' : ', not ended'})\n`;
  const prompts = stmts.get(`SELECT text FROM prompts WHERE session_id = ? AND private = 0 AND text != '' ORDER BY number`)
    .pluck().all(s.id) as string[];
  const lastReply = stmts.get('SELECT text FROM assistant_messages WHERE session_id = ? ORDER BY id DESC LIMIT 1').pluck().get(s.id) as
    | string
    | undefined;
  const found = /^Found: (.+)$/m.exec(s.summary_text ?? '')?.[1];
  const changed = s.files_modified ? parseList(s.files_modified)
    : (stmts.get(`SELECT DISTINCT j.value FROM observations o, json_each(o.files_modified) j WHERE o.session_id = ? LIMIT 8`)
      .pluck().all(s.id) as string[]);
  const asked = s.request || prompts[0] || '';
  const latest = prompts.length > 1 ? prompts[prompts.length - 1] : '';
  const lines = [
    asked && `Asked: ${cut(oneLine(asked), 300)}`,
    latest && !asked.includes(latest.slice(0, 60)) && `Last asked: ${cut(oneLine(latest), 200)}`,
    found && `Found: ${cut(found, 400)}`,
    (s.outcome || lastReply) && `Outcome: ${cut(oneLine(s.outcome || lastReply || ''), 300)}`,
    changed.length > 0 && `Changed: ${changed.slice(0, 8).join(', ')}`,
  ].filter((l): l is string => typeof l === 'string' && l !== '');
  if (!lines.length) return '';
  return cut(title + lines.join('\n'), Math.max(0, room - 1)) + '\n';
}

export function buildContext(stmts: StatementCache, q: ContextInput): ContextResult {
  const empty = emptyContext(q.project);
  const maxChars = clampInt(q.maxTokens, DEFAULT_CONTEXT_TOKENS, 0, 1_000_000) * CHARS_PER_TOKEN;
  const limit = clampInt(q.limit, DEFAULT_RECENT, 0, MAX_RECENT);
  const ex = JSON.stringify(askingSessions(stmts, q));

  const sessions = stmts.get(`SELECT s.id, s.host, s.started_at, s.ended_at, m.id AS summary_id, m.request, m.outcome,
        m.text AS summary_text, m.files_modified, d.name || ' (' || d.member || ')' AS from_device
      FROM sessions s LEFT JOIN summaries m ON m.session_id = s.id LEFT JOIN sync_devices d ON d.device_id = s.origin
      WHERE s.project = ? AND s.is_subagent = 0 AND s.probe = 0 AND s.id NOT IN (SELECT value FROM json_each(?))
        AND (m.id IS NOT NULL OR s.prompt_count > 0)
      ORDER BY coalesce(s.ended_at, s.started_at) DESC LIMIT ${SESSIONS_SHOWN}`).all(q.project, ex) as PastSession[];
  const recent = limit
    ? (stmts.get(`SELECT o.id, o.title, o.created_at FROM observations o
        WHERE o.project = ? AND o.session_id NOT IN (SELECT value FROM json_each(?))
        ORDER BY o.created_at DESC, o.id DESC LIMIT ?`).all(q.project, ex, limit) as
        { id: number; title: string; created_at: string }[])
    : [];
  const pinned = pinnedObservations(stmts, q.project);
  if (!sessions.length && !recent.length && !pinned.length) return empty;

  const header = `# claude-mem: memory of ${q.project}\n`;
  const hint = (ids: number[]) =>
    ids.length ? `\nFor details call mem_get_observations with these ids (e.g. [${ids.slice(0, 3).join(', ')}]); mem_search finds more.\n` : '';
  let budget = maxChars - header.length - hint(recent.slice(0, 3).map((o) => o.id)).length;
  if (budget <= 0) return empty;
  // Pinned first and always: the user asked for them. They take what they need of the budget.
  const pins = pinnedBlock(pinned, budget);
  budget -= pins.text.length;
  const shownPinned = new Set(pins.ids);

  let sessionText = '';
  const summaryIds: number[] = [];
  const sessionIds: number[] = [];
  const share = Math.floor(budget * (recent.length ? SESSIONS_SHARE : 1));
  let allotted = 0;
  sessions.forEach((s, i) => {
    // What an earlier session left unused goes to the next.
    allotted += Math.floor(share * SESSION_SHARES[i]);
    const room = allotted - sessionText.length;
    if (room < 60) return;
    const block = sessionBlock(stmts, s, room);
    if (!block) return;
    sessionText += block;
    sessionIds.push(s.id);
    if (s.summary_id !== null) summaryIds.push(s.summary_id);
  });
  budget -= sessionText.length;

  const lines: string[] = [];
  const ids: number[] = [];
  const recentTitle = '\n## Recent\n';
  budget -= recentTitle.length;
  for (const o of recent) {
    if (shownPinned.has(o.id)) continue;
    const line = `#${o.id} ${minute(o.created_at)} ${cut(oneLine(o.title), 160)}\n`;
    if (line.length > budget) break;
    budget -= line.length;
    lines.push(line);
    ids.push(o.id);
  }
  if (!sessionText && !lines.length && !pins.text) return empty;

  // Oldest first reads as a story; the newest sit next to the hint.
  const text = header + pins.text + sessionText + (lines.length ? recentTitle + lines.reverse().join('') : '') + hint([...ids]);
  const bounded = cut(text, maxChars);
  return {
    project: q.project,
    text: bounded,
    observationIds: [...pins.ids, ...ids],
    summaryId: summaryIds[0] ?? null,
    summaryIds,
    sessionIds,
    kind: 'project',
    approxTokens: Math.ceil(bounded.length / CHARS_PER_TOKEN),
  };
}

interface PinnedObservation {
  id: number;
  title: string;
  narrative: string;
  created_at: string;
}

function pinnedObservations(stmts: StatementCache, project: string): PinnedObservation[] {
  return stmts.get(`SELECT o.id, o.title, o.narrative, o.created_at FROM pins p JOIN observations o ON o.id = p.observation_id
    WHERE p.project = ? AND p.${ACTIVE_PIN} ORDER BY p.pinned_at, p.observation_id LIMIT ${MAX_PINNED_IN_CONTEXT}`).all(project) as PinnedObservation[];
}

/** Each pinned observation with a line of its text; when the budget is short, titles only. */
function pinnedBlock(pinned: PinnedObservation[], budget: number): { text: string; ids: number[] } {
  if (!pinned.length) return { text: '', ids: [] };
  const title = '\n## Pinned\n';
  const full = (o: PinnedObservation) => {
    const more = oneLine(o.narrative);
    return `#${o.id} ${cut(oneLine(o.title), 160)}${more && more !== oneLine(o.title) ? ` — ${cut(more, 300)}` : ''}\n`;
  };
  const short = (o: PinnedObservation) => `#${o.id} ${cut(oneLine(o.title), 120)}\n`;
  let lines = pinned.map(full);
  if (title.length + lines.join('').length > budget) lines = pinned.map(short);
  return { text: title + lines.join(''), ids: pinned.map((o) => o.id) };
}
