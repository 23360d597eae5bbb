/**
 * `claude-mem search "<query>"`: through the worker (started if needed), or straight from the
 * database, read-only, when the worker cannot be reached.
 */
import type { Command } from 'commander';
import { intOption } from '../output.js';

export const SEARCH_TYPES = ['command', 'read', 'edit', 'search', 'web', 'mcp', 'agent', 'tool', 'memory', 'note', 'prompt', 'summary'] as const;

export interface SearchOpts {
  project?: string;
  host?: string;
  type?: string;
  since?: string;
  until?: string;
  file?: string;
  limit: number;
  offset?: number;
  json?: boolean;
}

// Only the options live here: the worker client and the store load when the command runs.
export function register(program: Command): void {
  program
    .command('search')
    .description('Search memory (observations, prompts, summaries)')
    .argument('<query...>', 'words to look for (prefix* works)')
    .option('--project <name>', 'only this project')
    .option('--host <id>', 'only this host (id or alias)')
    .option('--type <type>', `only this type (${SEARCH_TYPES.join(', ')})`)
    .option('--since <date>', 'from this ISO date or time')
    .option('--until <date>', 'up to this ISO date or time')
    .option('--file <path>', 'only hits that read or changed this file (path or suffix)')
    .option('--limit <n>', 'how many results (1-200)', intOption(1, 200), 20)
    .option('--offset <n>', 'skip this many results', intOption(0, 1_000_000))
    .option('--json', 'machine-readable output')
    .action(async (words: string[], opts: SearchOpts) => {
      const { runSearch } = await import('../actions/search.js');
      await runSearch(words, opts);
    });
}
