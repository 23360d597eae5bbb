/**
 * What a ranked session shows: its request and outcome (the summary, else its first prompt and
 * last reply), its best turns with their prompt and last reply, and the matching rows as evidence
 * with snippets. Fetched by id for the page being returned only.
 */
import type { HostId } from '../shared/hosts.js';
import type { ParsedQuery } from './fts-query.js';
import { parseList } from './rows.js';
import type { SessionGroup, TurnGroup, RankedRow } from './search-rank.js';
import { clip } from '../shared/text.js';
import { makeSnippet } from './snippet.js';
import type { StatementCache } from './statements.js';
import type { SearchEvidence, SearchResult, SearchTurn } from './types.js';

const TURNS_SHOWN = 3;
const EVIDENCE_PER_TURN = 3;
const FILES_SHOWN = 8;
const MAX_SNIPPET_CHARS = 300;
const MAX_TEXT_CHARS = 400;


interface DetailRow {
  title: string;
  f1: string | null;
  f2: string | null;
  f3: string | null;
  f4: string | null;
  files_read: string | null;
  files_modified: string | null;
  type: string;
}

// The title and text fields a snippet may come from (f1 is the fallback).
const DETAIL_SQL: Record<SearchEvidence['kind'], string> = {
  observation: `SELECT title, narrative AS f1, subtitle AS f2, facts AS f3, concepts AS f4, files_read, files_modified, type
    FROM observations WHERE id = ?`,
  prompt: `SELECT substr(text, 1, 400) AS title, text AS f1, NULL AS f2, NULL AS f3, NULL AS f4, NULL AS files_read,
    NULL AS files_modified, 'prompt' AS type FROM prompts WHERE id = ? AND private = 0`,
  assistant: `SELECT substr(text, 1, 400) AS title, text AS f1, NULL AS f2, NULL AS f3, NULL AS f4, NULL AS files_read,
    NULL AS files_modified, 'assistant' AS type FROM assistant_messages WHERE id = ?`,
  summary: `SELECT coalesce(nullif(request, ''), substr(text, 1, 400)) AS title, text AS f1, outcome AS f2, NULL AS f3, NULL AS f4,
    files_read, files_modified, 'summary' AS type FROM summaries WHERE id = ?`,
};

const words = (json: string | null): string | null => (json ? parseList(json).join('; ') || null : null);

export class ResultBuilder {
  constructor(private readonly stmts: StatementCache, private readonly q: ParsedQuery) {}

  build(s: SessionGroup): SearchResult | null {
    const session = this.stmts.get(`SELECT s.id, s.host, s.host_session_id, s.project, s.started_at, s.ended_at,
        d.name || ' (' || d.member || ')' AS from_device
      FROM sessions s LEFT JOIN sync_devices d ON d.device_id = s.origin WHERE s.id = ?`)
      .get(s.sessionId) as {
        host: string; host_session_id: string; project: string; started_at: string; ended_at: string | null; from_device: string | null;
      } | undefined;
    if (!session) return null;
    const summary = this.stmts.get('SELECT id, request, outcome FROM summaries WHERE session_id = ?').get(s.sessionId) as
      | { id: number; request: string; outcome: string }
      | undefined;
    const turns = s.turns.slice(0, TURNS_SHOWN).map((t) => this.turn(s.sessionId, t));
    const files = [...new Set(turns.flatMap((t) => t.evidence.flatMap((e) => e.files)))].slice(0, FILES_SHOWN);
    const first = this.stmts.get('SELECT text FROM prompts WHERE session_id = ? AND private = 0 ORDER BY number LIMIT 1')
      .pluck().get(s.sessionId) as string | undefined;
    const last = this.stmts.get('SELECT text FROM assistant_messages WHERE session_id = ? ORDER BY id DESC LIMIT 1')
      .pluck().get(s.sessionId) as string | undefined;
    return {
      sessionId: s.sessionId,
      hostSessionId: session.host_session_id,
      host: session.host as HostId,
      project: session.project,
      startedAt: session.started_at,
      endedAt: session.ended_at,
      from: session.from_device,
      summaryId: summary?.id ?? null,
      request: clip(summary?.request || first || '', MAX_TEXT_CHARS),
      outcome: clip(summary?.outcome || last || '', MAX_TEXT_CHARS),
      turns,
      files,
      createdAt: s.newest,
      score: Math.round(s.score * 1000) / 1000,
    };
  }

  private turn(sessionId: number, t: TurnGroup): SearchTurn {
    const prompt = t.promptNumber === null ? undefined
      : this.stmts.get('SELECT id, text FROM prompts WHERE session_id = ? AND number = ? AND private = 0').get(sessionId, t.promptNumber) as
        | { id: number; text: string }
        | undefined;
    const reply = t.promptNumber === null ? undefined
      : this.stmts.get('SELECT id, text FROM assistant_messages WHERE session_id = ? AND prompt_number = ? ORDER BY id DESC LIMIT 1')
        .get(sessionId, t.promptNumber) as { id: number; text: string } | undefined;
    return {
      promptNumber: t.promptNumber,
      promptId: prompt?.id ?? null,
      request: clip(prompt?.text ?? '', MAX_TEXT_CHARS),
      outcome: clip(reply?.text ?? '', MAX_TEXT_CHARS),
      outcomeId: reply?.id ?? null,
      evidence: t.rows.slice(0, EVIDENCE_PER_TURN).flatMap((r) => this.evidence(r) ?? []),
    };
  }

  private evidence(r: RankedRow): SearchEvidence | null {
    const row = this.stmts.get(DETAIL_SQL[r.kind]).get(r.id) as DetailRow | undefined;
    if (!row) return null;
    const fields = [row.title, row.f1, row.f2, words(row.f3), words(row.f4), words(row.files_read), words(row.files_modified)];
    const snippet = (this.q.terms.length ? makeSnippet(fields, this.q) : null) ?? row.f1 ?? row.title;
    return {
      kind: r.kind,
      id: r.id,
      type: row.type,
      title: clip(row.title || '(untitled)', 200),
      snippet: clip(snippet ?? '', MAX_SNIPPET_CHARS),
      promptNumber: r.kind === 'summary' ? null : r.promptNumber,
      files: [...parseList(row.files_modified), ...parseList(row.files_read)],
      createdAt: r.createdAt,
    };
  }
}
