/** Assembles an ObservationDraft and enforces every bound in one place. */
import type { CaptureEvent } from '../shared/capture-event.js';
import { mergeConcepts } from './concepts.js';
import type { ObservationDraft, ObservationType } from './types.js';
import { clip, cut, LIMITS, relPath, uniqueBounded } from './text.js';

interface DraftParts {
  type: ObservationType;
  title: string;
  subtitle?: string | null;
  /** Narrative lines; empty ones are skipped. */
  lines: Array<string | undefined | false>;
  facts?: Array<string | undefined | false>;
  filesRead?: string[];
  filesModified?: string[];
  concepts?: string[];
}

const MAX_CONCEPTS = 8;

/** True when the event or the response says the call failed. */
export function didFail(e: CaptureEvent, exitCode?: number, failed?: boolean): boolean {
  return e.toolFailed === true || failed === true || (exitCode !== undefined && exitCode !== 0);
}

export function buildDraft(e: CaptureEvent, p: DraftParts): ObservationDraft {
  const narrative = p.lines.filter((l): l is string => typeof l === 'string' && l.trim() !== '').join('\n');
  const facts = (p.facts ?? [])
    .filter((f): f is string => typeof f === 'string' && f.trim() !== '')
    .map((f) => clip(f, LIMITS.fact));
  const rel = (list: string[] | undefined): string[] => uniqueBounded((list ?? []).map((f) => relPath(f, e.cwd)));
  return {
    type: p.type,
    title: clip(p.title, LIMITS.title),
    subtitle: p.subtitle ? clip(p.subtitle, LIMITS.subtitle) : null,
    narrative: cut(narrative, LIMITS.narrative),
    facts: uniqueBounded(facts, LIMITS.facts),
    filesRead: rel(p.filesRead),
    filesModified: rel(p.filesModified),
    concepts: mergeConcepts(MAX_CONCEPTS, p.concepts ?? []),
    toolName: e.toolName ?? e.rawToolName ?? null,
    toolUseId: e.toolUseId ?? null,
  };
}

export function durationFact(ms: number | undefined): string | undefined {
  if (ms === undefined || ms < 0) return undefined;
  return ms < 1000 ? `duration: ${Math.round(ms)} ms` : `duration: ${(ms / 1000).toFixed(1)} s`;
}
