/**
 * Export: memory as JSON lines (everything import needs to rebuild it; docs/memory.md) or as
 * Markdown (one readable section per session). Rows are read through iterators and handed out a
 * line at a time, so memory stays flat however large the export. Rows refer to each other by
 * identity (memory-keys.ts), never by local row id. Doctor probes are left out.
 */
import type Database from 'better-sqlite3';
import { observationKey, OBS_IDENTITY_SQL, sessionIdentity, type ObservationIdentity } from './memory-keys.js';
import { parseList } from './rows.js';
import { timeBound } from './search.js';
import type { ExportFilter } from './types.js';
export type { ExportFilter } from './types.js';

export const EXPORT_FORMAT = 'claude-mem-export';
export const EXPORT_VERSION = 1;


type ExportCounts = Record<'sessions' | 'events' | 'prompts' | 'assistant' | 'observations' | 'summaries' | 'pins' | 'tombstones', number>;

// A session is in when it matches the filter and may hold rows from `since` on.
const SESSION_WHERE = `s.probe = 0 AND (@project IS NULL OR s.project = @project) AND (@host IS NULL OR s.host = @host)
  AND (@since IS NULL OR s.started_at >= @since OR s.ended_at >= @since OR (s.ended_at IS NULL AND (
    EXISTS (SELECT 1 FROM observations x WHERE x.session_id = s.id AND x.created_at >= @since)
    OR EXISTS (SELECT 1 FROM prompts x WHERE x.session_id = s.id AND x.created_at >= @since)
    OR EXISTS (SELECT 1 FROM assistant_messages x WHERE x.session_id = s.id AND x.created_at >= @since))))`;
const ROW_SINCE = `(@since IS NULL OR r.created_at >= @since)`;

/** A row as SQLite returns it (columns as named in the query). */
type Row = Record<string, any>;
const ref = (r: Row): string => sessionIdentity(r.sh, r.sid);
const nonEmpty = (v: string | null | undefined): string | undefined => (v === null || v === undefined || v === '' ? undefined : v);

function params(f: ExportFilter) {
  return { project: nonEmpty(f.project) ?? null, host: nonEmpty(f.host) ?? null, since: timeBound(f.since, 'since') ?? null };
}

const ROW_FROM = (table: string, withEvent = true) => `SELECT r.*, s.host AS sh, s.host_session_id AS sid${withEvent ? ', e.idem_key AS ek' : ''}
  FROM ${table} r JOIN sessions s ON s.id = r.session_id ${withEvent ? 'LEFT JOIN events e ON e.id = r.event_id' : ''}
  WHERE ${SESSION_WHERE} AND ${ROW_SINCE} ORDER BY r.id`;

/** One pass over a table: its rows in id order, each as one line. */
interface Pass {
  count: keyof ExportCounts;
  sql: string;
  filtered: boolean; // takes the filter's parameters
  line(r: Row): string;
}

const PASSES: readonly Pass[] = [
  {
    count: 'sessions', filtered: true,
    sql: `SELECT s.*, ps.host AS ph, ps.host_session_id AS psid FROM sessions s
      LEFT JOIN sessions ps ON ps.id = s.parent_session_id WHERE ${SESSION_WHERE} ORDER BY s.id`,
    line: (s) => JSON.stringify({
      type: 'session', host: s.host, hostSessionId: s.host_session_id, project: s.project, cwd: s.cwd,
      parent: s.ph ? sessionIdentity(String(s.ph), String(s.psid)) : null, isSubagent: s.is_subagent === 1, agentId: s.agent_id,
      startedAt: s.started_at, endedAt: s.ended_at, endReason: s.end_reason, promptCount: s.prompt_count,
      lastAssistantMessage: s.last_assistant_message, privateTurn: s.private_turn === 1,
    }),
  },
  {
    count: 'events', filtered: true,
    sql: `SELECT e.idem_key AS key, e.host, e.kind, e.payload, e.dropped, e.at, e.created_at, s.host AS sh, s.host_session_id AS sid
      FROM events e JOIN sessions s ON s.id = e.session_id
      WHERE e.probe = 0 AND ${SESSION_WHERE} AND (@since IS NULL OR e.at >= @since) ORDER BY e.id`,
    // The payload is stored JSON: spliced in as it is, not parsed and written again.
    line: (e) => `${JSON.stringify({ type: 'event', key: e.key, session: ref(e), host: e.host, kind: e.kind, dropped: e.dropped, at: e.at, createdAt: e.created_at }).slice(0, -1)},"payload":${e.payload}}`,
  },
  {
    count: 'prompts', filtered: true, sql: ROW_FROM('prompts'),
    line: (r) => JSON.stringify({
      type: 'prompt', session: ref(r), event: r.ek, host: r.host, number: r.number, nativeId: r.native_id, text: r.text,
      private: r.private === 1, createdAt: r.created_at,
    }),
  },
  {
    count: 'assistant', filtered: true, sql: ROW_FROM('assistant_messages'),
    line: (r) => JSON.stringify({ type: 'assistant', session: ref(r), event: r.ek, host: r.host, promptNumber: r.prompt_number, text: r.text, createdAt: r.created_at }),
  },
  {
    count: 'observations', filtered: true, sql: ROW_FROM('observations'),
    line: (r) => JSON.stringify({
      type: 'observation',
      key: observationKey({ host: r.sh, hostSessionId: r.sid, toolUseId: r.tool_use_id, eventKey: r.ek, createdAt: r.created_at, title: r.title, narrative: r.narrative }),
      session: ref(r), event: r.ek, host: r.host, promptNumber: r.prompt_number, obsType: r.type,
      title: r.title, subtitle: r.subtitle, narrative: r.narrative, facts: parseList(r.facts), filesRead: parseList(r.files_read),
      filesModified: parseList(r.files_modified), concepts: parseList(r.concepts), toolName: r.tool_name, toolUseId: r.tool_use_id,
      createdAt: r.created_at,
    }),
  },
  {
    count: 'summaries', filtered: true, sql: ROW_FROM('summaries', false),
    line: (r) => JSON.stringify({
      type: 'summary', session: ref(r), host: r.host, request: r.request, filesRead: parseList(r.files_read),
      filesModified: parseList(r.files_modified), commands: parseList(r.commands), outcome: r.outcome, text: r.text, createdAt: r.created_at,
    }),
  },
  {
    // Unpinned rows too: an unpin travels like a pin (the later time wins).
    count: 'pins', filtered: true,
    sql: `SELECT p.project AS pinProject, p.pinned_at AS pinnedAt, p.unpinned_at AS unpinnedAt, ${OBS_IDENTITY_SQL} FROM pins p
      JOIN observations o ON o.id = p.observation_id JOIN sessions s ON s.id = o.session_id LEFT JOIN events e ON e.id = o.event_id
      WHERE ${SESSION_WHERE} ORDER BY p.pinned_at`,
    line: (r) => JSON.stringify({ type: 'pin', observation: observationKey(r as ObservationIdentity), project: r.pinProject, pinnedAt: r.pinnedAt, unpinnedAt: r.unpinnedAt }),
  },
  {
    // Every tombstone, whatever the filter: they hold no content, and they keep forgotten things forgotten.
    count: 'tombstones', filtered: false,
    sql: 'SELECT key, kind, project, created_at AS createdAt FROM tombstones ORDER BY key',
    line: (t) => JSON.stringify({ type: 'tombstone', key: t.key, kind: t.kind, project: t.project, createdAt: t.createdAt }),
  },
];

/** The JSON lines of an export, header first and `end` (with the counts) last. */
export function* exportJsonl(db: Database.Database, filter: ExportFilter, schemaVersion: number, now = new Date()): Generator<string> {
  const p = params(filter);
  const counts: ExportCounts = { sessions: 0, events: 0, prompts: 0, assistant: 0, observations: 0, summaries: 0, pins: 0, tombstones: 0 };
  yield JSON.stringify({
    type: 'header', format: EXPORT_FORMAT, version: EXPORT_VERSION, schemaVersion, exportedAt: now.toISOString(),
    filter: { project: p.project, host: p.host, since: p.since },
  });
  for (const pass of PASSES) {
    const st = db.prepare(pass.sql);
    for (const r of (pass.filtered ? st.iterate(p) : st.iterate()) as Iterable<Row>) {
      counts[pass.count]++;
      yield pass.line(r);
    }
  }
  yield JSON.stringify({ type: 'end', counts });
}

const mdTime = (iso: string): string => iso.slice(0, 16).replace('T', ' ');
/**
 * Captured text as Markdown text: never markup of its own (headings, HTML, links); its line breaks
 * kept (hard breaks), each line indented by `indent` (inside a list item).
 */
function mdText(s: string, indent = ''): string {
  return s.replace(/\r\n?/g, '\n').replace(/([\\`*_[\]<>#|])/g, '\\$1').split('\n')
    // A line that starts like a list item or a heading underline stays text.
    .map((line) => line.replace(/^(\s*)([-+=~]|\d+[.)])/, '$1\\$2'))
    .join(`  \n${indent}`);
}

/** One Markdown section per session, oldest first: summary, then prompts, tool calls and replies in order. */
export function* exportMarkdown(db: Database.Database, filter: ExportFilter, now = new Date()): Generator<string> {
  const p = params(filter);
  const what = [p.project && `project ${p.project}`, p.host && `host ${p.host}`, p.since && `since ${p.since}`].filter(Boolean).join(', ');
  yield `# claude-mem export\n\nExported ${mdTime(now.toISOString())} UTC${what ? ` (${what})` : ''}.\n`;
  const summary = db.prepare('SELECT request, outcome, text FROM summaries WHERE session_id = ?');
  const rows = db.prepare(`SELECT * FROM (
      SELECT 'prompt' AS kind, r.created_at AS at, r.text AS title, NULL AS body, r.private AS priv, r.id FROM prompts r WHERE r.session_id = @id AND ${ROW_SINCE}
      UNION ALL SELECT 'observation', r.created_at, r.title, r.narrative, 0, r.id FROM observations r WHERE r.session_id = @id AND ${ROW_SINCE}
      UNION ALL SELECT 'assistant', r.created_at, r.text, NULL, 0, r.id FROM assistant_messages r WHERE r.session_id = @id AND ${ROW_SINCE}
    ) ORDER BY at, id`);
  for (const s of db.prepare(`SELECT s.* FROM sessions s WHERE ${SESSION_WHERE} ORDER BY s.started_at, s.id`).iterate(p) as Iterable<Row>) {
    const lines: string[] = [`\n## ${mdText(s.project)} · ${s.host} · ${mdTime(s.started_at)}${s.is_subagent ? ' (subagent)' : ''}\n`,
      `Session \`${String(s.host_session_id).replace(/`/g, '')}\`${s.ended_at ? `, ended ${mdTime(s.ended_at)}` : ''}.\n`];
    const m = summary.get(s.id) as { request: string; outcome: string } | undefined;
    if (m?.request) lines.push(`**Asked:** ${mdText(m.request)}\n`);
    if (m?.outcome) lines.push(`**Outcome:** ${mdText(m.outcome)}\n`);
    let any = false;
    for (const r of rows.iterate({ id: s.id, since: p.since }) as Iterable<{ kind: string; at: string; title: string; body: string | null; priv: number }>) {
      any = true;
      const label = r.kind === 'prompt' ? 'Prompt' : r.kind === 'assistant' ? 'Reply' : 'Tool';
      const text = r.kind === 'prompt' && r.priv ? '(private)' : mdText(r.title, '  ');
      // The details as a paragraph of their own inside the item.
      const body = r.body && r.body.trim() && r.body.trim() !== r.title.trim() ? `\n\n  ${mdText(r.body.trim(), '  ')}\n` : '';
      lines.push(`- ${mdTime(r.at)} **${label}:** ${text}${body}`);
    }
    if (!any && !m) continue;
    yield lines.join('\n');
  }
}
