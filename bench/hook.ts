/**
 * Hook latency, as a host sees it: wall time of `claude-mem hook claude-code PostToolUse` from
 * spawn to exit, against a bare `node -e 0` measured in the same rounds (interleaved, so machine
 * load affects all alike). Worker up; worker down (spool path: the hook spools and tries to start
 * a worker, which is made impossible so every run takes that path); and SessionStart context with
 * 10,000 observations stored.
 */
import { spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CaptureEvent } from '../src/shared/capture-event.js';
import { dataPaths } from '../src/shared/paths.js';
import { workerEndpoint, workerRequest } from '../src/shared/worker-client.js';
import { benchHome, BIN, cli, median, round } from './util.js';

export interface HookBenchFigures {
  nodeBaselineMs: number;
  hookUpMs: number;
  hookDownMs: number;
  contextMs: number;
}

/** Spawn to exit, stdin piped like a host does. */
function wall(args: string[], env: NodeJS.ProcessEnv, input: string): number {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { env, input, stdio: ['pipe', 'pipe', 'pipe'], encoding: 'utf8' });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return ms;
}

function postToolUse(session: string, i: number, cwd: string): string {
  return JSON.stringify({
    session_id: session, cwd, prompt_id: 'bench-prompt', permission_mode: 'default', hook_event_name: 'PostToolUse',
    tool_name: 'Bash', tool_input: { command: `npm test -- --grep case-${i}` },
    tool_response: { stdout: `ok ${i}\n`.repeat(20), stderr: '', interrupted: false, isImage: false },
    tool_use_id: `toolu_bench_${session}_${i}`, duration_ms: 12,
  });
}

function seedEvent(i: number, cwd: string): CaptureEvent {
  const files = ['src/app.ts', 'src/db.ts', 'test/app.test.ts', 'README.md'];
  const file = files[i % files.length];
  return {
    host: 'claude-code', source: 'hook', kind: 'tool_result', sessionId: `seed-${Math.floor(i / 250)}`, toolUseId: `toolu_seed_${i}`,
    cwd, toolName: i % 3 === 0 ? 'Bash' : i % 3 === 1 ? 'Read' : 'Edit',
    toolInput: i % 3 === 0 ? { command: `npm run build -- --step ${i}` } : i % 3 === 1 ? { file_path: join(cwd, file) } : { file_path: join(cwd, file), old_string: `a${i}`, new_string: `b${i}` },
    toolResponse: { stdout: `step ${i} finished\n`, stderr: '' },
    at: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
  };
}

/** 10,000 tool results through the worker's own ingest route (batches of 1,000). */
async function seed(dataDir: string, cwd: string, n: number): Promise<number> {
  const ep = workerEndpoint(dataPaths(dataDir));
  if (!ep) throw new Error('worker not running');
  for (let i = 0; i < n; i += 1000) {
    const events = Array.from({ length: Math.min(1000, n - i) }, (_, k) => seedEvent(i + k, cwd));
    const r = await workerRequest({ port: ep.port, auth: ep.auth, method: 'POST', path: '/api/events', body: { events }, timeoutMs: 120_000 });
    if (r.status !== 200) throw new Error(`seeding failed: HTTP ${r.status} ${JSON.stringify(r.body)}`);
  }
  // The observer may run behind ingest: wait until the observations are there.
  const db = new Database(dataPaths(dataDir).db, { readonly: true });
  try {
    const until = Date.now() + 120_000;
    for (;;) {
      const count = (db.prepare('SELECT count(*) AS n FROM observations').get() as { n: number }).n;
      if (count >= n) return count;
      if (Date.now() > until) throw new Error(`only ${count} of ${n} observations after 120 s`);
      await new Promise((res) => setTimeout(res, 250));
    }
  } finally {
    db.close();
  }
}

export async function benchHook(opts: { runs: number }): Promise<HookBenchFigures> {
  const runs = Math.max(3, opts.runs);
  // Two data directories side by side, so every round measures baseline, up and down alike.
  const up = benchHome();
  const down = benchHome();
  try {
    const cwd = join(up.root, 'project');
    mkdirSync(cwd, { recursive: true });
    const upEnv = { ...up.env, CLAUDE_MEM_DEBUG: '' };
    // A worker that cannot start: every run takes the spool path (spool with fsync + start attempt).
    const downEnv = { ...down.env, CLAUDE_MEM_DEBUG: '', CLAUDE_MEM_WORKER_ENTRY: join(down.root, 'no-worker.js') };
    const start = cli(upEnv, ['start']);
    if (start.status !== 0) throw new Error(`claude-mem start failed: ${start.stderr}`);
    const hook = [BIN, 'hook', 'claude-code', 'PostToolUse'];
    const baseline: number[] = [];
    const upMs: number[] = [];
    const downMs: number[] = [];
    // Warm the file cache for node, the bundle and the worker's first statements.
    for (let i = 0; i < 3; i++) {
      wall(['-e', '0'], upEnv, '');
      wall(hook, upEnv, postToolUse('warm', i, cwd));
      wall(hook, downEnv, postToolUse('warm', i, cwd));
    }
    for (let i = 0; i < runs; i++) {
      baseline.push(wall(['-e', '0'], upEnv, ''));
      upMs.push(wall(hook, upEnv, postToolUse('up', i, cwd)));
      downMs.push(wall(hook, downEnv, postToolUse('down', i, cwd)));
    }

    await seed(up.dataDir, cwd, 10_000);
    const ctx: number[] = [];
    const sessionStart = [BIN, 'hook', 'claude-code', 'SessionStart'];
    for (let i = 0; i < runs; i++) {
      const payload = JSON.stringify({ session_id: `ctx-${i}`, cwd, hook_event_name: 'SessionStart', source: 'startup' });
      const t0 = performance.now();
      const r = spawnSync(process.execPath, sessionStart, { env: upEnv, input: payload, encoding: 'utf8' });
      ctx.push(performance.now() - t0);
      if (i === 0 && !/additionalContext/.test(r.stdout)) {
        throw new Error(`SessionStart returned no context with 10,000 observations stored: ${r.stdout}${readTail(join(up.dataDir, 'logs', 'hook.log'))}`);
      }
    }
    return {
      nodeBaselineMs: round(median(baseline), 1),
      hookUpMs: round(median(upMs), 1),
      hookDownMs: round(median(downMs), 1),
      contextMs: round(median(ctx), 1),
    };
  } finally {
    up.cleanup();
    down.cleanup();
  }
}

function readTail(path: string): string {
  try {
    return `\n${readFileSync(path, 'utf8').slice(-2000)}`;
  } catch {
    return '';
  }
}
