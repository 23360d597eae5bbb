/**
 * Asking the product, the way people and models do: the worker's GET /api/search (what the CLI,
 * the MCP server and the plugins call), and `claude-mem search --json` for a sample of questions
 * to show both paths rank alike. The adapter reads the answer as a ranked list of sessions.
 */
import { spawnSync } from 'node:child_process';
import { BIN, type ScratchHome } from './replay/home.js';

/** One session in rank order, and the turn numbers the result pointed at, if it says. */
export interface RankedSession {
  hostSessionId: string;
  turns: number[];
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** The host session id of a result item: flat hits carry it, grouped items may nest it. */
function sessionIdOf(item: Obj): string | undefined {
  const nested = isObj(item.session) ? item.session : undefined;
  return str(item.hostSessionId) ?? str(nested?.hostSessionId) ?? str(item.sessionId) ?? str(nested?.id);
}

/** Turn numbers (1-based, as the store numbers prompts) an item names: `turn`, `promptNumber`, `turns[].number`. */
function turnsOf(item: Obj): number[] {
  const out: number[] = [];
  const add = (v: unknown) => {
    if (typeof v === 'number' && Number.isInteger(v)) out.push(v);
  };
  add(item.turn);
  add(item.promptNumber);
  if (isObj(item.turn)) add(item.turn.number);
  if (Array.isArray(item.turns)) for (const t of item.turns) if (isObj(t)) (add(t.number), add(t.turn), add(t.promptNumber));
  return out;
}

/**
 * Today's flat hit list (observations, prompts, summaries; deduplicated by session in rank
 * order) or a grouped list (`sessions: [...]`, or `results` whose items are sessions).
 */
export function rankedSessions(body: unknown): RankedSession[] {
  if (!isObj(body)) return [];
  const list = Array.isArray(body.sessions) ? body.sessions : Array.isArray(body.results) ? body.results : [];
  const order: RankedSession[] = [];
  const seen = new Map<string, RankedSession>();
  for (const item of list) {
    if (!isObj(item)) continue;
    const id = sessionIdOf(item);
    if (!id) continue;
    let entry = seen.get(id);
    if (!entry) {
      entry = { hostSessionId: id, turns: [] };
      seen.set(id, entry);
      order.push(entry);
    }
    entry.turns.push(...turnsOf(item));
  }
  return order;
}

export interface SearchAnswer {
  ranked: RankedSession[];
  ms: number;
  raw: unknown;
}

/** GET /api/search with the caller's project scope (none: all projects). */
export async function searchWorker(home: ScratchHome, query: string, project: string | undefined, limit: number): Promise<SearchAnswer> {
  const params = new URLSearchParams({ q: query, limit: String(limit) });
  if (project) params.set('project', project);
  const t0 = performance.now();
  const res = await fetch(`http://127.0.0.1:${home.port}/api/search?${params}`, { headers: { authorization: `Bearer ${home.token}` } });
  const raw = (await res.json()) as unknown;
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`GET /api/search answered ${res.status}: ${JSON.stringify(raw).slice(0, 300)}`);
  return { ranked: rankedSessions(raw), ms, raw };
}

/** `claude-mem search --json` run from the project directory, as a developer would. */
export function searchCli(home: ScratchHome, query: string, project: string | undefined, cwd: string, limit: number): RankedSession[] {
  const args = [BIN, 'search', '--json', '--limit', String(limit), ...(project ? ['--project', project] : []), '--', query];
  const r = spawnSync(process.execPath, args, { env: home.env, cwd, encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`claude-mem search exited ${r.status}: ${r.stderr}`);
  return rankedSessions(JSON.parse(r.stdout) as unknown);
}
