/**
 * `claude-mem forget` at work: says what would go (always), asks on a terminal unless --yes, then
 * forgets through the worker when it runs, else in the database directly. --purge then rewrites
 * the database file. Loaded only when the command runs.
 */
import { dataPaths } from '../../shared/paths.js';
import type { ForgetCounts, ForgetItem, ForgetResult, ForgetTarget, PurgeResult } from '../../store/types.js';
import { eprintln, printJson, println, setExit, style, UsageError } from '../output.js';
import { asUsage, runningWorker, withStore, workerPost } from './memory-access.js';

export interface ForgetOptions {
  dryRun: boolean;
  yes: boolean;
  purge: boolean;
  json: boolean;
}

type Outcome = ForgetResult & { purge: PurgeResult | null; via: 'worker' | 'database' };

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export function describeCounts(c: ForgetCounts): string {
  const parts = [
    c.sessions && plural(c.sessions, 'session'),
    c.observations && plural(c.observations, 'observation'),
    c.prompts && plural(c.prompts, 'prompt'),
    c.assistantMessages && plural(c.assistantMessages, 'reply', 'replies'),
    c.summaries && plural(c.summaries, 'summary', 'summaries'),
    c.events && plural(c.events, 'captured event'),
    c.pins && plural(c.pins, 'pin'),
    c.deadLetters && plural(c.deadLetters, 'dead letter'),
  ].filter(Boolean);
  const rewritten = c.summariesRewritten ? `; ${plural(c.summariesRewritten, 'summary', 'summaries')} written again without it` : '';
  return (parts.join(', ') || 'nothing') + rewritten;
}

function itemLine(i: ForgetItem): string {
  const id = i.kind === 'session' ? `session ${i.hostSessionId}` : i.kind === 'observation' ? `#${i.id}` : `#${i.kind[0]}${i.id}`;
  return `  ${style.dim(id.padEnd(10))} ${i.createdAt.slice(0, 16).replace('T', ' ')}  ${i.host}  ${i.title || style.dim('(no text)')}`;
}

const mb = (n: number): string => `${(n / 1024 / 1024).toFixed(1)} MB`;

async function forgetVia(target: ForgetTarget, dryRun: boolean, purge: boolean): Promise<Outcome | undefined> {
  const paths = dataPaths();
  const w = await runningWorker(paths);
  if (w) return { ...(await workerPost<Outcome>(w, '/api/forget', { ...target, dryRun, purge })), via: 'worker' };
  return withStore(paths, { readonly: false }, (s): Outcome => {
    try {
      const result = s.forget(target, { dryRun });
      return { ...result, purge: purge && !dryRun ? s.purge() : null, via: 'database' };
    } catch (err) {
      return asUsage(err);
    }
  });
}

async function confirm(preview: ForgetResult): Promise<boolean> {
  const p = await import('@clack/prompts');
  const ok = await p.confirm({ message: `Forget ${describeCounts(preview.counts)}? This cannot be undone.`, initialValue: false });
  if (p.isCancel(ok) || !ok) {
    p.cancel('Cancelled. Nothing was forgotten.');
    return false;
  }
  return true;
}

export async function runForget(target: ForgetTarget, o: ForgetOptions): Promise<void> {
  const terminal = !!process.stdin.isTTY && !!process.stdout.isTTY;
  if (o.json && terminal && !o.yes && !o.dryRun) throw new UsageError('--json on a terminal needs --yes or --dry-run: JSON output has no room for a question');
  const preview = await forgetVia(target, true, false);
  const empty = !preview || !preview.items.length;
  if (o.json && (o.dryRun || empty)) {
    printJson({ ok: true, ...(preview ?? { dryRun: true, counts: null, items: [], truncated: false, tombstones: 0 }), dryRun: true });
    return setExit(0);
  }
  if (empty) {
    println('Nothing matches: nothing to forget.');
    return setExit(0);
  }
  if (!o.json) {
    println(`${o.dryRun ? 'Would forget' : 'To forget'}: ${describeCounts(preview.counts)}.`);
    for (const i of preview.items) println(itemLine(i));
    if (preview.truncated) println(style.dim(`  … and more (${preview.items.length} listed)`));
  }
  if (o.dryRun) return setExit(0);
  // A terminal asks; a script (no terminal) said what it wants by running the command.
  if (!o.yes && terminal && !(await confirm(preview))) return setExit(1);
  const done = (await forgetVia(target, false, o.purge))!;
  if (o.json) {
    printJson({ ok: true, ...done });
    return setExit(0);
  }
  println(`Forgotten: ${describeCounts(done.counts)}. ${plural(done.tombstones, 'tombstone')} ${done.tombstones === 1 ? 'keeps' : 'keep'} it from coming back.`);
  if (done.purge) {
    const p = done.purge;
    println(`Database rewritten: ${mb(p.before.db + p.before.wal)} -> ${mb(p.after.db + p.after.wal)}.`);
    if (!p.walTruncated) eprintln('The write-ahead log could not be emptied while another process reads the database; stop it, then run claude-mem forget --purge again.');
  }
  setExit(0);
}

/** `claude-mem forget --purge` alone: rewrites the database file (after an earlier forget). */
export async function runPurge(o: { json: boolean }): Promise<void> {
  const paths = dataPaths();
  const w = await runningWorker(paths);
  const p = w ? await workerPost<PurgeResult>(w, '/api/purge', undefined) : await withStore(paths, { readonly: false }, (s) => s.purge());
  if (o.json) {
    printJson({ ok: true, purge: p ?? null });
    return setExit(0);
  }
  if (!p) {
    println('There is no database yet: nothing to purge.');
    return setExit(0);
  }
  println(`Database rewritten: ${mb(p.before.db + p.before.wal)} -> ${mb(p.after.db + p.after.wal)}.`);
  if (!p.walTruncated) eprintln('The write-ahead log could not be emptied while another process reads the database; stop it, then run claude-mem forget --purge again.');
  setExit(0);
}
