/**
 * Install time: `claude-mem install --yes --ide all --no-start` (every host, no worker start) on a
 * fresh temporary HOME, as a user runs it (a new node process). Median of a few runs; target < 1 s.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BIN, benchHome, median, type BenchHome } from './util.js';

/** Host overrides (CODEX_HOME, XDG_CONFIG_HOME, …) from the real environment would point at real configs. */
const OVERRIDES = /^(XDG_[A-Z]+_HOME|CLAUDE_CONFIG_DIR|CODEX_HOME|KIMI_[A-Z_]+|PI_CODING_AGENT_DIR|DSH_HOME|OPENCLAW_[A-Z_]+|GROK_[A-Z_]+|COPILOT_[A-Z_]+|GEMINI_[A-Z_]+|T3CODE_HOME|CURSOR_[A-Z_]+|CLAUDECODE|CLAUDE_CODE_[A-Z_]+|CI)$/;

function isolated(h: BenchHome): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(h.env)) if (!OVERRIDES.test(k)) env[k] = v;
  return { ...env, XDG_CONFIG_HOME: join(h.root, '.config'), XDG_DATA_HOME: join(h.root, '.local', 'share'), XDG_STATE_HOME: join(h.root, '.local', 'state') };
}

export interface InstallBench {
  /** Median wall time of a first install of all 18 hosts, node start-up included. */
  allHostsMs: number;
  /** Median CPU time (user + system) of those runs. */
  cpuMs: number;
  runsMs: number[];
  /** A second run on the same HOME (nothing to change). */
  reinstallMs: number;
}

/** Reports the child's own CPU time at exit: contention on a busy machine inflates wall time, not this. */
const CPU_PROBE = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('CPU_MS '+Math.round((u.user+u.system)/1000)+'\\n')})`;

function timedInstall(env: NodeJS.ProcessEnv): { ms: number; cpuMs: number } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', CPU_PROBE, BIN, 'install', '--yes', '--ide', 'all', '--no-start', '--json'], { env, encoding: 'utf8', timeout: 60_000 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`install failed (${r.status}): ${(r.stderr || r.stdout).slice(-1500)}`);
  return { ms, cpuMs: Number(/CPU_MS (\d+)/.exec(r.stderr)?.[1] ?? NaN) };
}

export async function benchInstall(runs = 5): Promise<InstallBench> {
  const wall: number[] = [];
  const cpu: number[] = [];
  let reinstallMs = NaN;
  for (let i = 0; i < runs; i++) {
    const home = benchHome();
    try {
      const env = isolated(home);
      const r = timedInstall(env);
      wall.push(r.ms);
      cpu.push(r.cpuMs);
      if (i === 0) reinstallMs = timedInstall(env).ms;
    } finally {
      home.cleanup();
    }
  }
  return { allHostsMs: Math.round(median(wall)), cpuMs: Math.round(median(cpu)), runsMs: wall.map(Math.round), reinstallMs: Math.round(reinstallMs) };
}
