/**
 * Doctor time: `claude-mem doctor --json` on a temporary HOME after `install --yes --ide all`
 * (every host, worker started), as a user runs it (a new node process). Target < 2 s: the checks
 * run side by side and every round trip (10 hook commands, the MCP server) is time-boxed.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { BIN, benchHome, median } from './util.js';

/** Host overrides and host-run markers from the real environment would point at real configs. */
const LEAKS = /^(XDG_[A-Z]+_HOME|CLAUDE_CONFIG_DIR|CODEX_HOME|KIMI_[A-Z_]+|PI_CODING_AGENT_DIR|OMP_[A-Z_]+|DSH_HOME|OPENCLAW_[A-Z_]+|GROK_[A-Z_]+|COPILOT_[A-Z_]+|GEMINI_[A-Z_]+|T3CODE_HOME|CURSOR_[A-Z_]+|CLAUDECODE|CLAUDE_CODE_[A-Z_]+|CI)$/;

export interface DoctorBench {
  doctorMs: number;
  runsMs: number[];
  checks: number;
  failed: string[];
}

export async function benchDoctor(runs = 3): Promise<DoctorBench> {
  const h = benchHome();
  try {
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(h.env)) if (!LEAKS.test(k)) env[k] = v;
    Object.assign(env, { XDG_CONFIG_HOME: join(h.root, '.config'), XDG_DATA_HOME: join(h.root, '.local', 'share') });
    const install = spawnSync(process.execPath, [BIN, 'install', '--yes', '--ide', 'all', '--json'], { env, encoding: 'utf8', timeout: 120_000 });
    if (install.status !== 0) throw new Error(`install failed (${install.status}): ${(install.stderr || install.stdout).slice(-1500)}`);
    const runsMs: number[] = [];
    let last = '';
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, [BIN, 'doctor', '--json'], { env, encoding: 'utf8', timeout: 60_000 });
      runsMs.push(performance.now() - t0);
      last = r.stdout;
    }
    const report = JSON.parse(last) as { checks: Array<{ id: string; status: string }> };
    return {
      doctorMs: Math.round(median(runsMs)),
      runsMs: runsMs.map(Math.round),
      checks: report.checks.length,
      failed: report.checks.filter((c) => c.status === 'fail').map((c) => c.id),
    };
  } finally {
    h.cleanup();
  }
}
