/** Store rows → the tools' structured shapes and their compact text, ids always visible. */
import type { ContextResult, Observation, SearchAnswer, SearchEvidence, SearchResult, TimelineItem } from '../store/types.js';
import { clip } from '../shared/text.js';
import type { EvidenceOut, ObservationOut, SearchResultOut, TimelineItemOut } from './schemas.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map(str).filter(Boolean) : []);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** "2025-01-31T14:03:22.123Z" → "2025-01-31 14:03". */
function shortTime(iso: string): string {
  return iso.length >= 16 ? iso.slice(0, 16).replace('T', ' ') : iso;
}

/** What mem_search tells a model (the MCP server and the native plugins say the same). */
export const SEARCH_DESCRIPTION =
  'Search the memory shared by every coding agent on this machine: what earlier sessions were asked, what they found and decided, '
  + 'the commands they ran and the files they read and changed. Use it before starting work to learn how something was done before, '
  + 'why a decision was made or what failed last time. Search with a few distinctive words (names, errors, files, tools), not a whole '
  + 'sentence; if nothing fits, try other words. Returns sessions, best first, each with what was asked, how it ended and the matching '
  + 'observations as evidence, in the current project unless "project" says otherwise. Then: mem_timeline {anchor: id} for what '
  + 'happened around an observation, mem_get_observations {ids} for the full details of only the ones that matter.';

/** Prompts, replies and summaries have their own id spaces: label them so no one passes them as observation ids. */
function ref(kind: string, id: number): string {
  return kind === 'observation' ? `#${id}` : `${kind === 'assistant' ? 'reply' : kind} #${id}`;
}

const EVIDENCE_KINDS = ['observation', 'prompt', 'assistant', 'summary'] as const;

function toEvidence(e: SearchEvidence): EvidenceOut {
  const kind = (EVIDENCE_KINDS as readonly string[]).includes(e.kind) ? e.kind : 'observation';
  return {
    kind, id: Number(e.id), type: str(e.type) || kind, title: str(e.title), snippet: str(e.snippet),
    promptNumber: num(e.promptNumber), files: strs(e.files), createdAt: str(e.createdAt),
  };
}

function toSearchResult(r: SearchResult): SearchResultOut {
  return {
    session: str(r.hostSessionId), sessionId: Number(r.sessionId), host: str(r.host), project: str(r.project),
    startedAt: str(r.startedAt), endedAt: r.endedAt ? str(r.endedAt) : null, summaryId: num(r.summaryId),
    request: str(r.request), outcome: str(r.outcome), files: strs(r.files), createdAt: str(r.createdAt),
    turns: (Array.isArray(r.turns) ? r.turns : []).map((t) => ({
      promptNumber: num(t.promptNumber), promptId: num(t.promptId), request: str(t.request), outcome: str(t.outcome),
      outcomeId: num(t.outcomeId), evidence: (Array.isArray(t.evidence) ? t.evidence : []).map(toEvidence),
    })),
  };
}

export function toSearchResults(a: SearchAnswer | undefined): { results: SearchResultOut[]; widened: boolean } {
  return { results: (Array.isArray(a?.results) ? a.results : []).map(toSearchResult), widened: a?.widened === true };
}

function evidenceLine(e: EvidenceOut): string {
  const type = e.kind === 'observation' ? ` [${e.type}]` : '';
  const title = clip(e.title, 120);
  const snippet = clip(e.snippet, 200);
  const tail = snippet && snippet.replace(/\*\*/g, '') !== title ? ` — ${snippet}` : '';
  return `   ${ref(e.kind, e.id)}${type} ${e.kind === 'observation' ? title : ''}${tail}`.replace(/\s+—/, ' —');
}

function resultLines(r: SearchResultOut, i: number, showProject: boolean): string[] {
  const lines = [`${i + 1}. session ${r.session} · ${r.host} · ${shortTime(r.startedAt)}${showProject ? ` · ${r.project}` : ''}${r.summaryId ? ` · summary #${r.summaryId}` : ''}`];
  if (r.request) lines.push(`   Asked: ${clip(r.request, 200)}`);
  if (r.outcome) lines.push(`   Outcome: ${clip(r.outcome, 240)}`);
  for (const t of r.turns) {
    if (t.promptNumber !== null && t.request && clip(t.request, 200) !== clip(r.request, 200)) {
      lines.push(`   Turn ${t.promptNumber}: ${clip(t.request, 160)}`);
    }
    for (const e of t.evidence) if (!(e.kind === 'prompt' && e.id === t.promptId) && e.kind !== 'summary') lines.push(evidenceLine(e));
  }
  if (r.files.length) lines.push(`   Files: ${r.files.slice(0, 6).join(', ')}`);
  return lines;
}

export function searchText(results: SearchResultOut[], query: string, project: string | undefined, offset: number, widened = false): string {
  const where = widened ? `all projects (nothing in ${project})` : project ? `project ${project}` : 'all projects';
  const what = query.trim() ? `"${query.trim()}"` : 'recent sessions';
  if (!results.length) {
    return `No matches for ${what} in ${where}.${project && !widened ? ' Try project "*" to search every project, or fewer, more distinctive words.' : ' Try fewer, more distinctive words.'}`;
  }
  const lines = [`${results.length} session(s) for ${what} in ${where}${offset ? ` (from ${offset})` : ''}, best first:`];
  results.forEach((r, i) => lines.push('', ...resultLines(r, i + offset, !project || widened)));
  const obs = results.flatMap((r) => r.turns.flatMap((t) => t.evidence.filter((e) => e.kind === 'observation').map((e) => e.id)));
  lines.push('');
  if (obs.length) {
    lines.push(`Next: mem_timeline {"anchor": ${obs[0]}} for what happened around a result; mem_get_observations {"ids": [${obs.slice(0, 5).join(', ')}]} for full details.`);
  } else {
    lines.push(`Next: mem_timeline {"session": "${results[0].session}"} for what happened in a session.`);
  }
  return lines.join('\n');
}

export function toTimelineItem(i: TimelineItem): TimelineItemOut {
  const kinds = ['observation', 'prompt', 'summary', 'session_start', 'session_end'] as const;
  const kind = (kinds as readonly string[]).includes(i.kind) ? i.kind : 'observation';
  return {
    kind, id: Number(i.id), title: str(i.title), host: str(i.host), session: str(i.hostSessionId),
    project: str(i.project), createdAt: str(i.createdAt),
  };
}

export function timelineText(items: TimelineItemOut[], anchor: number | undefined, scope: string): string {
  if (!items.length) return anchor ? `Observation #${anchor} was not found.` : `Nothing recorded for ${scope}.`;
  const lines = [`Timeline ${anchor ? `around #${anchor}` : `of ${scope}`}, oldest first:`];
  let session = '';
  for (const i of items) {
    if (i.session !== session) {
      session = i.session;
      lines.push(`— session ${i.session} (${i.host} · ${i.project})`);
    }
    const mark = anchor !== undefined && i.kind === 'observation' && i.id === anchor ? '→ ' : '  ';
    const label = i.kind === 'session_start' ? 'session started' : i.kind === 'session_end' ? 'session ended' : ref(i.kind, i.id);
    const title = clip(i.title, 160);
    lines.push(`${mark}${shortTime(i.createdAt)} ${label}${title ? ` — ${title}` : ''}`);
  }
  lines.push('', 'Use mem_get_observations with the # ids for details.');
  return lines.join('\n');
}

export function toObservation(o: Observation): ObservationOut {
  return {
    id: Number(o.id), type: str(o.type), title: str(o.title), subtitle: o.subtitle ? str(o.subtitle) : null,
    narrative: str(o.narrative), facts: strs(o.facts), filesRead: strs(o.filesRead), filesModified: strs(o.filesModified),
    concepts: strs(o.concepts), toolName: o.toolName ? str(o.toolName) : null, host: str(o.host),
    session: str(o.hostSessionId), project: str(o.project), promptNumber: num(o.promptNumber), createdAt: str(o.createdAt),
  };
}

export function observationText(o: ObservationOut): string {
  const lines = [`#${o.id} [${o.type}] ${o.title}`];
  if (o.subtitle) lines.push(o.subtitle);
  lines.push(`${shortTime(o.createdAt)} · ${o.host} · session ${o.session}${o.promptNumber ? ` · prompt ${o.promptNumber}` : ''} · ${o.project}`);
  if (o.toolName) lines.push(`Tool: ${o.toolName}`);
  if (o.narrative) lines.push('', o.narrative);
  if (o.facts.length) lines.push('', 'Facts:', ...o.facts.map((f) => `- ${f}`));
  if (o.filesRead.length) lines.push(`Files read: ${o.filesRead.join(', ')}`);
  if (o.filesModified.length) lines.push(`Files modified: ${o.filesModified.join(', ')}`);
  if (o.concepts.length) lines.push(`Concepts: ${o.concepts.join(', ')}`);
  return lines.join('\n');
}

export function observationsText(list: ObservationOut[], missing: number[]): string {
  const parts = list.map(observationText);
  if (missing.length) parts.push(`Not found: ${missing.map((id) => `#${id}`).join(', ')}`);
  return parts.join('\n\n---\n\n') || 'Nothing found.';
}

export function contextText(c: ContextResult): string {
  return c.text.trim() ? c.text : `No stored memory for project ${c.project} yet.`;
}
