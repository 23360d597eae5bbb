/**
 * The recall benchmark's own histories (bench/recall/data) and its baselines: every project is
 * generated, every question is asked from its own project and names sessions that exist there,
 * and the raw-text BM25 ranks all sessions while its within-project variant ranks one project's.
 */
import { describe, expect, it } from 'vitest';
import { Bm25Index } from '../../bench/recall/bm25.js';
import { generateCorpus } from '../../bench/recall/data/generate.js';
import { PROJECTS } from '../../bench/recall/data/projects/index.js';
import { breakdowns, type Ranked } from '../../bench/recall/score.js';

describe('bench:recall own histories', () => {
  const corpus = generateCorpus({ seed: 13, quick: false });
  const byId = new Map(corpus.sessions.map((s) => [s.id, s]));

  it('holds four different kinds of project, each with its own directory', () => {
    expect(Object.keys(corpus.projects).sort()).toEqual(['ledger-api', 'mobile-app', 'pipeline-etl', 'platform-infra']);
    expect(new Set(Object.values(corpus.projects).map((p) => p.dir)).size).toBe(4);
    expect(new Set(Object.values(corpus.projects).map((p) => p.kind)).size).toBe(4);
  });

  it('gives every project about the same number of episodes and questions, half of them paraphrased', () => {
    for (const h of PROJECTS) {
      const qs = corpus.questions.filter((q) => q.project === h.key);
      expect(h.episodes.length).toBeGreaterThanOrEqual(30);
      expect(qs.length).toBeGreaterThanOrEqual(55);
      const para = qs.filter((q) => q.style === 'paraphrased').length / qs.length;
      expect(para).toBeGreaterThan(0.4);
      expect(para).toBeLessThan(0.6);
      expect(new Set(h.episodes.map((e) => e.id)).size).toBe(h.episodes.length);
    }
  });

  it('asks every question from its project, about sessions of that project', () => {
    expect(new Set(corpus.questions.map((q) => q.id)).size).toBe(corpus.questions.length);
    for (const q of corpus.questions) {
      expect(q.project).toBeDefined();
      for (const a of q.answers) expect(byId.get(a)?.project).toBe(q.project);
      if (q.turn !== undefined) expect(q.turn).toBeLessThan(byId.get(q.answers[0])!.turns.length);
    }
  });

  it('is the same corpus for the same seed', () => {
    const again = generateCorpus({ seed: 13, quick: false });
    expect(again.sessions.map((s) => `${s.id} ${s.start} ${s.label}`)).toEqual(corpus.sessions.map((s) => `${s.id} ${s.start} ${s.label}`));
  });
});

describe('bench:recall baselines', () => {
  const index = new Bm25Index();
  index.add('a1', 'alpha', 'the flaky test failed on the runner cache');
  index.add('a2', 'alpha', 'deploy notes for the release');
  index.add('b1', 'beta', 'flaky test flaky test cache runner');

  it('ranks every session when no project is given, and one project\'s when it is', () => {
    expect(index.search('flaky test', undefined, 10)).toEqual(['b1', 'a1']);
    expect(index.search('flaky test', 'alpha', 10)).toEqual(['a1']);
  });

  it('reports the within-project BM25 as its own system', () => {
    const q = { id: 'q', asked: 'x', keywords: 'x', style: 'literal' as const, answers: ['a1'], project: 'alpha' };
    const r: Ranked = { question: q, form: 'asked', rank: 1, turnHit: null, returned: 3, baselineRank: 2, projectBaselineRank: 1, ms: 1, top: [] };
    const rows = breakdowns([r, { ...r, form: 'keywords' }]);
    const hit1 = (system: string) => rows.find((b) => b.system === system && b.form === 'asked' && b.style === 'all')?.figures.hit1;
    expect(hit1('claude-mem')).toBe(1);
    expect(hit1('bm25-raw')).toBe(0);
    expect(hit1('bm25-project')).toBe(1);
  });
});
