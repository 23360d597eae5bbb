/**
 * Ordinary sessions every project has many of: running the tests, adding a test, bumping a
 * dependency, fixing lint, explaining a file, renaming a symbol, a commit message, a question
 * unrelated to the code. Written once here, filled with each project's own vocabulary, so the
 * histories carry the repetition (the same commands, the same files) real ones do.
 */
import type { Rng } from '../rng.js';
import type { Step } from '../types.js';
import { ed, gr, rd, say, sh, turn, wr, type NoiseSession, type NoiseTemplate } from './dsl.js';

export interface SourceFile {
  path: string;
  content: string;
  /** One or two sentences on what the file does, as an assistant would explain it. */
  about: string;
}

export interface Vocab {
  /** Test command and its passing output for `n` tests. */
  testCmd: string;
  testPass(rng: Rng, n: number): string;
  /** A failing run of one test, for sessions that fix what they broke. */
  testFail(rng: Rng, n: number, testName: string, file: string): string;
  testCount: [number, number];
  lintCmd: string;
  lintFail(file: string, rng: Rng): { output: string; count: number };
  lintOk: string;
  installCmd(dep: string, version: string): string;
  installOut(rng: Rng): string;
  manifest: string;
  manifestLine(dep: string, version: string): string;
  deps: { name: string; from: string; to: string }[];
  files: SourceFile[];
  /** The test file for a source file, and a test body for it. */
  testFor(file: SourceFile): { path: string; body: (n: number) => string };
  /** The one-line fix of a wrong expectation in a new test (old, new). */
  expectationFix: [string, string];
  renames: { from: string; to: string; files: string[] }[];
  diffStat(rng: Rng): string;
  /** Questions a developer asks that have nothing to do with this code base. */
  asides: { q: string; a: string; fact: string }[];
}

const base = (p: string): string => p.split('/').pop() ?? p;

function runTests(v: Vocab): NoiseTemplate {
  return (rng) => {
    const n = rng.int(...v.testCount);
    const prompt = rng.pick(['run the tests', 'can you run the test suite before I push?', 'quick check: are the tests still green?', 'run the full suite please', 'tests pass on your side?']);
    const final = `All ${n} tests pass.`;
    return { label: 'run-tests', turns: [turn(prompt, [sh(v.testCmd, v.testPass(rng, n))], final)], facts: [final] };
  };
}

function addTest(v: Vocab): NoiseTemplate {
  return (rng) => {
    const file = rng.pick(v.files);
    const t = v.testFor(file);
    const k = rng.int(2, 6);
    const n = rng.int(...v.testCount);
    const name = base(file.path);
    const failFirst = rng.chance(0.4);
    const steps = [
      rd(file.path, file.content),
      say(`I'll cover the main paths of ${name} with ${k} cases.`),
      wr(t.path, t.body(k)),
      ...(failFirst
        ? [sh(v.testCmd, v.testFail(rng, n, `${name} handles empty input`, t.path), 1), say('One case expected the wrong default; adjusting the expectation to what the code documents.'), ed(t.path, ...v.expectationFix)]
        : []),
      sh(v.testCmd, v.testPass(rng, n + k)),
    ];
    const prompt = rng.pick([`add unit tests for ${name}`, `${name} has no tests, can you write some?`, `write tests for ${file.path}`]);
    return { label: 'add-test', turns: [turn(prompt, steps, `Added ${k} tests for ${name} in ${t.path}; the suite passes (${n + k} tests).`)], facts: [name] };
  };
}

function bumpDep(v: Vocab): NoiseTemplate {
  return (rng) => {
    const d = rng.pick(v.deps);
    const n = rng.int(...v.testCount);
    const steps = [
      rd(v.manifest, v.manifestLine(d.name, d.from)),
      ed(v.manifest, v.manifestLine(d.name, d.from), v.manifestLine(d.name, d.to)),
      sh(v.installCmd(d.name, d.to), v.installOut(rng)),
      sh(v.testCmd, v.testPass(rng, n)),
    ];
    const prompt = rng.pick([`bump ${d.name} to ${d.to}`, `upgrade ${d.name}, dependabot keeps nagging`, `can we move ${d.name} to ${d.to}?`]);
    return { label: 'bump-dep', turns: [turn(prompt, steps, `Bumped ${d.name} from ${d.from} to ${d.to}; install and tests are clean.`)], facts: [d.name, d.to] };
  };
}

function fixLint(v: Vocab): NoiseTemplate {
  return (rng) => {
    const file = rng.pick(v.files);
    const fail = v.lintFail(file.path, rng);
    const steps = [
      sh(v.lintCmd, fail.output, 1),
      rd(file.path, file.content),
      ed(file.path, file.content.split('\n')[0], file.content.split('\n')[0].trimEnd()),
      sh(v.lintCmd, v.lintOk),
    ];
    const prompt = rng.pick([`lint is failing on ${base(file.path)}, clean it up`, 'fix the lint errors', `the linter complains about ${file.path}`]);
    return { label: 'fix-lint', turns: [turn(prompt, steps, `Fixed the ${fail.count} lint findings in ${base(file.path)}; lint is clean.`)], facts: [base(file.path)] };
  };
}

function explainFile(v: Vocab): NoiseTemplate {
  return (rng) => {
    const file = rng.pick(v.files);
    const prompt = rng.pick([`what does ${file.path} do?`, `explain ${base(file.path)} to me`, `walk me through ${file.path}`]);
    return { label: 'explain', turns: [turn(prompt, [rd(file.path, file.content)], file.about)], facts: [base(file.path)] };
  };
}

function rename(v: Vocab): NoiseTemplate {
  return (rng) => {
    const r = rng.pick(v.renames);
    const n = rng.int(...v.testCount);
    const steps = [
      gr(r.from, r.files.map((f, i) => `${f}:${rng.int(3, 90)}:  ${i === 0 ? 'export ' : ''}${r.from}`).join('\n')),
      ...r.files.map((f) => ed(f, r.from, r.to)),
      sh(v.testCmd, v.testPass(rng, n)),
    ];
    const prompt = rng.pick([`rename ${r.from} to ${r.to} everywhere`, `${r.from} is a bad name, call it ${r.to}`]);
    return { label: 'rename', turns: [turn(prompt, steps, `Renamed ${r.from} to ${r.to} in ${r.files.length} files; tests pass.`)], facts: [r.to] };
  };
}

function commitMessage(v: Vocab): NoiseTemplate {
  return (rng) => {
    const stat = v.diffStat(rng);
    const first = stat.split('\n')[0].trim().split(/\s+/)[0];
    const prompt = rng.pick(['write a commit message for what is staged', 'commit message for this please', 'summarize my staged changes as a commit message']);
    return {
      label: 'commit-message',
      turns: [turn(prompt, [sh('git diff --cached --stat', stat)], `Suggested message: "Tidy ${base(first)} and its callers" — the diff touches ${stat.split('\n').length - 1} files.`)],
      facts: [base(first)],
    };
  };
}

function aside(v: Vocab): NoiseTemplate {
  return (rng) => {
    const a = rng.pick(v.asides);
    return { label: 'aside', turns: [turn(a.q, [], a.a)], facts: [a.fact] };
  };
}

function gitStatus(): NoiseTemplate {
  return (rng) => {
    const branch = rng.pick(['main', 'wip/cleanup', 'feature/next', 'fix/review-comments']);
    const out = `On branch ${branch}\nYour branch is up to date with 'origin/${branch}'.\n\nnothing to commit, working tree clean`;
    return { label: 'git-status', turns: [turn(rng.pick(['which branch am I on?', 'anything uncommitted?', 'git status?']), [sh('git status', out)], `You are on ${branch} and the working tree is clean.`)], facts: [branch] };
  };
}

/** The ordinary-session templates for a vocabulary, each used in turn. */
/** A `git diff --stat` of a few of the project's files. */
export function diffStatOf(files: readonly SourceFile[]): (rng: Rng) => string {
  return (rng) => {
    const picks = rng.shuffle(files).slice(0, rng.int(2, 4));
    const rows = picks.map((f) => ` ${f.path} | ${rng.int(2, 40)} ${'+'.repeat(rng.int(1, 6))}${'-'.repeat(rng.int(0, 4))}`);
    return [...rows, ` ${picks.length} files changed, ${rng.int(5, 80)} insertions(+), ${rng.int(0, 30)} deletions(-)`].join('\n');
  };
}

export function noiseTemplates(v: Vocab): NoiseTemplate[] {
  return [runTests(v), addTest(v), bumpDep(v), fixLint(v), explainFile(v), runTests(v), rename(v), commitMessage(v), aside(v), gitStatus(), addTest(v), explainFile(v)];
}

/** Small requests a session often starts with before the real task. */
export function warmupTemplates(v: Vocab): NoiseTemplate[] {
  return [runTests(v), gitStatus(), explainFile(v)];
}

/**
 * What an agent does before it gets to the point: reads a few files around the task, looks at
 * git, sometimes runs the tests. Seeded; inserted at the start of an episode's first turn.
 */
export function exploreSteps(v: Vocab): (rng: Rng) => Step[] {
  return (rng) => {
    const steps: Step[] = rng.shuffle(v.files).slice(0, rng.int(1, 3)).map((f) => rd(f.path, f.content));
    if (rng.chance(0.4)) steps.push(sh('git log --oneline -3', `${rng.hex(7)} ${rng.pick(['Merge branch main', 'Tidy imports', 'Bump dev dependencies', 'Review fixes'])}\n${rng.hex(7)} ${rng.pick(['Add missing test', 'Fix typo in README', 'Format'])}\n${rng.hex(7)} ${rng.pick(['Release', 'Update lockfile', 'CI: cache dependencies'])}`));
    if (rng.chance(0.35)) steps.push(sh(v.testCmd, v.testPass(rng, rng.int(...v.testCount))));
    return rng.shuffle(steps);
  };
}

export type { NoiseSession };
