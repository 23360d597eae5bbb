/**
 * `claude-mem search` at work: through the worker (started if needed), or straight from the
 * database, read-only, when the worker cannot be reached. Loaded only when the command runs.
 */
import { existsSync } from 'node:fs';
import { dataPaths, type DataPaths } from '../../shared/paths.js';
import { workerError, workerRequest } from '../../shared/worker-client.js';
import { ensureWorker } from '../../shared/worker-start.js';
import type { SearchHit, SearchQuery } from '../../worker/store/types.js';
import { CliError, UsageError, eprintln, printJson, println, setExit, style } from '../output.js';

type Via = { via: 'worker' } | { via: 'database'; why: string };

async function viaWorker(paths: DataPaths, q: SearchQuery): Promise<{ hits: SearchHit[] } | { why: string }> {
  const w = await ensureWorker({ paths, waitMs: 5000 });
  if (!w.ok) return { why: w.reason };
  const params = new URLSearchParams();
  const put = (k: string, v: string | number | undefined) => v !== undefined && v !== '' && params.set(k, String(v));
  put('q', q.query); put('project', q.project); put('host', q.host); put('type', q.type); put('since', q.since);
  put('until', q.until); put('file', q.file); put('limit', q.limit); put('offset', q.offset);
  try {
    const res = await workerRequest<{ results?: SearchHit[] }>({
      port: w.port, auth: w.auth, path: `/api/search?${params}`, timeoutMs: 10_000,
    });
    if (res.status === 200 && Array.isArray(res.body?.results)) return { hits: res.body.results };
    const error = workerError(res.body);
    if (res.status === 400 && res.verified) throw new UsageError(error?.message ?? 'invalid search');
    return { why: `worker answered ${res.status}${error ? `: ${error.message}` : ''}` };
  } catch (err) {
    if (err instanceof CliError) throw err;
    return { why: (err as Error).message };
  }
}

async function viaDatabase(paths: DataPaths, q: SearchQuery): Promise<SearchHit[]> {
  if (!existsSync(paths.db)) return [];
  const { openStore } = await import('../../worker/store/sqlite-store.js');
  const store = openStore(paths.db, { readonly: true });
  try {
    return store.search(q);
  } finally {
    store.close();
  }
}

export function formatHit(h: SearchHit): string {
  const id = h.kind === 'observation' ? `#${h.id}` : `#${h.kind[0]}${h.id}`;
  const date = h.createdAt.slice(0, 16).replace('T', ' ');
  return `${style.bold(id.padEnd(7))}  ${style.dim(date)}  ${h.host.padEnd(11)}  ${h.title}`;
}

/** Runs a validated query (see commands/search.ts); `json` picks the output. */
export async function runSearch(q: SearchQuery, opts: { json?: boolean }): Promise<void> {
  const paths = dataPaths();
  let hits: SearchHit[];
  let via: Via;
  const w = await viaWorker(paths, q);
  if ('hits' in w) {
    hits = w.hits;
    via = { via: 'worker' };
  } else {
    hits = await viaDatabase(paths, q);
    via = { via: 'database', why: w.why };
    if (!opts.json) eprintln(style.dim(`(worker unavailable: ${w.why}; read the database directly)`));
  }
  if (opts.json) printJson({ ok: true, query: q, ...via, results: hits });
  else if (!hits.length) println(`No results for "${q.query}".`);
  else for (const h of hits) println(formatHit(h));
  setExit(0);
}
