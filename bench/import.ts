/**
 * History import benchmarks, each against a baseline measured in the same run:
 * - throughput of `import-history`'s run (plan → store closed) over generated Codex rollouts (small
 *   events, ~417 per MB) and over real captured Claude Code and Codex sessions replicated to the
 *   same size (host-logs.ts: the hosts' metadata per line and tool output), each against reading +
 *   JSON.parse alone and reading + parsing + schema evaluation alone of the same files;
 * - the longest event-loop pause of a process that holds the store as the worker does and
 *   writes one hook event every 10 ms, while `claude-mem import-history` runs in its own process
 *   (the fallback when no worker runs), against the same process with no import running, and
 *   against the import run inside that process with the worker's batch size (the chosen design:
 *   the worker runs the job);
 * - peak memory (max RSS) of `claude-mem import-history` on a 1 GB history against a 100 MB one.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { StringDecoder } from 'node:string_decoder';
import { join } from 'node:path';
import { openStore } from '../src/store/sqlite-store.js';
import type { MemoryStore } from '../src/store/types.js';
import { planImport } from '../src/worker/import/plan.js';
import { runImport } from '../src/worker/import/run.js';
import { WORKER_BATCH_BYTES } from '../src/worker/import/jobs.js';
import { ingestHistoryLog } from '../src/transcripts/history.js';
import type { HostId } from '../src/shared/hosts.js';
import type { PlannedHost } from '../src/worker/import/plan.js';
import { seedHostLogs } from './host-logs.js';
import { codexLog, nullStore } from './transcripts.js';
import { BIN, benchHome, percentile, round } from './util.js';

/** End to end against its baselines, on one input. */
export interface ImportThroughput {
  mb: number;
  mbPerSec: number;
  readParseMbPerSec: number;
  evalOnlyMbPerSec: number;
  events: number;
}

export interface ImportBench extends ImportThroughput {
  /** The same on real host sessions (Claude Code and Codex, replicated). */
  hostLogs: ImportThroughput;
  inProcessPauseMs: number;
  workerMbPerSec: number;
  workerHookWriteMaxMs: number;
  separatePauseMs: number;
  idlePauseMs: number;
  hookWriteP99Ms: number;
  hookWriteMaxMs: number;
  idleHookWriteMaxMs: number;
  smallMb: number;
  smallRssMb: number;
  bigMb: number;
  bigRssMb: number;
}

/** Codex rollouts of about `mb` MB under `home` (dated directories, as Codex writes them). */
function seedCodex(home: string, mb: number, prefix: string): number {
  const dir = join(home, '.codex', 'sessions', '2026', '11', '30');
  mkdirSync(dir, { recursive: true });
  let bytes = 0;
  for (let i = 0; bytes < mb * 1e6; i++) {
    const id = `${prefix}${String(i).padStart(6, '0')}-0000-7000-8000-000000000000`;
    const text = codexLog({ sessionId: id, turns: 120, seed: i + 1 });
    writeFileSync(join(dir, `rollout-2026-11-30T10-00-00-${id}.jsonl`), text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

/** Reading and parsing alone: 1 MiB reads, split at newlines, JSON.parse per line. */
async function readParse(files: string[]): Promise<number> {
  let n = 0;
  const buf = Buffer.allocUnsafe(1 << 20);
  for (const f of files) {
    const fh = await open(f, 'r');
    try {
      let rest = '';
      const text = new StringDecoder('utf8');
      for (;;) {
        const { bytesRead } = await fh.read(buf, 0, buf.length, null);
        if (!bytesRead) break;
        const lines = (rest + text.write(buf.subarray(0, bytesRead))).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) if (line) { JSON.parse(line); n++; }
      }
      if (rest) { JSON.parse(rest); n++; }
    } finally {
      await fh.close();
    }
  }
  return n;
}

/** Longest gap of a 1 ms timer while `work` runs; with `store`, one hook-sized write every 10 ms, timed. */
async function loopWhile<T>(work: () => Promise<T>, store?: MemoryStore): Promise<{ pauseMs: number; writes: number[]; value: T }> {
  let last = performance.now();
  let pauseMs = 0;
  const tick = setInterval(() => { const now = performance.now(); pauseMs = Math.max(pauseMs, now - last); last = now; }, 1);
  const writes: number[] = [];
  let n = 0;
  const hook = store ? setInterval(() => {
    const t = performance.now();
    store.ingest([{ host: 'claude-code', source: 'hook', kind: 'prompt', sessionId: 'live-session', promptId: `p-${n++}`, cwd: '/home/dev/projects/live', prompt: 'keep going', at: new Date().toISOString() }]);
    writes.push(performance.now() - t);
  }, 10) : undefined;
  try {
    const value = await work();
    return { pauseMs, writes, value };
  } finally {
    clearInterval(tick);
    if (hook) clearInterval(hook);
  }
}

function runCli(env: NodeJS.ProcessEnv, args: string[], timed = false): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const [cmd, argv] = timed ? ['/usr/bin/time', ['-v', process.execPath, BIN, ...args]] : [process.execPath, [BIN, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function peakRssMb(mb: number, prefix: string): Promise<{ mb: number; rssMb: number }> {
  const h = benchHome();
  try {
    const bytes = seedCodex(h.root, mb, prefix);
    const r = await runCli(h.env, ['import-history', '--ide', 'codex', '--json'], true);
    if (r.code !== 0) throw new Error(`import-history failed: ${r.stderr.slice(-2000)}`);
    const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr)?.[1]);
    return { mb: bytes / 1e6, rssMb: round(kb / 1024, 1) };
  } finally {
    h.cleanup();
  }
}

const planFiles = (plan: PlannedHost[]): string[] => plan.flatMap((h) => h.sources.flatMap((s) => s.logs.map((l) => l.path)));

/** Baselines (each twice, the second on warm code), then the import end to end into a fresh store, closed. */
async function throughput(home: string, hosts: HostId[], bytes: number): Promise<ImportThroughput & { plan: PlannedHost[] }> {
  const mb = bytes / 1e6;
  const plan = await planImport({ hosts, env: { HOME: home } });
  const files = planFiles(plan);
  let readParseMbPerSec = 0;
  let evalOnlyMbPerSec = 0;
  let events = 0;
  for (let pass = 0; pass < 2; pass++) {
    let t = performance.now();
    await readParse(files);
    readParseMbPerSec = mb / ((performance.now() - t) / 1000);
    const nul = nullStore();
    t = performance.now();
    await runImport({ store: nul, plan });
    evalOnlyMbPerSec = mb / ((performance.now() - t) / 1000);
    events = nul.events;
  }
  const db = join(home, `inproc-${hosts.join('-')}.db`);
  const t0 = performance.now();
  const store = openStore(db);
  await runImport({ store, plan, ingest: ingestHistoryLog });
  store.close();
  const mbPerSec = mb / ((performance.now() - t0) / 1000);
  return { plan, mb: round(mb, 1), mbPerSec: round(mbPerSec, 1), readParseMbPerSec: round(readParseMbPerSec, 1), evalOnlyMbPerSec: round(evalOnlyMbPerSec, 1), events };
}

async function hostLogThroughput(mb: number): Promise<ImportThroughput> {
  const h = benchHome();
  try {
    const t = await throughput(h.root, ['claude-code', 'codex'], seedHostLogs(h.root, mb));
    return { mb: t.mb, mbPerSec: t.mbPerSec, readParseMbPerSec: t.readParseMbPerSec, evalOnlyMbPerSec: t.evalOnlyMbPerSec, events: t.events };
  } finally {
    h.cleanup();
  }
}

export async function benchImport(o: { targetMb: number; bigMb: number }): Promise<ImportBench> {
  const h = benchHome();
  try {
    const codex = await throughput(h.root, ['codex'], seedCodex(h.root, o.targetMb, 'a'));
    const { plan, mb } = codex;
    const hostLogs = await hostLogThroughput(o.targetMb);
    // As the worker runs it (jobs.ts): 256 KiB batches, hook writes on the same connection in between.
    const wstore = openStore(join(h.root, 'worker-job.db'));
    const t1 = performance.now();
    const inProc = await loopWhile(() => runImport({ store: wstore, plan, ingest: (a) => ingestHistoryLog({ ...a, batchBytes: WORKER_BATCH_BYTES }) }), wstore);
    const workerMbPerSec = mb / ((performance.now() - t1) / 1000);
    wstore.close();
    // The chosen design: the import in its own process; this process plays the worker.
    const worker = openStore(join(h.dataDir, 'claude-mem.db'));
    const idle = await loopWhile(() => new Promise((r) => setTimeout(r, 3000)), worker);
    const separate = await loopWhile(() => runCli(h.env, ['import-history', '--ide', 'codex', '--json']), worker);
    if (separate.value.code !== 0) throw new Error(`import-history failed: ${separate.value.stderr.slice(-2000)}`);
    worker.close();
    const small = await peakRssMb(Math.max(20, o.bigMb / 10), 'b');
    const big = await peakRssMb(o.bigMb, 'c');
    return {
      mb, mbPerSec: codex.mbPerSec, readParseMbPerSec: codex.readParseMbPerSec, evalOnlyMbPerSec: codex.evalOnlyMbPerSec, events: codex.events, hostLogs,
      inProcessPauseMs: round(inProc.pauseMs, 1), workerMbPerSec: round(workerMbPerSec, 1), workerHookWriteMaxMs: round(Math.max(...inProc.writes), 1), separatePauseMs: round(separate.pauseMs, 1), idlePauseMs: round(idle.pauseMs, 1),
      hookWriteP99Ms: round(percentile(separate.writes, 99), 1), hookWriteMaxMs: round(Math.max(...separate.writes), 1),
      idleHookWriteMaxMs: round(Math.max(...idle.writes), 1),
      smallMb: round(small.mb, 0), smallRssMb: small.rssMb, bigMb: round(big.mb, 0), bigRssMb: big.rssMb,
    };
  } finally {
    h.cleanup();
  }
}
