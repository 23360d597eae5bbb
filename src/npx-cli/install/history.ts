/**
 * The installer's offer to import what the hosts already wrote: per host, how many past sessions
 * and how much disk, then (asked on a terminal, `--import-history` otherwise) the import of the
 * last 90 days with progress. Stopping it (Ctrl-C) keeps what was stored; `claude-mem
 * import-history` resumes it.
 */
import { HOST_LABELS, type HostId } from '../../shared/hosts.js';
import type { PlannedHost } from '../../worker/import/plan.js';
import type { ImportSummary } from '../../worker/import/run.js';
import { mb } from '../import/progress.js';
import { findHistory, runHistoryImport } from '../import/session.js';
import { eprintln, println } from '../output.js';
import type { Prompter } from './prompter.js';

export const DEFAULT_IMPORT_DAYS = 90;
const DAY_MS = 86_400_000;

export interface HistoryOffer {
  recent: PlannedHost[];
  all: PlannedHost[];
  sinceMs: number;
}

export async function findOffer(hosts: readonly HostId[], env: NodeJS.ProcessEnv, now = Date.now()): Promise<HistoryOffer> {
  const sinceMs = now - DEFAULT_IMPORT_DAYS * DAY_MS;
  const all = (await findHistory({ hosts, env })).filter((h) => h.sessions > 0);
  const recent = (await findHistory({ hosts: all.map((h) => h.host), sinceMs, env })).filter((h) => h.sessions > 0);
  return { recent, all, sinceMs };
}

export function offerLines(o: HistoryOffer): string[] {
  return o.all.map((h) => {
    const r = o.recent.find((x) => x.host === h.host);
    return `${HOST_LABELS[h.host]}: ${r?.sessions ?? 0} session(s), ${mb(r?.bytes ?? 0)} in the last ${DEFAULT_IMPORT_DAYS} days`
      + ` (${h.sessions}, ${mb(h.bytes)} in all)${h.verified ? '' : ' — format from documentation, unverified'}`;
  });
}

export function summaryLine(s: ImportSummary): string {
  const base = `Imported ${s.logs} past session(s): ${s.stored} event(s) stored, ${s.duplicates} already there, ${s.deadLetters} dead-lettered`;
  return s.stopped ? `${base}. Stopped — run \`claude-mem import-history --since ${DEFAULT_IMPORT_DAYS}d\` to resume.` : base;
}

/** Interactive: show the offer, ask (default: the last 90 days), import. Undefined when nothing was imported. */
export async function offerInteractively(p: Prompter, hosts: readonly HostId[], dataDir: string, env: NodeJS.ProcessEnv): Promise<ImportSummary | undefined> {
  const offer = await findOffer(hosts, env);
  if (!offer.all.length) return undefined;
  p.note(offerLines(offer).join('\n'), 'Past sessions on this machine');
  const answer = await p.select<'recent' | 'all' | 'skip'>({
    message: 'Import them into memory now?',
    options: [
      { value: 'recent', label: `Yes, the last ${DEFAULT_IMPORT_DAYS} days` },
      { value: 'all', label: 'Yes, everything' },
      { value: 'skip', label: 'No (later: claude-mem import-history)' },
    ],
    initialValue: 'recent',
  });
  if (p.isCancel(answer) || answer === 'skip') return undefined;
  const plan = answer === 'all' ? offer.all : offer.recent;
  const sum = await runHistoryImport({ plan, dataDir, progress: true, request: answer === 'all' ? {} : { sinceMs: offer.sinceMs } });
  (sum.stopped || sum.hosts.some((h) => h.failed.length) ? p.log.warn : p.log.success)(summaryLine(sum));
  return sum;
}

/** `--yes --import-history`: the last 90 days of the installed hosts, progress on stderr. */
export async function importAfterInstall(hosts: readonly HostId[], dataDir: string, env: NodeJS.ProcessEnv, json: boolean): Promise<ImportSummary> {
  const offer = await findOffer(hosts, env);
  if (!json) for (const l of offerLines(offer)) println(l);
  const sum = await runHistoryImport({ plan: offer.recent, dataDir, progress: true, request: { sinceMs: offer.sinceMs } });
  if (!json) (sum.stopped ? eprintln : println)(summaryLine(sum));
  for (const h of sum.hosts) for (const f of h.failed) eprintln(`import failed: ${f.log}: ${f.error}`);
  return sum;
}
