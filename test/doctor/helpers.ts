/** Doctor tests: an isolated HOME, the built CLI, and tree hashes. */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { DIST_BIN, tempHome } from '../helpers/temp.js';
import type { DoctorReport } from '../../src/npx-cli/doctor/types.js';

/** Host overrides and host-run markers from the real environment must not leak in. */
const LEAKS = /^(CLAUDE_CONFIG_DIR|CODEX_HOME|KIMI_[A-Z_]+|PI_CODING_AGENT_DIR|OMP_[A-Z_]+|DSH_HOME|OPENCLAW_[A-Z_]+|GROK_[A-Z_]+|COPILOT_[A-Z_]+|GEMINI_[A-Z_]+|T3CODE_HOME|CURSOR_[A-Z_]+|CLAUDECODE|CLAUDE_CODE_[A-Z_]+|CLAUDE_MEM_DEBUG|NO_COLOR|CI)$/;

export interface TestHome {
  home: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
}

export function doctorHome(): TestHome {
  const t = tempHome();
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(t.env)) if (!LEAKS.test(k)) env[k] = v;
  // No host CLI on PATH: detection and prerequisites are then the same on every machine.
  env.PATH = [dirname(process.execPath), '/usr/bin', '/bin'].join(':');
  return { home: t.home, dataDir: t.dataDir, env };
}

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Colleagues rebuild dist/ while tests run: a half-written bundle fails to load for a moment. */
const TRANSIENT = /SyntaxError|ERR_MODULE_NOT_FOUND|Cannot find module '\/.*\/dist\/|does not provide an export named/;

export function cli(env: NodeJS.ProcessEnv, args: string[], opts: { bin?: string; timeoutMs?: number } = {}): CliResult {
  for (let attempt = 0; ; attempt++) {
    const r = spawnSync(process.execPath, [opts.bin ?? DIST_BIN, ...args], { env, encoding: 'utf8', timeout: opts.timeoutMs ?? 60_000 });
    const out = { status: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
    if (attempt < 3 && out.status !== 0 && TRANSIENT.test(out.stderr) && !opts.bin) {
      spawnSync('sleep', ['1']);
      continue;
    }
    return out;
  }
}

export function installAll(h: TestHome, ide = 'all', bin?: string): void {
  const r = cli(h.env, ['install', '--yes', '--ide', ide, '--json'], { bin });
  if (r.status !== 0) throw new Error(`install failed (${r.status}): ${r.stderr.slice(-2000)}${r.stdout.slice(-2000)}`);
}

export function doctor(h: TestHome, args: string[] = []): { status: number | null; report: DoctorReport; stderr: string } {
  const r = cli(h.env, ['doctor', '--json', ...args]);
  let report: DoctorReport;
  try {
    report = JSON.parse(r.stdout) as DoctorReport;
  } catch {
    throw new Error(`doctor printed no JSON (exit ${r.status}): ${r.stdout.slice(0, 500)} ${r.stderr.slice(-1500)}`);
  }
  return { status: r.status, report, stderr: r.stderr };
}

export function find(report: DoctorReport, id: string) {
  const c = report.checks.find((x) => x.id === id);
  if (!c) throw new Error(`no check ${id} in ${report.checks.map((x) => x.id).join(', ')}`);
  return c;
}

export const failing = (report: DoctorReport) => report.checks.filter((c) => c.status === 'fail').map((c) => c.id);

/** sha256 of every file under `root` (relative path → hash), skipping `skip` matches. */
export function hashTree(root: string, skip: RegExp): Map<string, string> {
  const out = new Map<string, string>();
  const visit = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      const rel = relative(root, p);
      if (skip.test(rel)) continue;
      const st = statSync(p);
      if (st.isDirectory()) visit(p);
      else out.set(rel, `${(st.mode & 0o777).toString(8)}:${createHash('sha256').update(readFileSync(p)).digest('hex')}`);
    }
  };
  visit(root);
  return out;
}

export function stopWorker(h: TestHome): void {
  cli(h.env, ['stop'], { timeoutMs: 30_000 });
}
