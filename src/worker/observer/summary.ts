/** The deterministic session summary: what was asked, what was touched, what ran, how it ended. */
import type { ObservationDraft, SessionDigest, SummaryDraft } from './types.js';
import { clip, cut, listInline, plural, uniqueBounded } from './text.js';

const MAX_TEXT = 1500;
const MAX_REQUEST = 400;
const MAX_OUTCOME = 400;
const MAX_FILES = 50;
const MAX_COMMANDS = 20;

/** The command of a `command` observation: the narrative's `$ …` line, else the title's backticks. */
function commandOf(o: ObservationDraft): string | undefined {
  const line = /^\$ (.+)$/m.exec(o.narrative ?? '');
  if (line) return line[1];
  return /`([^`]+)`/.exec(o.title)?.[1];
}

function isFailure(o: ObservationDraft): boolean {
  return o.concepts.includes('error') || o.facts.includes('failed');
}

function request(prompts: readonly string[]): string {
  const real = prompts.map((p) => clip(p, MAX_REQUEST)).filter(Boolean);
  if (real.length === 0) return '';
  // The first prompt states the task; the next two often refine it.
  const shown = real.slice(0, 3).join(' / ');
  const more = real.length > 3 ? ` (+${plural(real.length - 3, 'more prompt')})` : '';
  return clip(shown, MAX_REQUEST - more.length) + more;
}

function outcome(d: SessionDigest, obs: readonly ObservationDraft[], modified: number): string {
  const last = d.lastAssistantMessage?.trim();
  if (last) return clip(last, MAX_OUTCOME);
  const lastCmd = [...obs].reverse().find((o) => o.type === 'command');
  if (lastCmd) {
    const cmd = clip(commandOf(lastCmd) ?? lastCmd.title, 100);
    const exit = lastCmd.facts.find((f) => f.startsWith('exit code: '))?.slice(11);
    if (isFailure(lastCmd)) return `Last command \`${cmd}\` failed${exit && exit !== '0' ? ` (exit ${exit})` : ''}.`;
    return `Last command \`${cmd}\` succeeded.`;
  }
  if (modified > 0) return `Modified ${plural(modified, 'file')}.`;
  const lastObs = obs[obs.length - 1];
  if (lastObs) return clip(`Last step: ${lastObs.title}`, MAX_OUTCOME);
  return d.endReason ? `Session ended (${clip(d.endReason, 40)}) with no recorded activity.` : 'No activity recorded.';
}

function activity(obs: readonly ObservationDraft[]): string {
  const counts = new Map<string, number>();
  for (const o of obs) counts.set(o.type, (counts.get(o.type) ?? 0) + 1);
  const failed = obs.filter(isFailure).length;
  const parts = [...counts].sort((a, b) => b[1] - a[1]).map(([t, n]) => `${n} ${t}`);
  return parts.length ? `${parts.join(', ')}${failed ? `; ${failed} failed` : ''}` : '';
}

export function summarize(d: SessionDigest): SummaryDraft {
  const obs = Array.isArray(d.observations) ? d.observations.filter((o) => o && typeof o.title === 'string') : [];
  const prompts = Array.isArray(d.prompts) ? d.prompts.filter((p): p is string => typeof p === 'string') : [];
  const filesModified = uniqueBounded(obs.flatMap((o) => o.filesModified ?? []), MAX_FILES);
  const filesRead = uniqueBounded(obs.flatMap((o) => o.filesRead ?? []), MAX_FILES);
  const commands = uniqueBounded(
    obs.filter((o) => o.type === 'command').map((o) => clip(commandOf(o) ?? '', 200)),
    MAX_COMMANDS,
  );
  const req = request(prompts);
  const out = outcome(d, obs, filesModified.length);
  const act = activity(obs);

  const text = [
    req && `Request: ${req}`,
    `Outcome: ${out}`,
    filesModified.length > 0 && `Modified: ${listInline(filesModified, 12)}`,
    filesRead.length > 0 && `Read: ${listInline(filesRead, 10)}`,
    commands.length > 0 && `Commands: ${listInline(commands.map((c) => `\`${clip(c, 80)}\``), 8)}`,
    act && `Activity: ${act}`,
  ]
    .filter((l): l is string => typeof l === 'string' && l !== '')
    .join('\n');

  return { request: req, filesRead, filesModified, commands, outcome: out, text: cut(text, MAX_TEXT) };
}
