/**
 * The deterministic session summary: what was asked, what the replies found (causes, decisions),
 * what was changed and run, how it ended.
 */
import type { ObservationDraft, SessionDigest, SummaryDraft } from './types.js';
import { clip, cut, listInline, plural, uniqueBounded } from './text.js';

const MAX_TEXT = 2000;
const MAX_FINDINGS = 4;
const MAX_FINDING = 220;
// Sentences of a reply that state a cause, a fix or a decision: what a person asks about later.
const FINDING_RE = /\b(because|caused?|root cause|the (?:issue|problem|bug|reason) (?:is|was)|turned out|due to|fixed|fixes|the fix|decided|decision|we(?:'ll| will) use|switched|instead of|prefer|agreed|chose|so that|works now|no longer)\b/i;
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

function sentences(text: string): string[] {
  return text
    .replace(/```[\s\S]*?```/g, ' ')
    .split(/(?<=[.!?])\s+|\n+/)
    .map((x) => x.replace(/^[\s>*#-]+|\*\*/g, '').trim())
    .filter((x) => x.length >= 12);
}

/** Up to four sentences of the replies that say what was found or decided, earliest first. */
function findings(messages: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of messages) {
    for (const x of sentences(m)) {
      if (!FINDING_RE.test(x)) continue;
      const c = clip(x, MAX_FINDING);
      if (seen.has(c.toLowerCase())) continue;
      seen.add(c.toLowerCase());
      out.push(c);
      if (out.length >= MAX_FINDINGS) return out;
    }
  }
  return out;
}

/** How the session ended, in the last reply's own first sentences. */
function lastReply(text: string): string {
  const lead = sentences(text).slice(0, 3).join(' ');
  return clip(lead || text, MAX_OUTCOME);
}

function outcome(d: SessionDigest, obs: readonly ObservationDraft[], modified: number): string {
  const messages = Array.isArray(d.assistantMessages) ? d.assistantMessages.filter((m) => typeof m === 'string') : [];
  const last = (d.lastAssistantMessage ?? messages[messages.length - 1])?.trim();
  if (last) return lastReply(last);
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
  const messages = Array.isArray(d.assistantMessages) ? d.assistantMessages.filter((m): m is string => typeof m === 'string') : [];
  const found = findings(messages).filter((f) => !out.includes(f.replace(/…$/, '')));

  const text = [
    req && `Request: ${req}`,
    found.length > 0 && `Found: ${found.join(' ')}`,
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
