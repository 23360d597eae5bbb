/** Store rows → the tools' structured shapes and their compact text, ids always visible. */
import type { ContextResult, Observation, SearchHit, TimelineItem } from '../worker/store/types.js';
import type { ObservationOut, SearchResultOut, TimelineItemOut } from './schemas.js';

const str = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map(str).filter(Boolean) : []);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** "2025-01-31T14:03:22.123Z" → "2025-01-31 14:03". */
export function shortTime(iso: string): string {
  return iso.length >= 16 ? iso.slice(0, 16).replace('T', ' ') : iso;
}

function oneLine(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

/** Prompts and summaries have their own id spaces: label them so no one passes them as observation ids. */
function ref(kind: string, id: number): string {
  return kind === 'observation' ? `#${id}` : `${kind} #${id}`;
}

export function toSearchResult(h: SearchHit): SearchResultOut {
  const kind = h.kind === 'prompt' || h.kind === 'summary' ? h.kind : 'observation';
  return {
    kind, id: Number(h.id), title: str(h.title), snippet: str(h.snippet), type: str(h.type) || kind,
    host: str(h.host), project: str(h.project), session: str(h.hostSessionId), createdAt: str(h.createdAt),
  };
}

export function searchText(results: SearchResultOut[], query: string, project: string | undefined, offset: number): string {
  const where = project ? `project ${project}` : 'all projects';
  const what = query.trim() ? `"${query.trim()}"` : 'recent items';
  if (!results.length) return `No matches for ${what} in ${where}.${project ? ' Try project "*" to search every project.' : ''}`;
  const lines = [`${results.length} result(s) for ${what} in ${where}${offset ? ` (from ${offset})` : ''}, best first:`];
  for (const r of results) {
    const type = r.kind === 'observation' ? ` [${r.type}]` : '';
    lines.push(`${ref(r.kind, r.id)}${type} ${shortTime(r.createdAt)} ${r.host}${project ? '' : ` · ${r.project}`} — ${oneLine(r.title, 160)}`);
    const snippet = oneLine(r.snippet, 240);
    if (snippet && snippet !== oneLine(r.title, 240)) lines.push(`    ${snippet}`);
  }
  const obs = results.filter((r) => r.kind === 'observation').map((r) => r.id);
  if (obs.length) {
    lines.push('', `Next: mem_timeline {"anchor": ${obs[0]}} for what happened around a result; mem_get_observations {"ids": [${obs.slice(0, 5).join(', ')}]} for full details.`);
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
    const title = oneLine(i.title, 160);
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
