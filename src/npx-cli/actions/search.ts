/**
 * `claude-mem search` at work: through the worker (started if needed), or straight from the
 * database, read-only, when the worker cannot be reached. Loaded only when the command runs.
 * Without --project or --all-projects it searches the project of the current directory, and every
 * project when that one has no match (and says so).
 */
import { existsSync } from 'node:fs';
import { dataPaths, type DataPaths } from '../../shared/paths.js';
import { searchParams } from '../../shared/search-params.js';
import { workerError, workerRequest } from '../../shared/worker-client.js';
import { ensureWorker } from '../../shared/worker-start.js';
import { projectFor } from '../../worker/project.js';
import type { SearchAnswer, SearchEvidence, SearchQuery, SearchResult } from '../../worker/store/types.js';
import { CliError, UsageError, eprintln, printJson, println, setExit, style } from '../output.js';

type Via = { via: 'worker' } | { via: 'database'; why: string };

async function viaWorker(paths: DataPaths, q: SearchQuery): Promise<{ answer: SearchAnswer } | { why: string }> {
  const w = await ensureWorker({ paths, waitMs: 5000 });
  if (!w.ok) return { why: w.reason };
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(searchParams(q))) if (v !== undefined && v !== '') params.set(k, String(v));
  try {
    const res = await workerRequest<SearchAnswer>({ port: w.port, auth: w.auth, path: `/api/search?${params}`, timeoutMs: 10_000 });
    if (res.status === 200 && Array.isArray(res.body?.results)) return { answer: res.body };
    const error = workerError(res.body);
    if (res.status === 400 && res.verified) throw new UsageError(error?.message ?? 'invalid search');
    return { why: `worker answered ${res.status}${error ? `: ${error.message}` : ''}` };
  } catch (err) {
    if (err instanceof CliError) throw err;
    return { why: (err as Error).message };
  }
}

async function viaDatabase(paths: DataPaths, q: SearchQuery): Promise<SearchAnswer> {
  if (!existsSync(paths.db)) return { results: [], project: q.project ?? null, widened: false };
  const { openStore } = await import('../../worker/store/sqlite-store.js');
  const store = openStore(paths.db, { readonly: true });
  try {
    return store.search(q);
  } finally {
    store.close();
  }
}

const when = (iso: string): string => iso.slice(0, 16).replace('T', ' ');
const line = (s: string, max: number): string => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
};

/** An evidence row's id as the CLI shows it: `#12` for observations, `#p3`, `#a7`, `#s2` for the others. */
export function evidenceId(e: Pick<SearchEvidence, 'kind' | 'id'>): string {
  return e.kind === 'observation' ? `#${e.id}` : `#${e.kind[0]}${e.id}`;
}

export function formatResult(r: SearchResult, showProject: boolean): string[] {
  const from = r.from ? `  from ${r.from}` : '';
  const out = [`${style.bold(`session ${r.hostSessionId}`)}  ${style.dim(when(r.startedAt))}  ${r.host}${from}${showProject ? `  ${style.dim(r.project)}` : ''}`];
  if (r.request) out.push(`  asked:   ${line(r.request, 160)}`);
  if (r.outcome) out.push(`  outcome: ${line(r.outcome, 160)}`);
  for (const t of r.turns) {
    for (const e of t.evidence) {
      if (e.kind === 'prompt' && line(e.title, 160) === line(r.request, 160)) continue;
      const text = e.kind === 'observation' ? e.title : e.snippet.replace(/\*\*/g, '');
      out.push(`  ${style.dim(evidenceId(e).padEnd(7))} ${line(text, 150)}`);
    }
  }
  if (r.files.length) out.push(`  files:   ${r.files.slice(0, 6).join(', ')}`);
  return out;
}

/** Runs a validated query (see commands/search.ts). */
export async function runSearch(query: SearchQuery, opts: { json?: boolean; allProjects?: boolean }): Promise<void> {
  const paths = dataPaths();
  const scoped = !opts.allProjects && query.project === undefined;
  const q: SearchQuery = scoped ? { ...query, project: projectFor(process.cwd()), widen: true } : query;
  let answer: SearchAnswer;
  let via: Via;
  const w = await viaWorker(paths, q);
  if ('answer' in w) {
    answer = w.answer;
    via = { via: 'worker' };
  } else {
    answer = await viaDatabase(paths, q);
    via = { via: 'database', why: w.why };
    if (!opts.json) eprintln(style.dim(`(worker unavailable: ${w.why}; read the database directly)`));
  }
  if (opts.json) {
    printJson({ ok: true, query: q, ...via, project: answer.project, widened: answer.widened, results: answer.results });
  } else if (!answer.results.length) {
    const where = q.project && !q.widen ? ` in ${q.project} (try --all-projects)` : '';
    println(`No results for "${q.query}"${where}. Try fewer, more distinctive words.`);
  } else {
    if (answer.widened) println(style.dim(`Nothing in ${q.project}; results from every project:`));
    for (const r of answer.results) for (const l of formatResult(r, answer.project === null)) println(l);
  }
  setExit(0);
}
