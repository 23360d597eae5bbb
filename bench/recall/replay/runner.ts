/**
 * Runs session scripts through the registered hook commands, as Claude Code does: `/bin/sh -c
 * <command>` in the project directory with the payload on stdin and the host's variables in the
 * environment, the transcript appended first. Sessions of one project run one after another
 * (so each session start sees the history before it); projects run side by side.
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { spawn } from 'node:child_process';
import type { HookCommand, ScratchHome } from './home.js';
import type { SessionScript } from './claude-code.js';

export interface HookRunStats {
  /** Hook processes run. */
  runs: number;
  /** Events Claude Code fires for which no hook is registered (not run, as in Claude Code). */
  unregistered: Record<string, number>;
  /** Hook processes killed at their registered timeout. */
  timeouts: number;
  /** Hook processes that exited non-zero. */
  failures: number;
  /** Wall time of the replay, seconds. */
  seconds: number;
}

export interface HookResult {
  stdout: string;
  code: number | null;
  timedOut: boolean;
}

/** One hook process: payload on stdin, the registered timeout enforced. */
export function runHook(cmd: HookCommand, payload: string, cwd: string, env: NodeJS.ProcessEnv): Promise<HookResult> {
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', cmd.command], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
    const chunks: Buffer[] = [];
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, cmd.timeoutMs);
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stdin.on('error', () => {});
    child.stdin.end(payload);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ stdout: Buffer.concat(chunks).toString('utf8'), code, timedOut });
    });
  });
}

/** The additionalContext a Claude-style hook printed, or ''. */
export function contextOf(stdout: string): string {
  const line = stdout.trim();
  if (!line) return '';
  try {
    const out = JSON.parse(line) as { hookSpecificOutput?: { additionalContext?: unknown } };
    const ctx = out.hookSpecificOutput?.additionalContext;
    return typeof ctx === 'string' ? ctx : '';
  } catch {
    return '';
  }
}

export class Replayer {
  readonly stats: HookRunStats = { runs: 0, unregistered: {}, timeouts: 0, failures: 0, seconds: 0 };
  /** additionalContext printed at each session's SessionStart, by session id. */
  readonly startContext = new Map<string, string>();

  constructor(private readonly home: ScratchHome, readonly simulatedClock: boolean) {}

  /** Counts one hook run in the figures. */
  count(r: HookResult): void {
    this.stats.runs++;
    if (r.timedOut) this.stats.timeouts++;
    else if (r.code !== 0) this.stats.failures++;
  }

  private envFor(script: SessionScript, at: number): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {
      ...this.home.env,
      CLAUDECODE: '1',
      CLAUDE_CODE_ENTRYPOINT: 'cli',
      CLAUDE_CODE_SESSION_ID: script.sessionId,
      CLAUDE_PROJECT_DIR: script.cwd,
    };
    if (this.simulatedClock) {
      env.NODE_OPTIONS = `--require ${this.home.clockShim}`;
      env.BENCH_CLOCK_AT = new Date(at).toISOString();
    }
    return env;
  }

  async session(script: SessionScript): Promise<void> {
    mkdirSync(dirname(script.transcriptPath), { recursive: true });
    for (const act of script.acts) {
      if (act.records.length) appendFileSync(script.transcriptPath, act.records.map((r) => JSON.stringify(r) + '\n').join(''));
      if (!act.event || !act.payload) continue;
      const cmds = this.home.hooks.get(act.event);
      if (!cmds) {
        this.stats.unregistered[act.event] = (this.stats.unregistered[act.event] ?? 0) + 1;
        continue;
      }
      const payload = JSON.stringify(act.payload);
      for (const cmd of cmds) {
        const r = await runHook(cmd, payload, script.cwd, this.envFor(script, act.at));
        this.count(r);
        if (act.event === 'SessionStart') this.startContext.set(script.sessionId, contextOf(r.stdout));
      }
    }
  }

  /** Each lane's sessions in order; lanes `parallel` at a time. */
  async lanes(lanes: SessionScript[][], parallel: number, onSession?: () => void): Promise<void> {
    const t0 = performance.now();
    const queue = [...lanes];
    const worker = async () => {
      for (let lane = queue.shift(); lane; lane = queue.shift()) {
        for (const s of lane) {
          await this.session(s);
          onSession?.();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, parallel) }, worker));
    this.stats.seconds += (performance.now() - t0) / 1000;
  }
}
