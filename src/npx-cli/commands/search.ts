/**
 * `claude-mem search "<query>"`: through the worker (started if needed), or straight from the
 * database, read-only, when the worker cannot be reached.
 */
import type { Command } from 'commander';
import { resolveHostId } from '../../shared/hosts.js';
import type { SearchQuery } from '../../store/types.js';
import { UsageError, intOption } from '../output.js';

const SEARCH_TYPES = ['command', 'read', 'edit', 'search', 'web', 'mcp', 'agent', 'tool', 'memory', 'note', 'prompt', 'assistant', 'summary'] as const;

interface SearchOpts {
  project?: string;
  allProjects?: boolean;
  host?: string;
  type?: string;
  since?: string;
  until?: string;
  file?: string;
  limit: number;
  offset?: number;
  json?: boolean;
}

/** Checks the arguments (usage errors, exit 2) before anything is loaded. */
function toQuery(words: string[], o: SearchOpts): SearchQuery {
  const host = o.host === undefined ? undefined : resolveHostId(o.host);
  if (o.host !== undefined && !host) throw new UsageError(`unknown host "${o.host}"`);
  if (o.type !== undefined && !(SEARCH_TYPES as readonly string[]).includes(o.type)) throw new UsageError(`--type must be one of ${SEARCH_TYPES.join(', ')}`);
  if (o.project !== undefined && o.allProjects) throw new UsageError('--project and --all-projects exclude each other');
  for (const [name, v] of [['--since', o.since], ['--until', o.until]] as const) {
    if (v !== undefined && Number.isNaN(Date.parse(v))) throw new UsageError(`${name} must be an ISO date or time (e.g. 2025-01-31), got "${v}"`);
  }
  return {
    query: words.join(' ').trim(), project: o.project, host, type: o.type as SearchQuery['type'],
    since: o.since, until: o.until, file: o.file, limit: o.limit, offset: o.offset,
  };
}

// The worker client and the store load only when the command runs.
export function register(program: Command): void {
  program
    .command('search')
    .description('Search memory: the sessions that answer a question, with what was asked, how it ended and the matching evidence')
    .argument('<query...>', 'a few distinctive words; "quoted phrase" must occur; prefix* works')
    .option('--project <name>', 'only this project (default: the project of the current directory)')
    .option('--all-projects', 'search every project')
    .option('--host <id>', 'only this host (id or alias)')
    .option('--type <type>', `only this type (${SEARCH_TYPES.join(', ')})`)
    .option('--since <date>', 'from this ISO date or time')
    .option('--until <date>', 'up to this ISO date or time')
    .option('--file <path>', 'only hits that read or changed this file (path or suffix)')
    .option('--limit <n>', 'how many sessions (1-200)', intOption(1, 200), 10)
    .option('--offset <n>', 'skip this many sessions', intOption(0, 1_000_000))
    .option('--json', 'machine-readable output')
    .action(async (words: string[], opts: SearchOpts) => {
      const q = toQuery(words, opts);
      const { runSearch } = await import('../actions/search.js');
      await runSearch(q, { json: opts.json, allProjects: opts.allProjects });
    });
}
