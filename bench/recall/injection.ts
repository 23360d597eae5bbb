/**
 * How many tokens each host's model is handed per injection, measured on the replayed memory.
 *
 * Hook hosts: each captured host session (test/fixtures/hosts/<host>/hooks*) runs again through
 * `claude-mem hook <host> <event>` inside the benchmark's projects — the host's own payloads and
 * variables, with its session id, directory and prompt replaced — for two turns: the session
 * start and first prompt, then a later prompt. What the hook prints is what the host puts before
 * the model; the injected text is the longest string of a JSON answer, or the plain text.
 * Plugin hosts (fixtures without hook captures) ask `GET /api/context` as their plugin does.
 * Tokens are estimated as the context builder budgets them: 4 characters a token.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { resolveHostId } from '../../src/shared/hosts.js';
import { FIXTURE_PROJECT, loadFixtures, repoRoot } from './fixtures.js';
import { BIN, type ScratchHome } from './replay/home.js';
import { runHook } from './replay/runner.js';
import type { Corpus, FixtureReplay, Question } from './types.js';

const CHARS_PER_TOKEN = 4;
const SESSIONS_PER_HOST = 6;
/** The worker's default budget (settings.json contextMaxTokens) and the prompt-time share of it. */
export const DEFAULT_BUDGET = 1500;
const PROMPT_SHARE = 1 / 3;

type Phase = 'start' | 'first' | 'later';

export interface InjectionRow {
  host: string;
  via: 'hook' | 'plugin';
  sessions: number;
  budget: number;
  /** Median and largest estimated tokens per session, by phase (0 when nothing was injected). */
  median: Record<Phase, number>;
  max: Record<Phase, number>;
  /** Sessions in which something was injected, by phase. */
  injected: Record<Phase, number>;
  /** Injections, and those over their budget (the whole budget for a session's first, the prompt share after it). */
  injections: number;
  overBudget: number;
}

const tokens = (text: string) => Math.ceil(text.length / CHARS_PER_TOKEN);

function longestString(v: unknown): string {
  if (typeof v === 'string') return v;
  const parts = Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : [];
  return parts.map(longestString).reduce((a, b) => (b.length > a.length ? b : a), '');
}

/** The text the host hands its model from what the hook printed. */
export function injectedText(stdout: string): string {
  const out = stdout.trim();
  if (!out) return '';
  try {
    return longestString(JSON.parse(out));
  } catch {
    return out;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : 0;
};

function promptOf(payload: Record<string, unknown>): string | undefined {
  const p = payload.prompt;
  if (typeof p === 'string') return p;
  if (Array.isArray(p)) return longestString(p) || undefined;
  return undefined;
}

interface Turns {
  /** Calls before the first prompt. */
  start: FixtureReplay['calls'];
  /** The first prompt and everything after it (tools, stop). */
  turn: FixtureReplay['calls'];
  prompt: string;
}

function splitTurns(f: FixtureReplay): Turns | undefined {
  const first = f.calls.findIndex((c) => promptOf(JSON.parse(c.payload) as Record<string, unknown>) !== undefined);
  if (first < 0) return undefined;
  return { start: f.calls.slice(0, first), turn: f.calls.slice(first), prompt: promptOf(JSON.parse(f.calls[first].payload) as Record<string, unknown>)! };
}

/** A fresh session id of the same shape as the captured one (its last hex digits replaced). */
function freshId(old: string, n: number): string {
  const tail = n.toString(16).padStart(8, '0');
  return /[0-9a-f]{8}$/i.test(old) ? old.slice(0, -8) + tail : `${old}-${tail}`;
}

const swap = (text: string, pairs: [string, string][]) => pairs.reduce((t, [a, b]) => t.split(a).join(b), text);
/** A replacement inside JSON text: the new value escaped as a JSON string body. */
const jsonBody = (s: string) => JSON.stringify(s).slice(1, -1);

interface Asked {
  project: string;
  cwd: string;
  prompts: [string, string];
}

/** Two questions of one project per session, round robin over the projects. */
function askingSessions(corpus: Corpus, home: ScratchHome, n: number): Asked[] {
  const byProject = new Map<string, Question[]>();
  for (const q of corpus.questions) if (q.project && q.project !== FIXTURE_PROJECT) byProject.set(q.project, [...(byProject.get(q.project) ?? []), q]);
  const lists = [...byProject.entries()].filter(([, qs]) => qs.length >= 2);
  const out: Asked[] = [];
  for (let i = 0; i < n && lists.length; i++) {
    const [key, qs] = lists[i % lists.length];
    const k = Math.floor(i / lists.length) * 2;
    out.push({ project: key, cwd: home.cwdOf(corpus.projects[key]), prompts: [qs[k % qs.length].asked, qs[(k + 1) % qs.length].asked] });
  }
  return out;
}

interface SessionUse {
  /** Tokens by phase, summed over the phase's injections. */
  used: Record<Phase, number>;
  /** Each injection's tokens, in order. */
  each: number[];
}

async function runHookSession(f: FixtureReplay, turns: Turns, a: Asked, n: number, home: ScratchHome, extraEnv: NodeJS.ProcessEnv): Promise<SessionUse> {
  const sid = freshId(f.sessionId, n);
  const fixtureCwd = join(home.root, 'projects', FIXTURE_PROJECT);
  const used: Record<Phase, number> = { start: 0, first: 0, later: 0 };
  const each: number[] = [];
  const run = async (calls: FixtureReplay['calls'], phase: Phase, prompt: string) => {
    const pairs: [string, string][] = [[f.sessionId, sid], [fixtureCwd, a.cwd], [jsonBody(turns.prompt), jsonBody(prompt)]];
    for (const call of calls) {
      const env = { ...home.env, ...Object.fromEntries(Object.entries(call.env).map(([k, v]) => [k, swap(v, pairs)])), ...extraEnv };
      const command = `'${process.execPath}' '${BIN}' hook ${f.hostArg} ${call.event}`;
      const r = await runHook({ command, timeoutMs: 10_000 }, swap(call.payload, pairs), a.cwd, env);
      const t = tokens(injectedText(r.stdout));
      used[phase] += t;
      if (t) each.push(t);
    }
  };
  await run(turns.start, 'start', a.prompts[0]);
  await run(turns.turn, 'first', a.prompts[0]);
  await run(turns.turn, 'later', a.prompts[1]);
  return { used, each };
}

async function pluginSession(host: string, a: Asked, n: number, home: ScratchHome): Promise<SessionUse> {
  const q = new URLSearchParams({ cwd: a.cwd, host, session: `bench-inject-${host}-${n}` });
  const res = await fetch(`http://127.0.0.1:${home.port}/api/context?${q}`, { headers: { authorization: `Bearer ${home.token}` } });
  const body = (await res.json()) as { text?: unknown };
  // The plugin fetches once per session and keeps it: nothing more at later prompts.
  const t = tokens(typeof body.text === 'string' ? body.text : '');
  return { used: { start: t, first: 0, later: 0 }, each: t ? [t] : [] };
}

function summarize(host: string, via: InjectionRow['via'], budget: number, sessions: SessionUse[]): InjectionRow {
  const phases: Phase[] = ['start', 'first', 'later'];
  const pick = (f: (xs: number[]) => number) => Object.fromEntries(phases.map((p) => [p, f(sessions.map((s) => s.used[p]))])) as Record<Phase, number>;
  // A session's first injection carries the project memory (at its start, or with the first
  // prompt on hosts that inject only then); each later one is prompt-time memory.
  const limit = (i: number) => (i === 0 ? budget : Math.floor(budget * PROMPT_SHARE));
  return {
    host, via, sessions: sessions.length, budget,
    median: pick(median), max: pick((xs) => Math.max(0, ...xs)), injected: pick((xs) => xs.filter((x) => x > 0).length),
    injections: sessions.reduce((n, s) => n + s.each.length, 0),
    overBudget: sessions.reduce((n, s) => n + s.each.filter((t, i) => t > limit(i)).length, 0),
  };
}

/** Fixture folders that hold no hook captures: hosts whose plugin asks for context. */
function pluginHosts(): string[] {
  const root = join(repoRoot(), 'test', 'fixtures', 'hosts');
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, d.name, 'context-injection')))
    .filter((d) => !readdirSync(join(root, d.name)).some((n) => n.startsWith('hooks')))
    .flatMap((d) => resolveHostId(d.name) ?? []);
}

/**
 * Per host: tokens injected at session start, with the first prompt and with a later prompt.
 * `budget` sets CLAUDE_MEM_CONTEXT_TOKENS for the hooks (plugins use the worker's default).
 */
export async function measureInjection(corpus: Corpus, home: ScratchHome, budget = DEFAULT_BUDGET, hostsOnly?: string[]): Promise<InjectionRow[]> {
  const asked = askingSessions(corpus, home, SESSIONS_PER_HOST);
  const extraEnv = budget === DEFAULT_BUDGET ? {} : { CLAUDE_MEM_CONTEXT_TOKENS: String(budget) };
  const rows: InjectionRow[] = [];
  let n = 0;
  for (const f of await loadFixtures(home.root)) {
    if (hostsOnly && !hostsOnly.includes(f.hostArg)) continue;
    const turns = splitTurns(f);
    if (!turns) continue;
    const sessions: SessionUse[] = [];
    for (const a of asked) sessions.push(await runHookSession(f, turns, a, ++n, home, extraEnv));
    rows.push(summarize(f.hostArg, 'hook', budget, sessions));
  }
  if (budget === DEFAULT_BUDGET && !hostsOnly) {
    for (const host of pluginHosts()) {
      const sessions: SessionUse[] = [];
      for (const a of asked) sessions.push(await pluginSession(host, a, ++n, home));
      rows.push(summarize(host, 'plugin', budget, sessions));
    }
  }
  return rows;
}

export function injectionTable(rows: InjectionRow[]): string {
  const cell = (r: InjectionRow, p: Phase) => (r.injected[p] ? `${r.median[p]} / ${r.max[p]} (${r.injected[p]}/${r.sessions})` : '—');
  const lines = rows.map((r) => `  ${r.host.padEnd(12)} ${r.via.padEnd(7)} ${String(r.budget).padStart(6)}  ${cell(r, 'start').padEnd(20)} ${cell(r, 'first').padEnd(20)} ${cell(r, 'later').padEnd(20)} ${r.overBudget}/${r.injections}`);
  return [
    'context injected per host (estimated tokens, median / max per session (sessions with any)):',
    `  ${'host'.padEnd(12)} ${'via'.padEnd(7)} ${'budget'.padStart(6)}  ${'session start'.padEnd(20)} ${'first prompt turn'.padEnd(20)} ${'later prompt turn'.padEnd(20)} over budget`,
    ...lines,
  ].join('\n');
}
