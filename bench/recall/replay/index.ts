/**
 * Replays a whole corpus into a scratch HOME: generated sessions as Claude Code plays them, the
 * captured host fixtures as captured, then waits until the worker has stored everything (spool
 * drained, counts still).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { StoreStats } from '../../../src/store/types.js';
import type { Corpus, FixtureReplay } from '../types.js';
import { scriptSession, type SessionScript } from './claude-code.js';
import { BIN, type ScratchHome } from './home.js';
import { Replayer, runHook, type HookRunStats } from './runner.js';

export interface ReplayOutcome {
  stats: HookRunStats;
  startContext: Map<string, string>;
  store: StoreCounts;
}

/** The store's own counts, as the worker's stats route gives them. */
export type StoreCounts = Pick<StoreStats, 'sessions' | 'prompts' | 'observations' | 'summaries' | 'events' | 'deadLetters'>;

async function stats(home: ScratchHome): Promise<{ store: StoreCounts; spool: { files: number } }> {
  const res = await fetch(`http://127.0.0.1:${home.port}/api/stats`, { headers: { authorization: `Bearer ${home.token}` } });
  if (!res.ok) throw new Error(`GET /api/stats answered ${res.status}`);
  return (await res.json()) as { store: StoreCounts; spool: { files: number } };
}

/** Until nothing waits in the spool and two looks a second apart agree (at most two minutes). */
async function settled(home: ScratchHome): Promise<StoreCounts> {
  let last = '';
  const until = Date.now() + 120_000;
  for (;;) {
    const s = await stats(home);
    const now = JSON.stringify(s.store);
    if (s.spool.files === 0 && now === last) return s.store;
    if (Date.now() > until) throw new Error(`the worker did not settle: ${s.spool.files} spool files left`);
    last = now;
    await new Promise((r) => setTimeout(r, 1000));
  }
}

async function replayFixture(f: FixtureReplay, home: ScratchHome, replayer: Replayer, at: number): Promise<void> {
  for (const file of f.files) {
    const path = join(home.root, file.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, file.content);
  }
  const cwd = join(home.root, 'projects', f.project);
  for (const [i, call] of f.calls.entries()) {
    const env: NodeJS.ProcessEnv = { ...home.env, ...call.env, HOME: home.root, CLAUDE_MEM_DATA_DIR: home.dataDir };
    if (replayer.simulatedClock) {
      env.NODE_OPTIONS = `--require ${home.clockShim}`;
      env.BENCH_CLOCK_AT = new Date(at + i * 2000).toISOString();
    }
    const command = `'${process.execPath}' '${BIN}' hook ${f.hostArg} ${call.event}`;
    const r = await runHook({ command, timeoutMs: 10_000 }, call.payload, cwd, env);
    replayer.count(r);
  }
}

export async function replayCorpus(
  corpus: Corpus, home: ScratchHome, opts: { parallel: number; simulatedClock: boolean; progress: (line: string) => void },
): Promise<ReplayOutcome> {
  const replayer = new Replayer(home, opts.simulatedClock);
  const lanes = new Map<string, SessionScript[]>();
  for (const s of [...corpus.sessions].sort((a, b) => a.start.localeCompare(b.start))) {
    const script = scriptSession(s, home.cwdOf(corpus.projects[s.project]), home.root);
    lanes.set(s.project, [...(lanes.get(s.project) ?? []), script]);
  }
  let done = 0;
  const total = corpus.sessions.length;
  const t0 = performance.now();
  await replayer.lanes([...lanes.values()].sort((a, b) => b.length - a.length), opts.parallel, () => {
    done++;
    if (done % 25 === 0 || done === total) opts.progress(`replayed ${done}/${total} sessions (${replayer.stats.runs} hook runs, ${Math.round((performance.now() - t0) / 1000)} s)`);
  });
  // After the generated sessions: the captures are the newest sessions of their project.
  const last = corpus.sessions.reduce((m, s) => Math.max(m, Date.parse(s.start)), Date.parse('2026-11-30T10:00:00Z'));
  for (const [i, f] of corpus.fixtures.entries()) await replayFixture(f, home, replayer, last + 86_400_000 + i * 600_000);
  const store = await settled(home);
  return { stats: replayer.stats, startContext: replayer.startContext, store };
}
