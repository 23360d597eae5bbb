/**
 * `npm run bench:recall`: can a later session find what earlier sessions did? Replays a corpus
 * through the real hook path into a scratch HOME, asks every question the way callers do, and
 * compares with a plain BM25 over the raw session text measured in the same run.
 * Options: bench/recall/args.ts (or --help); datasets and judgements: bench/recall/README.md.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { computeProjectInfo } from '../../src/worker/project.js';
import { ablate, ablationTable, type AblationRow } from './ablation.js';
import { parseRecallArgs, USAGE, type RecallOptions } from './args.js';
import { Bm25Index } from './bm25.js';
import { generateCorpus } from './data/generate.js';
import { readLocomo } from './external/locomo.js';
import { readLongMemEval } from './external/longmemeval.js';
import { DEFAULT_BUDGET, injectionTable, measureInjection, type InjectionRow } from './injection.js';
import { FIXTURE_PROJECT, fixtureQuestions, loadFixtures } from './fixtures.js';
import { sessionText } from './replay/claude-code.js';
import { createScratchHome, type ScratchHome } from './replay/home.js';
import { replayCorpus, type ReplayOutcome } from './replay/index.js';
import { find, table, targetLines, targets } from './report.js';
import { breakdowns, factsPresent, overlap, rankOf, type Form, type Ranked } from './score.js';
import { searchCli, searchWorker } from './search.js';
import type { Corpus, Question } from './types.js';

const LIMIT = 20;
/** A budget below the default, to show CLAUDE_MEM_CONTEXT_TOKENS binds. */
const SMALL_BUDGET = 400;

function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const round = (n: number, digits = 2): number => Math.round(n * 10 ** digits) / 10 ** digits;
const log = (line: string) => console.error(line);

function loadCorpus(o: RecallOptions): Corpus {
  switch (o.dataset.kind) {
    case 'own': return generateCorpus({ seed: o.seed, quick: o.quick });
    case 'longmemeval': return readLongMemEval(o.dataset.file, o.limit);
    case 'locomo': return readLocomo(o.dataset.file, o.limit);
  }
}

interface Asked {
  results: Ranked[];
  /** GET /api/search latencies, ms. */
  latencies: number[];
}

async function ask(corpus: Corpus, home: ScratchHome, scope: (p: string | undefined) => string | undefined, bm25: Bm25Index): Promise<Asked> {
  const results: Ranked[] = [];
  const latencies: number[] = [];
  await searchWorker(home, 'warm up', undefined, LIMIT);
  for (const q of corpus.questions) {
    for (const form of ['asked', 'keywords'] as Form[]) {
      const text = form === 'asked' ? q.asked : q.keywords;
      const answer = await searchWorker(home, text, scope(q.project), LIMIT);
      latencies.push(answer.ms);
      const ids = answer.ranked.map((r) => r.hostSessionId);
      const anyTurns = answer.ranked.some((r) => r.turns.length > 0);
      const turnHit = q.turn === undefined || !anyTurns ? null
        : answer.ranked.slice(0, 5).some((r) => q.answers.includes(r.hostSessionId) && r.turns.includes(q.turn! + 1));
      results.push({
        question: q, form, rank: rankOf(ids, q.answers), turnHit, returned: ids.length,
        // The baseline has no notion of project: it ranks every session of every project.
        baselineRank: rankOf(bm25.search(text, undefined, LIMIT), q.answers),
        projectBaselineRank: rankOf(bm25.search(text, q.project, LIMIT), q.answers), ms: answer.ms, top: ids.slice(0, 5),
      });
    }
  }
  return { results, latencies };
}

/** The first few questions again through `claude-mem search --json`: same sessions, same order? */
function cliAgreement(corpus: Corpus, home: ScratchHome, scope: (p: string | undefined) => string | undefined, asked: Ranked[], n: number) {
  const sample = asked.filter((r) => r.form === 'asked').filter((_, i, all) => i % Math.max(1, Math.floor(all.length / Math.max(1, n))) === 0).slice(0, n);
  let agree = 0;
  for (const r of sample) {
    const project = r.question.project ? corpus.projects[r.question.project] : undefined;
    const cwd = project ? home.cwdOf(project) : home.root;
    const viaCli = searchCli(home, r.question.asked, scope(r.question.project), cwd, LIMIT).map((s) => s.hostSessionId).slice(0, 5);
    if (JSON.stringify(viaCli) === JSON.stringify(r.top)) agree++;
  }
  return { sampled: sample.length, agree };
}

function probeRate(corpus: Corpus, replay: ReplayOutcome) {
  const judged = corpus.probes.map((p) => ({ ...p, passed: factsPresent(replay.startContext.get(p.session) ?? '', p.keyFacts), empty: !(replay.startContext.get(p.session) ?? '') }));
  const passed = judged.filter((p) => p.passed).length;
  return { judged, passed, rate: judged.length ? passed / judged.length : null };
}

async function main(): Promise<void> {
  const parsed = parseRecallArgs(process.argv.slice(2));
  if (parsed === 'help') return void console.log(USAGE);
  const o = parsed;
  const corpus = loadCorpus(o);
  const projects = { ...corpus.projects };
  if (o.fixtures && o.dataset.kind === 'own') projects[FIXTURE_PROJECT] = { dir: FIXTURE_PROJECT, kind: 'captured host sessions' };
  const home = createScratchHome(projects);
  log(`recall: scratch HOME ${home.root}, worker on port ${home.port}`);
  try {
    if (o.fixtures && o.dataset.kind === 'own') {
      corpus.fixtures = await loadFixtures(home.root);
      corpus.questions.push(...fixtureQuestions(corpus.fixtures));
    }
    const unregistered = ['PreToolUse'].filter((e) => !home.hooks.has(e));
    log(`recall: ${corpus.name}: ${Object.keys(corpus.projects).length} projects, ${corpus.sessions.length} sessions, ${corpus.fixtures.length} captured host sessions, ${corpus.questions.length} questions, ${corpus.probes.length} probes`);
    log(`recall: hooks registered by the installer: ${[...home.hooks.keys()].join(', ')}${unregistered.length ? ` (not registered, so not run: ${unregistered.join(', ')})` : ''}`);
    const replay = await replayCorpus(corpus, home, { parallel: o.parallel, simulatedClock: o.clock === 'simulated', progress: log });
    log(`recall: stored ${JSON.stringify(replay.store)}`);

    const identity = new Map(Object.entries(projects).map(([key, p]) => [key, computeProjectInfo(home.cwdOf(p)).project]));
    const scope = (p: string | undefined) => (p === undefined ? undefined : identity.get(p));
    const bm25 = new Bm25Index();
    for (const s of corpus.sessions) bm25.add(s.id, s.project, sessionText(s));
    for (const f of corpus.fixtures) bm25.add(f.sessionId, f.project, f.text);

    const t0 = performance.now();
    const { results, latencies } = await ask(corpus, home, scope, bm25);
    const askSeconds = (performance.now() - t0) / 1000;
    const cli = o.cliSample ? cliAgreement(corpus, home, scope, results, o.cliSample) : { sampled: 0, agree: 0 };
    const probes = probeRate(corpus, replay);
    const headline = corpus.questions.filter((q) => q.project !== FIXTURE_PROJECT);
    const ablation = o.ablation ? ablate(home, headline, scope, LIMIT) : [];
    // Last: these sessions add rows to the projects.
    const injection = [...await measureInjection(corpus, home), ...await measureInjection(corpus, home, SMALL_BUDGET, ['claude-code', 'codex'])];
    write(o, corpus, replay, results, latencies, probes, cli, askSeconds, home, ablation, injection);
  } finally {
    if (o.keep) {
      home.stop();
      log(`recall: scratch HOME kept at ${home.root}`);
    } else home.cleanup();
  }
}

function write(
  o: RecallOptions, corpus: Corpus, replay: ReplayOutcome, results: Ranked[], latencies: number[],
  probes: ReturnType<typeof probeRate>, cli: { sampled: number; agree: number }, askSeconds: number, home: ScratchHome,
  ablation: AblationRow[], injection: InjectionRow[],
): void {
  const headline = results.filter((r) => r.question.project !== FIXTURE_PROJECT);
  const fixtureRows = results.filter((r) => r.question.project === FIXTURE_PROJECT);
  const rows = breakdowns(headline);
  const text = new Map(corpus.sessions.map((s) => [s.id, sessionText(s)]));
  const overlapOf = (style: Question['style']) => {
    const qs = corpus.questions.filter((q) => q.style === style && q.project !== FIXTURE_PROJECT && text.has(q.answers[0]));
    return qs.length ? round(qs.reduce((s, q) => s + overlap(q.asked, text.get(q.answers[0])!), 0) / qs.length) : null;
  };
  const turnRows = headline.filter((r) => r.turnHit !== null);
  const injected = injection.reduce((n, r) => n + r.injections, 0);
  const list = targets(rows, probes.rate, injected ? 1 - injection.reduce((n, r) => n + r.overBudget, 0) / injected : undefined);
  const lat = { p50: round(percentile(latencies, 50)), p95: round(percentile(latencies, 95)), queries: latencies.length };

  log('');
  log(table(`recall — ${corpus.name}: ${headline.length / 2} questions, each as asked and as keywords (top ${LIMIT} asked for)`, rows));
  if (fixtureRows.length) log(table(`captured host sessions (project ${FIXTURE_PROJECT}, not in the targets): ${fixtureRows.length / 2} questions`, breakdowns(fixtureRows)));
  log('');
  log(`  word overlap of question and answer session: literal ${overlapOf('literal')}, paraphrased ${overlapOf('paraphrased')}`);
  for (const form of ['asked', 'keywords'] as const) {
    const [mine, all, own] = (['claude-mem', 'bm25-raw', 'bm25-project'] as const).map((sys) => find(rows, sys, form));
    if (mine && all && own) log(`  project scoping, ${form}: hit@5 / MRR claude-mem ${mine.hit5.toFixed(2)} / ${mine.mrr.toFixed(2)}; raw BM25 all sessions (the baseline) ${all.hit5.toFixed(2)} / ${all.mrr.toFixed(2)}; raw BM25 within the question's project (not a target) ${own.hit5.toFixed(2)} / ${own.mrr.toFixed(2)}`);
  }
  for (const key of Object.keys(corpus.projects)) {
    const own = breakdowns(headline.filter((r) => r.question.project === key));
    const cell = (sys: 'claude-mem' | 'bm25-raw' | 'bm25-project', form: 'asked' | 'keywords') => {
      const f = find(own, sys, form);
      return f ? `${f.hit5.toFixed(2)}/${f.mrr.toFixed(2)}` : 'n/a';
    };
    const n = headline.filter((r) => r.question.project === key && r.form === 'asked').length;
    if (n) log(`  ${key} (${n} questions), hit@5/MRR asked | keywords: claude-mem ${cell('claude-mem', 'asked')} | ${cell('claude-mem', 'keywords')}; BM25 all sessions ${cell('bm25-raw', 'asked')} | ${cell('bm25-raw', 'keywords')}; BM25 own project ${cell('bm25-project', 'asked')} | ${cell('bm25-project', 'keywords')}`);
  }
  log(`  labelled turn in the top 5: ${turnRows.length ? `${turnRows.filter((r) => r.turnHit).length}/${turnRows.length}` : 'n/a (results name no turns)'}`);
  log(`  search latency (GET /api/search, ${lat.queries} queries): p50 ${lat.p50} ms, p95 ${lat.p95} ms`);
  log(`  claude-mem search --json agrees with GET /api/search on the top 5: ${cli.agree}/${cli.sampled}`);
  log(`  last-time probes: ${probes.passed}/${probes.judged.length} session starts showed the previous session's key facts (${probes.judged.filter((p) => p.empty).length} with no context at all)`);
  log(`  replay: ${replay.stats.runs} hook runs in ${Math.round(replay.stats.seconds)} s (${replay.stats.timeouts} timeouts, ${replay.stats.failures} non-zero exits); not registered: ${JSON.stringify(replay.stats.unregistered)}; clock ${o.clock}`);
  if (ablation.length) log(`\n${ablationTable(ablation)}`);
  log(`\n${injectionTable(injection)}`);
  log('');
  log(targetLines(list));
  const missed = list.filter((t) => !t.met).length;
  log(`\n${list.length - missed} targets met, ${missed} missed. Figures in ${o.out}.`);

  mkdirSync(dirname(o.out), { recursive: true });
  writeFileSync(o.out, JSON.stringify({
    date: new Date().toISOString(), node: process.version, options: { ...o }, corpus: corpus.name,
    counts: { projects: Object.keys(corpus.projects).length, sessions: corpus.sessions.length, fixtures: corpus.fixtures.length, questions: corpus.questions.length, probes: corpus.probes.length },
    replay: { ...replay.stats, store: replay.store },
    breakdowns: rows, fixtureBreakdowns: breakdowns(fixtureRows), ablation, injection, defaultBudget: DEFAULT_BUDGET, targets: list, latencyMs: lat, askSeconds: round(askSeconds, 1), cliAgreement: cli,
    overlap: { literal: overlapOf('literal'), paraphrased: overlapOf('paraphrased') },
    lastTime: { passed: probes.passed, probes: probes.judged.length, rate: probes.rate, failed: probes.judged.filter((p) => !p.passed).slice(0, 50) },
    questions: results.map((r) => ({ id: r.question.id, form: r.form, style: r.question.style, query: r.form === 'asked' ? r.question.asked : r.question.keywords, answers: r.question.answers, rank: r.rank, baselineRank: r.baselineRank, projectBaselineRank: r.projectBaselineRank, turnHit: r.turnHit, returned: r.returned, top: r.top, ms: round(r.ms) })),
    scratchHome: o.keep ? home.root : undefined,
  }, null, 2) + '\n');
  process.exitCode = missed ? 1 : 0;
}

main().catch((err: unknown) => {
  console.error(`bench:recall failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
  process.exitCode = 2;
});
