/** Unified diffs for --dry-run, the interactive "show diffs", `--json` dry runs and doctor's drift detail. */
import { createRequire } from 'node:module';
import type * as DiffLib from 'diff';
import type { PlannedFile } from './types.js';

// The diff library takes ~20 ms to load and a diff of a plugin bundle takes longer still, so both
// happen on the first diff actually read: an install that prints no diff never pays for them.
// A synchronous require keeps `PlannedFile.diff` a plain string property for every reader.
let lib: typeof DiffLib | undefined;
const diffLib = (): typeof DiffLib => (lib ??= createRequire(import.meta.url)('diff') as typeof DiffLib);

export function unifiedDiff(path: string, before: string | null, after: string | null): string {
  const patch = diffLib().createTwoFilesPatch(
    before === null ? '/dev/null' : path,
    after === null ? '/dev/null' : path,
    before ?? '',
    after ?? '',
    '',
    '',
    { context: 3 },
  );
  return patch.replace(/^=+\r?\n/, '');
}

/**
 * Gives a planned file its `diff` (from `before` to its `after`), computed on first read and kept;
 * '' when the file does not change. Enumerable, so copies and JSON still carry it.
 */
export function withLazyDiff(f: Omit<PlannedFile, 'diff'> & { diff?: string }, before: string | null): PlannedFile {
  const { path, changed, after } = f;
  let memo: string | undefined;
  return Object.defineProperty(f, 'diff', {
    enumerable: true,
    configurable: true,
    get: () => (memo ??= changed ? unifiedDiff(path, before, after) : ''),
    set: (v: string) => {
      memo = v;
    },
  }) as PlannedFile;
}

/** Every changed file's diff, then every refused file with its reason and fix. */
export function renderPlan(plan: readonly PlannedFile[]): string {
  const out: string[] = [];
  for (const f of plan) {
    if (f.error) out.push(`! ${f.path} (${f.hosts.join(', ')}): ${f.error.message}\n  fix: ${f.error.fix}\n`);
    else if (f.changed) out.push(f.diff);
    for (const n of f.notes) out.push(`# ${f.path}: ${n}\n`);
  }
  return out.join('');
}
