/**
 * What each conformance run proved, written next to the test results (test-results/hosts/<id>.json)
 * and turned into the matrix of docs/hosts.md by host-matrix.ts.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const RESULTS_DIR = join(REPO_ROOT, 'test-results', 'hosts');

export interface HostResult {
  host: string;
  name: string;
  /** The registry packages run, `name@version`. */
  packages: string[];
  /** The host version claude-mem's installer detected. */
  version?: string;
  capture?: string;
  recall?: string;
  how: string;
  status: 'passed' | 'failed' | 'skipped' | 'not run';
  reason?: string;
  /** The steps that passed, in order. */
  proven: string[];
  notProven: string[];
  /** What install wrote, relative to HOME. */
  installed?: string[];
  /** One id per test run: the matrix only combines results of the same run. */
  runId: string;
  at: string;
}

export function recordHostResult(r: HostResult): void {
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = join(RESULTS_DIR, `${r.host}.json`);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(r, null, 2)}\n`);
  renameSync(`${file}.tmp`, file);
}

export function readHostResults(): HostResult[] {
  try {
    return readdirSync(RESULTS_DIR).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(readFileSync(join(RESULTS_DIR, f), 'utf8')) as HostResult);
  } catch {
    return [];
  }
}
