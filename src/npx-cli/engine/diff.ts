/** Unified diffs for --dry-run. */
import { createTwoFilesPatch } from 'diff';
import type { PlannedFile } from './plan.js';

export function unifiedDiff(path: string, before: string | null, after: string | null): string {
  const patch = createTwoFilesPatch(
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
