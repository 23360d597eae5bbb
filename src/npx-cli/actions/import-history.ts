/** `claude-mem import-history` at work: plan, dry run or run, and the report. */
import { resolve } from 'node:path';
import { HOST_LABELS, type HostId } from '../../shared/hosts.js';
import { dataDir } from '../../shared/paths.js';
import type { PlannedHost } from '../../worker/import/plan.js';
import type { ImportSummary } from '../../worker/import/run.js';
import { mb } from '../import/progress.js';
import { findHistory, runHistoryImport } from '../import/session.js';
import { eprintln, printJson, println, setExit, style } from '../output.js';

/** The options of `claude-mem import-history` as commander gives them. */
export interface ImportHistoryOpts {
  ide?: string[];
  since?: string;
  project?: string;
  dryRun?: boolean;
  json?: boolean;
}

export interface ImportArgs extends ImportHistoryOpts { hosts?: HostId[]; sinceMs?: number }

export async function importHistory(a: ImportArgs): Promise<void> {
  const env = process.env;
  const plan = await findHistory({ hosts: a.hosts, sinceMs: a.sinceMs, project: a.project && resolve(a.project), env });
  if (a.dryRun) {
    if (a.json) printJson({ ok: true, dryRun: true, hosts: plan.map(planned) });
    else printPlan(plan);
    return;
  }
  if (!a.json) printPlan(plan);
  const project = a.project && resolve(a.project);
  const sum = await runHistoryImport({ plan, dataDir: dataDir(env), progress: !a.json || !!process.stderr.isTTY, request: { sinceMs: a.sinceMs, project } });
  const failed = sum.hosts.some((h) => h.failed.length > 0);
  if (a.json) printJson({ ok: !failed && !sum.stopped, dryRun: false, ...sum });
  else printSummary(sum);
  setExit(sum.stopped ? 130 : failed ? 1 : 0);
}

export function planned(h: PlannedHost) {
  return { host: h.host, label: HOST_LABELS[h.host], sessions: h.sessions, bytes: h.bytes, verified: h.verified };
}

export function planLine(h: PlannedHost): string {
  return `${HOST_LABELS[h.host]}: ${h.sessions} session(s), ${mb(h.bytes)}${h.verified ? '' : ' (format from documentation, unverified)'}`;
}

function printPlan(plan: PlannedHost[]): void {
  if (!plan.length) { println('No host has session logs to import here.'); return; }
  for (const h of plan) println(planLine(h));
}

export function printSummary(sum: ImportSummary): void {
  for (const h of sum.hosts) {
    println(`${HOST_LABELS[h.host]}: ${h.done}/${h.sessions} session(s) read, ${h.stored} event(s) stored, ${h.duplicates} already there, ${h.deadLetters} dead-lettered`);
    for (const f of h.failed) eprintln(`${style.red('failed')}: ${f.log}: ${f.error}`);
  }
  const rate = sum.elapsedMs > 0 ? ` (${(sum.read / 1e6 / (sum.elapsedMs / 1000)).toFixed(1)} MB/s)` : '';
  println(`${sum.stored} event(s) stored from ${mb(sum.read)} read in ${(sum.elapsedMs / 1000).toFixed(1)} s${rate}`);
  if (sum.stopped) eprintln(style.yellow('stopped: run the same command again to resume'));
}
