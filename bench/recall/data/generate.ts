/**
 * Builds the project's own corpus from the histories in ./projects: episodes on their working
 * days, ordinary sessions scattered around them (seeded), times of day, session ids, questions
 * with their answer sessions, and the "last time" probes. Same seed, same corpus.
 */
import { Rng, hashSeed } from '../rng.js';
import type { Corpus, Probe, Question, Session, Turn } from '../types.js';
import type { Episode, NoiseSession, ProjectHistory } from './dsl.js';
import { echoes } from './echoes.js';
import { PROJECTS } from './projects/index.js';

const DAY_MS = 86_400_000;

/** The n-th working day (Monday to Friday) from `first`. */
function workingDay(first: string, n: number): number {
  let t = Date.parse(`${first}T00:00:00Z`);
  let left = n;
  while ((new Date(t).getUTCDay() + 6) % 7 >= 5) t += DAY_MS;
  while (left > 0) {
    t += DAY_MS;
    if ((new Date(t).getUTCDay() + 6) % 7 < 5) left--;
  }
  return t;
}

interface Planned {
  day: number;
  label: string;
  seedKey: string;
  body: NoiseSession;
  episode?: Episode;
}

/**
 * An episode as it is played: exploration steps before its first step, and in some a small
 * unrelated request first (its turns then start one later; see `shift`).
 */
function dressed(h: ProjectHistory, e: Episode): { turns: Turn[]; shift: number } {
  const rng = new Rng(hashSeed(`${h.key}/${e.id}/dress`));
  const [first, ...rest] = e.turns;
  const turns = [{ ...first, steps: [...h.explore(rng), ...first.steps] }, ...rest];
  if (!rng.chance(0.25)) return { turns, shift: 0 };
  const warmup = rng.pick(h.warmups)(rng);
  return { turns: [...warmup.turns.slice(0, 1), ...turns], shift: 1 };
}

function plan(h: ProjectHistory, rng: Rng, noiseCount: number, episodes: Episode[]): Planned[] {
  const out: Planned[] = episodes.map((e) => ({ day: e.day, label: e.id, seedKey: `${h.key}/${e.id}`, body: { label: e.id, turns: dressed(h, e).turns, facts: e.facts }, episode: e }));
  for (let i = 0; i < noiseCount; i++) {
    const template = h.noise[i % h.noise.length];
    const body = template(new Rng(hashSeed(`${h.key}/noise/${i}`)));
    out.push({ day: rng.int(0, h.days - 1), label: `noise:${body.label}`, seedKey: `${h.key}/noise/${i}`, body });
  }
  for (const [i, echo] of echoes(h.key, episodes, h.days, 13, Math.ceil(noiseCount / 6)).entries()) {
    out.push({ day: echo.day, label: `noise:${echo.body.label}`, seedKey: `${h.key}/echo/${i}`, body: echo.body });
  }
  return out;
}

/** Start times: each day's sessions in a seeded order from about nine, an hour or so apart. */
function schedule(h: ProjectHistory, planned: Planned[], rng: Rng): Session[] {
  const byDay = new Map<number, Planned[]>();
  for (const p of planned) byDay.set(p.day, [...(byDay.get(p.day) ?? []), p]);
  const sessions: Session[] = [];
  for (const [day, list] of [...byDay].sort((a, b) => a[0] - b[0])) {
    // Episodes keep their written order within a day (a later one may build on an earlier one).
    const ordered = rng.shuffle(list);
    const episodes = ordered.filter((p) => p.episode).sort((a, b) => planned.indexOf(a) - planned.indexOf(b));
    for (let i = 0, k = 0; i < ordered.length; i++) if (ordered[i].episode) ordered[i] = episodes[k++];
    let t = workingDay(h.firstDay, day) + (8 * 60 + rng.int(40, 100)) * 60_000;
    for (const p of ordered) {
      const id = new Rng(hashSeed(p.seedKey)).uuid();
      sessions.push({ id, project: h.key, start: new Date(t).toISOString(), turns: p.body.turns, keyFacts: p.body.facts, label: p.label });
      t += (45 + rng.int(0, 70) + 15 * p.body.turns.length) * 60_000;
    }
  }
  return sessions.sort((a, b) => a.start.localeCompare(b.start));
}

/** Every session that opens a new working day in its project recalls the project's session before it. */
export function probesFor(sessions: readonly Session[]): Probe[] {
  const probes: Probe[] = [];
  const last = new Map<string, Session>();
  for (const s of [...sessions].sort((a, b) => a.start.localeCompare(b.start))) {
    const prev = last.get(s.project);
    if (prev && prev.start.slice(0, 10) < s.start.slice(0, 10) && prev.keyFacts.length) {
      probes.push({ session: s.id, previous: prev.id, keyFacts: prev.keyFacts });
    }
    last.set(s.project, s);
  }
  return probes;
}

function questionsOf(h: ProjectHistory, e: Episode, idOf: (ref: string) => string | undefined): Question[] {
  return (e.q ?? []).map((q, i) => {
    const answers = [idOf(`${h.key}/${e.id}`), ...(q.also ?? []).map((a) => idOf(a.includes('/') ? a : `${h.key}/${a}`))];
    if (answers.some((a) => a === undefined)) throw new Error(`question ${h.key}/${e.id}#${i}: unknown answer episode in ${JSON.stringify(q.also)}`);
    return {
      id: `${h.key}/${e.id}#${i + 1}`,
      asked: q.ask,
      keywords: q.kw,
      style: q.style === 'lit' ? 'literal' : 'paraphrased',
      answers: answers as string[],
      turn: q.turn === undefined ? undefined : q.turn + dressed(h, e).shift,
      project: q.anyProject ? undefined : h.key,
    };
  });
}

export interface GenerateOptions {
  seed: number;
  /** A subset for iteration: every third episode and a quarter of the ordinary sessions. */
  quick: boolean;
}

export function generateCorpus(opts: GenerateOptions): Corpus {
  const sessions: Session[] = [];
  const kept = new Map<string, Episode[]>();
  for (const h of PROJECTS) {
    const rng = new Rng(hashSeed(`${opts.seed}/${h.key}`));
    const episodes = opts.quick ? h.episodes.filter((_, i) => i % 3 === 0) : h.episodes;
    kept.set(h.key, episodes);
    sessions.push(...schedule(h, plan(h, rng, opts.quick ? Math.ceil(h.noiseCount / 4) : h.noiseCount, episodes), rng));
  }
  const byLabel = new Map(sessions.filter((s) => !s.label.startsWith('noise:')).map((s) => [`${s.project}/${s.label}`, s.id]));
  const questions: Question[] = [];
  for (const h of PROJECTS) {
    for (const e of kept.get(h.key) ?? []) {
      // In the quick subset a question whose other answers were left out still counts the kept one.
      const idOf = (ref: string) => byLabel.get(ref) ?? (opts.quick ? byLabel.get(`${h.key}/${e.id}`) : undefined);
      questions.push(...questionsOf(h, e, idOf).map((q) => ({ ...q, answers: [...new Set(q.answers)] })));
    }
  }
  const projects = Object.fromEntries(PROJECTS.map((h) => [h.key, { dir: h.dir, remote: h.remote, kind: h.kind }]));
  return { name: opts.quick ? 'own (quick subset)' : 'own', projects, sessions, fixtures: [], questions, probes: probesFor(sessions) };
}
