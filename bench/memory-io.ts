/**
 * Export and import throughput and peak memory, for an export of about `targetMb` (1 GB by
 * default). Both run as the real CLI in a child process (peak RSS read from /proc as VmHWM).
 * Baselines, same run, same bytes: a plain stream copy of the export file (what writing that much
 * costs at all) and a plain line-by-line read with JSON.parse (what reading it costs at all).
 */
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CaptureEvent } from '../src/shared/capture-event.js';
import { openStore } from '../src/store/sqlite-store.js';
import { benchHome, BIN, round } from './util.js';

export interface MemoryIoResult {
  exportMb: number;
  rows: { events: number; observations: number };
  exportMbPerSec: number;
  /** The same per CPU second of the process (the machine may be shared). */
  exportMbPerCpuSec: number;
  copyMbPerCpuSec: number;
  importMbPerCpuSec: number;
  readParseMbPerCpuSec: number;
  exportPeakRssMb: number;
  copyMbPerSec: number;
  copyPeakRssMb: number;
  importMbPerSec: number;
  importPeakRssMb: number;
  readParseMbPerSec: number;
  readParsePeakRssMb: number;
  reimportAdded: number;
}

// Pseudo-words of letters (as prose and most tool output are), from a vocabulary of 3000.
const SYLLABLES = ['ka', 'ro', 'mi', 'te', 'lu', 'sa', 'po', 'ne', 'di', 'fa', 'gu', 'be', 'zo', 'wi', 'ha'];
const WORDS = Array.from({ length: 3000 }, (_, i) => {
  let w = '';
  for (let n = i + 15; n > 0; n = Math.floor(n / 15)) w += SYLLABLES[n % 15];
  return w;
});

function output(seed: number, words: number): string {
  const out: string[] = [];
  let x = seed;
  for (let i = 0; i < words; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    out.push(WORDS[x % WORDS.length]);
    if (i % 12 === 11) out.push('\n');
  }
  return out.join(' ');
}

/** Fills a store until its export is about `targetMb`: sessions of prompts and tool calls with sizeable output. */
function populate(dbPath: string, targetMb: number): { events: number; observations: number } {
  const store = openStore(dbPath, { projectFor: () => '/bench/project' });
  const approxBytes = (): number => {
    const q = (sql: string) => (store as unknown as { db: { prepare(s: string): { pluck(): { get(): number } } } }).db.prepare(sql).pluck().get() ?? 0;
    return q('SELECT coalesce(sum(length(payload)) + count(*) * 200, 0) FROM events') +
      q('SELECT coalesce(sum(length(narrative) + length(title) + length(facts) + length(concepts)) + count(*) * 400, 0) FROM observations');
  };
  let n = 0;
  let session = 0;
  // The size is summed over the tables, so it is looked at every 10 batches only.
  for (let batchNo = 0; batchNo % 10 !== 0 || approxBytes() < targetMb * 1024 * 1024; batchNo++) {
    const batch: CaptureEvent[] = [];
    for (let i = 0; i < 2000; i++, n++) {
      if (n % 50 === 0) session++;
      const at = new Date(Date.UTC(2025, 0, 1) + n * 1000).toISOString();
      const base = { host: 'claude-code' as const, source: 'hook' as const, sessionId: `bench-${session}`, cwd: '/bench/project', at };
      batch.push(n % 10 === 0
        ? { ...base, kind: 'prompt', promptId: `p${n}`, prompt: output(n, 30) }
        : { ...base, kind: 'tool_result', toolUseId: `t${n}`, toolName: 'Bash', toolInput: { command: `run step ${n}` },
          toolResponse: { stdout: output(n, 450), stderr: '', exitCode: 0 } });
    }
    store.ingest(batch);
  }
  store.flushSearchIndex();
  store.checkpointWal();
  const stats = store.stats();
  store.close();
  return { events: stats.events, observations: stats.observations };
}

/** Runs a child to completion; its wall time and peak RSS (VmHWM, polled from /proc). */
function measure(args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; cpuMs: number; peakRssMb: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    let peakKb = 0;
    let cpuTicks = 0;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakKb = Math.max(peakKb, Number(m[1]));
        // utime + stime (fields 14 and 15, in clock ticks of 10 ms): the machine may be shared.
        const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        cpuTicks = Number(f[11]) + Number(f[12]);
      } catch {
        // Exited between two polls: the last figure stands.
      }
    }, 20);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      if (code !== 0) return reject(new Error(`${args.join(' ')} exited ${code}`));
      resolve({ ms: performance.now() - t0, cpuMs: cpuTicks * 10, peakRssMb: round(peakKb / 1024, 1), stdout });
    });
  });
}

const COPY = `const fs = require('node:fs'); const { pipeline } = require('node:stream/promises');
pipeline(fs.createReadStream(process.argv[1]), fs.createWriteStream(process.argv[2])).catch((e) => { console.error(e); process.exit(1); });`;
const READ_PARSE = `const rl = require('node:readline').createInterface({ input: require('node:fs').createReadStream(process.argv[1]), crlfDelay: Infinity });
let n = 0; rl.on('line', (l) => { if (l) { JSON.parse(l); n++; } }); rl.on('close', () => console.log(n));`;

export async function benchMemoryIo(targetMb: number): Promise<MemoryIoResult> {
  const home = benchHome();
  try {
    const rows = populate(join(home.dataDir, 'claude-mem.db'), targetMb);
    const file = join(home.root, 'export.jsonl');
    const ex = await measure([BIN, 'export', '-o', file], home.env);
    const mb = statSync(file).size / 1024 / 1024;
    const copy = await measure(['-e', COPY, file, join(home.root, 'copy.jsonl')], home.env);
    const read = await measure(['-e', READ_PARSE, file], home.env);
    const fresh = benchHome();
    try {
      const im = await measure([BIN, 'import', file, '--json'], fresh.env);
      const again = await measure([BIN, 'import', file, '--json'], fresh.env);
      const added = Object.values((JSON.parse(again.stdout) as { added: Record<string, number> }).added).reduce((a, b) => a + b, 0);
      const rate = (ms: number) => round(mb / (Math.max(ms, 1) / 1000), 1);
      return {
        exportMb: round(mb, 1), rows,
        exportMbPerSec: rate(ex.ms), exportPeakRssMb: ex.peakRssMb,
        copyMbPerSec: rate(copy.ms), copyPeakRssMb: copy.peakRssMb,
        importMbPerSec: rate(im.ms), importPeakRssMb: im.peakRssMb,
        readParseMbPerSec: rate(read.ms), readParsePeakRssMb: read.peakRssMb,
        reimportAdded: added,
        exportMbPerCpuSec: rate(ex.cpuMs), copyMbPerCpuSec: rate(copy.cpuMs), importMbPerCpuSec: rate(im.cpuMs), readParseMbPerCpuSec: rate(read.cpuMs),
      };
    } finally {
      fresh.cleanup();
    }
  } finally {
    home.cleanup();
  }
}
