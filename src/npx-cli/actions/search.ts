/**
 * `claude-mem search` at work: through the worker (started if needed), or straight from the
 * database, read-only, when the worker cannot be reached. Loaded only when the command runs.
 * Without --project or --all-projects it searches the project of the current directory, and every
 * project when that one has no match (and says so).
 */
import { DirectReader } from '../../mcp/direct-reader.js';
import { RequestRejectedError, WorkerUnavailableError } from '../../mcp/reader.js';
import { WorkerReader } from '../../mcp/worker-reader.js';
import { dataPaths, type DataPaths } from '../../shared/paths.js';
import { ensureWorker } from '../../shared/worker-start.js';
import { projectFor } from '../../worker/project.js';
import type { SearchAnswer, SearchEvidence, SearchQuery, SearchResult } from '../../store/types.js';
import { clip } from '../../shared/text.js';
import { UsageError, eprintln, printJson, println, setExit, style } from '../output.js';

type Via = { via: 'worker' } | { via: 'database'; why: string };

/** Through the worker's reader (signed, proven answers), the worker started first if it is down. */
async function viaWorker(paths: DataPaths, q: SearchQuery): Promise<{ answer: SearchAnswer } | { why: string }> {
  const w = await ensureWorker({ paths, waitMs: 5000 });
  if (!w.ok) return { why: w.reason };
  try {
    return { answer: (await new WorkerReader(paths, 10_000).search(q)).value };
  } catch (err) {
    if (err instanceof RequestRejectedError) throw new UsageError(err.message || 'invalid search');
    if (err instanceof WorkerUnavailableError) return { why: err.message };
    throw err;
  }
}

/** Straight from the database file, read-only: the same reader MCP falls back to. */
async function viaDatabase(paths: DataPaths, q: SearchQuery): Promise<SearchAnswer> {
  return (await new DirectReader(paths, () => q.project ?? projectFor(process.cwd())).search(q)).value;
}

const when = (iso: string): string => iso.slice(0, 16).replace('T', ' ');

/** An evidence row's id as the CLI shows it: `#12` for observations, `#p3`, `#a7`, `#s2` for the others. */
export function evidenceId(e: Pick<SearchEvidence, 'kind' | 'id'>): string {
  return e.kind === 'observation' ? `#${e.id}` : `#${e.kind[0]}${e.id}`;
}

export function formatResult(r: SearchResult, showProject: boolean): string[] {
  const from = r.from ? `  from ${r.from}` : '';
  const out = [`${style.bold(`session ${r.hostSessionId}`)}  ${style.dim(when(r.startedAt))}  ${r.host}${from}${showProject ? `  ${style.dim(r.project)}` : ''}`];
  if (r.request) out.push(`  asked:   ${clip(r.request, 160)}`);
  if (r.outcome) out.push(`  outcome: ${clip(r.outcome, 160)}`);
  for (const t of r.turns) {
    for (const e of t.evidence) {
      if (e.kind === 'prompt' && clip(e.title, 160) === clip(r.request, 160)) continue;
      const text = e.kind === 'observation' ? e.title : e.snippet.replace(/\*\*/g, '');
      out.push(`  ${style.dim(evidenceId(e).padEnd(7))} ${clip(text, 150)}`);
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
