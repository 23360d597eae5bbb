/**
 * `claude-mem forget`, `export` and `import`: control over what memory holds. Arguments are
 * checked here (usage errors, exit 2) before anything is loaded. See docs/memory.md.
 */
import type { Command } from 'commander';
import { resolveHostId } from '../../shared/hosts.js';
import type { ForgetTarget } from '../../store/types.js';
import { UsageError } from '../output.js';

interface ForgetOpts {
  session?: string[];
  host?: string;
  query?: string;
  project?: string;
  dryRun?: boolean;
  yes?: boolean;
  purge?: boolean;
  json?: boolean;
}

function host(value: string | undefined): ReturnType<typeof resolveHostId> | undefined {
  if (value === undefined) return undefined;
  const id = resolveHostId(value);
  if (!id) throw new UsageError(`unknown host "${value}"`);
  return id;
}

/** `12` or `#12`: an observation; `#p3`, `#a7`, `#s2`: a prompt, reply or summary (as search prints them). */
function parseRowIds(words: string[]): Pick<ForgetTarget, 'observationIds' | 'promptIds' | 'assistantIds' | 'summaryIds'> {
  const out = { observationIds: [] as number[], promptIds: [] as number[], assistantIds: [] as number[], summaryIds: [] as number[] };
  for (const w of words.flatMap((x) => x.split(',')).filter(Boolean)) {
    const m = /^#?([pas]?)(\d+)$/.exec(w.trim());
    if (!m || Number(m[2]) < 1) throw new UsageError(`"${w}" is not an id: use 12 or #12 for an observation, #p3 a prompt, #a7 a reply, #s2 a summary`);
    const list = m[1] === 'p' ? out.promptIds : m[1] === 'a' ? out.assistantIds : m[1] === 's' ? out.summaryIds : out.observationIds;
    list.push(Number(m[2]));
  }
  return out;
}

function toForgetTarget(ids: string[], o: ForgetOpts): ForgetTarget {
  const h = host(o.host);
  const target: ForgetTarget = { ...parseRowIds(ids) };
  if (o.session?.length) target.sessions = o.session.map((sid) => ({ hostSessionId: sid, host: h }));
  if (o.query !== undefined) {
    if (!o.query.trim()) throw new UsageError('--query needs words to match');
    target.query = { q: o.query, project: o.project, host: h };
  } else if (o.project !== undefined) {
    throw new UsageError('--project goes with --query (ids and sessions name their rows already)');
  }
  return target;
}

const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

export function register(program: Command): void {
  program
    .command('forget')
    .description('Forget observations, a session or everything a query matches: gone from memory, search, summaries and the captured events, and never captured again')
    .argument('[ids...]', 'observation ids (12 or #12), or #p3 / #a7 / #s2 for a prompt, reply or summary, as search prints them')
    .option('--session <id>', "a session (the host's session id, as search prints it), with its subagents; repeatable", collect)
    .option('--host <id>', 'with --session or --query: only this host')
    .option('--query <words>', 'every row holding all these words ("quoted phrase" word for word, prefix* as a prefix)')
    .option('--project <name>', 'with --query: only this project (default: every project)')
    .option('--dry-run', 'only say what would be forgotten')
    .option('-y, --yes', 'do not ask (there is no question without a terminal either)')
    .option('--purge', 'then rewrite the database file, so the bytes are not left in free pages or the write-ahead log')
    .option('--json', 'machine-readable output')
    .action(async (ids: string[], opts: ForgetOpts) => {
      const target = toForgetTarget(ids, opts);
      const named = ids.length > 0 || !!opts.session?.length || !!target.query;
      if (!named && !opts.purge) throw new UsageError('name what to forget: observation ids, --session <id> or --query "<words>"');
      const { runForget, runPurge } = await import('../actions/forget.js');
      if (!named) return runPurge({ json: !!opts.json });
      await runForget(target, { dryRun: !!opts.dryRun, yes: !!opts.yes, purge: !!opts.purge, json: !!opts.json });
    });

  program
    .command('export')
    .description('Write memory out: JSON lines that import rebuilds it from, or Markdown to read')
    .option('--project <name>', 'only this project')
    .option('--host <id>', 'only sessions of this host')
    .option('--since <date>', 'only what was captured from this ISO date or time on')
    .option('--format <format>', 'jsonl or markdown', 'jsonl')
    .option('-o, --output <file>', 'write to this file (default: standard output)')
    .option('--force', 'replace the output file if it exists')
    .action(async (o: { project?: string; host?: string; since?: string; format: string; output?: string; force?: boolean }) => {
      if (o.format !== 'jsonl' && o.format !== 'markdown') throw new UsageError('--format must be jsonl or markdown');
      if (o.since !== undefined && Number.isNaN(Date.parse(o.since))) throw new UsageError(`--since must be an ISO date or time (e.g. 2025-01-31), got "${o.since}"`);
      const h = host(o.host);
      const { runExport } = await import('../actions/export.js');
      await runExport({ project: o.project, host: h, since: o.since, format: o.format, output: o.output, force: !!o.force });
    });

  program
    .command('import')
    .description('Read a JSON lines export into memory; what is here already (or was forgotten) is not added again')
    .argument('<file>', 'a file written by claude-mem export')
    .option('--json', 'machine-readable output')
    .action(async (file: string, o: { json?: boolean }) => {
      const { runImport } = await import('../actions/import.js');
      await runImport(file, { json: !!o.json });
    });
}
