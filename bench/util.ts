/** Small helpers shared by the benchmarks: temp dirs, percentiles, spawning the CLI. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** dist/bench.mjs lives next to dist/bin.js. */
export const BIN = fileURLToPath(new URL('./bin.js', import.meta.url));

export interface BenchHome {
  root: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  cleanup(): void;
}

export function benchHome(): BenchHome {
  const root = mkdtempSync(join(tmpdir(), 'cm-bench-'));
  const dataDir = join(root, '.claude-mem');
  const env = { ...process.env, HOME: root, USERPROFILE: root, CLAUDE_MEM_DATA_DIR: dataDir };
  return {
    root,
    dataDir,
    env,
    cleanup() {
      spawnSync(process.execPath, [BIN, 'stop'], { env, stdio: 'ignore', timeout: 15_000 });
      rmSync(root, { recursive: true, force: true });
    },
  };
}

export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx];
}

export const median = (v: number[]): number => percentile(v, 50);

export function cli(env: NodeJS.ProcessEnv, args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}
