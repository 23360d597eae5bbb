/**
 * Sessions that mention earlier work without being where it was done: `git log` looks, release
 * notes drafted from the commits since the last tag, a standup-style recap of the week. Real
 * histories are full of them, and they share the answer's words: a search has to prefer the
 * session that did the work over the one that lists it.
 */
import { Rng, hashSeed } from '../rng.js';
import { sh, turn, type Episode, type NoiseSession } from './dsl.js';

/** One commit subject per episode: the first sentence of its outcome, as short as a subject. */
export function commitSubject(e: Episode): string {
  const final = e.turns.at(-1)?.final ?? e.id;
  const first = final.split(/(?<=[.;:])\s/)[0].replace(/[.;:]$/, '');
  return first.length > 72 ? `${first.slice(0, 69).replace(/\s+\S*$/, '')}…` : first;
}

function logLines(done: Episode[], rng: Rng): string[] {
  return done.map((e) => `${new Rng(hashSeed(e.id)).hex(7)} ${commitSubject(e)}`).concat(rng.chance(0.5) ? [`${rng.hex(7)} Merge pull request #${rng.int(100, 400)} from dependabot/npm_and_yarn`] : []);
}

export interface Echo {
  day: number;
  body: NoiseSession;
}

/** Echo sessions for a project's episodes: release notes every `every` working days, and a few log looks. */
export function echoes(key: string, episodes: Episode[], days: number, every: number, looks: number): Echo[] {
  const rng = new Rng(hashSeed(`${key}/echoes`));
  const out: Echo[] = [];
  let version = 3;
  let since = 0;
  for (let day = every; day < days; day += every) {
    const done = episodes.filter((e) => e.day >= since && e.day < day).sort((a, b) => b.day - a.day);
    since = day;
    if (!done.length) continue;
    const tag = `v1.${version}.0`;
    const next = `v1.${++version}.0`;
    const log = logLines(done, rng).join('\n');
    const notes = [`Release notes for ${next}:`, ...done.map((e) => `- ${commitSubject(e)}`)].join('\n');
    out.push({
      day,
      body: {
        label: 'release-notes',
        turns: [turn(rng.pick([`draft release notes since ${tag}`, `write the changelog entry for ${next}`, `what goes into the ${next} release notes?`]), [sh(`git log ${tag}..HEAD --oneline --no-merges`, log)], notes)],
        facts: [`${next}`],
      },
    });
  }
  for (let i = 0; i < looks; i++) {
    const day = rng.int(Math.floor(days / 4), days - 1);
    const done = episodes.filter((e) => e.day < day).sort((a, b) => b.day - a.day).slice(0, rng.int(6, 12));
    if (!done.length) continue;
    const recap = done.slice(0, 4).map((e) => commitSubject(e).toLowerCase()).join('; ');
    out.push({
      day,
      body: {
        label: 'recap',
        turns: [turn(rng.pick(['what did we ship in the last couple of weeks?', 'summarize recent commits for the standup', 'remind me what changed lately on main']), [sh(`git log --oneline -${done.length}`, logLines(done, rng).join('\n'))], `Most recent work: ${recap}.`)],
        facts: ['Most recent work'],
      },
    });
  }
  return out;
}
