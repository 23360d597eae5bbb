/** Command-line options of `npm run bench:recall -- …`. */
import { parseArgs } from 'node:util';

export type DatasetSpec = { kind: 'own' } | { kind: 'longmemeval' | 'locomo'; file: string };

export interface RecallOptions {
  dataset: DatasetSpec;
  quick: boolean;
  seed: number;
  parallel: number;
  /** Questions of an external dataset to use (its items in order); 0 = all. */
  limit: number;
  /** Questions also asked through `claude-mem search --json`, to show both paths agree. */
  cliSample: number;
  /** Run hooks at the sessions' own times (default) or at the time of the replay. */
  clock: 'simulated' | 'capture';
  fixtures: boolean;
  /** Ask the headline questions again with each ranking signal off (bench/recall/ablation.ts). */
  ablation: boolean;
  keep: boolean;
  out: string;
}

export const USAGE = `npm run bench:recall -- [options]

  --quick                   a subset (every third episode, a quarter of the ordinary sessions): under a minute
  --dataset own             the project's own histories plus the captured host fixtures (default)
  --dataset longmemeval:<file>   LongMemEval-S JSON (see bench/recall/README.md)
  --dataset locomo:<file>   LoCoMo JSON (see bench/recall/README.md)
  --limit <n>               external datasets: only the first n questions (default 20; 0 = all)
  --seed <n>                seed of the generated histories (default 13)
  --parallel <n>            projects replayed side by side (default 4)
  --cli-sample <n>          questions also asked through \`claude-mem search --json\` (default 8)
  --clock capture           stamp events with the replay's own time instead of the sessions' times
  --no-fixtures             leave out the captured host sessions
  --no-ablation             skip asking again with each ranking signal off
  --keep                    keep the scratch HOME (its path is printed)
  --out <file>              JSON results (default .bench-out/bench-results-recall.json)`;

function parseDataset(v: string | undefined): DatasetSpec {
  if (!v || v === 'own') return { kind: 'own' };
  const m = /^(longmemeval|locomo):(.+)$/.exec(v);
  if (!m) throw new Error(`--dataset must be own, longmemeval:<file> or locomo:<file>, got "${v}"`);
  return { kind: m[1] as 'longmemeval' | 'locomo', file: m[2] };
}

function int(name: string, v: string | undefined, dflt: number, min: number): number {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be an integer ≥ ${min}, got "${v}"`);
  return n;
}

export function parseRecallArgs(argv: string[]): RecallOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean' }, dataset: { type: 'string' }, limit: { type: 'string' }, seed: { type: 'string' },
      parallel: { type: 'string' }, 'cli-sample': { type: 'string' }, clock: { type: 'string' },
      'no-fixtures': { type: 'boolean' }, 'no-ablation': { type: 'boolean' }, keep: { type: 'boolean' }, out: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  if (values.help) return 'help';
  if (values.clock !== undefined && values.clock !== 'simulated' && values.clock !== 'capture') throw new Error('--clock must be simulated or capture');
  return {
    dataset: parseDataset(values.dataset),
    quick: values.quick === true || process.env.BENCH_QUICK === '1',
    seed: int('--seed', values.seed, 13, 0),
    parallel: int('--parallel', values.parallel, 4, 1),
    limit: int('--limit', values.limit, 20, 0),
    cliSample: int('--cli-sample', values['cli-sample'], 8, 0),
    clock: (values.clock as 'simulated' | 'capture' | undefined) ?? 'simulated',
    fixtures: values['no-fixtures'] !== true,
    ablation: values['no-ablation'] !== true,
    keep: values.keep === true,
    out: values.out ?? '.bench-out/bench-results-recall.json',
  };
}
