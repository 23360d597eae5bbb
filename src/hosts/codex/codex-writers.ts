/**
 * Codex's writers: native hooks capture top-level sessions; its rollout transcript watch is kept
 * only for subagent sessions, and only with --codex-subagent-transcripts.
 */
import { resolve } from 'node:path';
import type { Change, JsonArrayUpsertChange } from '../../npx-cli/engine/index.js';
import type { WriterSettlement } from '../../npx-cli/hosts/types.js';

/** Forces `subagentOnly: true` on a watch entry (top-level sessions belong to the hooks). */
function subagentOnly(c: Change): Change {
  if (c.kind !== 'json-array-upsert' || typeof c.entry !== 'object' || c.entry === null) return c;
  return { ...c, entry: { ...(c.entry as Record<string, unknown>), subagentOnly: true } };
}

/** The subagent watch, built from the shipped schema (loaded only when it is wanted). */
async function subagentWatch(s: WriterSettlement): Promise<unknown> {
  if (s.input.codexSubagentWatch) return s.input.codexSubagentWatch();
  const { defaultWatch } = await import('../../transcripts/defaults.js');
  return defaultWatch('codex', { subagentOnly: true });
}

export async function settleCodexWriters(s: WriterSettlement): Promise<Change[]> {
  const { plan, input: inp, decision: d, changes } = s;
  if (plan.capture !== 'hooks') return changes; // no hooks (old Codex): the watch is the only writer
  const isWatch = (c: Change) => resolve(c.file) === inp.transcriptWatchPath;
  const watch = changes.filter(isWatch);
  const rest = changes.filter((c) => !isWatch(c));
  d.detail.push('top-level sessions: Codex native hooks');
  if (!inp.codexSubagentTranscripts) {
    d.detail.push('subagent sessions: not captured (add --codex-subagent-transcripts to read them from the rollout logs)');
    return rest;
  }
  d.detail.push('subagent sessions: rollout transcript watch (subagent sessions only)');
  d.overlaps.push({ with: 'codex:transcript', resolution: 'watch limited to subagent sessions; hooks own top-level sessions' });
  if (watch.length > 0) return [...rest, ...watch.map(subagentOnly)];
  const added: JsonArrayUpsertChange = {
    kind: 'json-array-upsert', file: inp.transcriptWatchPath, host: 'codex', path: ['watches'],
    match: [{ path: ['name'], equals: 'codex' }], entry: await subagentWatch(s),
  };
  return [...rest, added];
}
