/**
 * `npm run bench`: every speed and memory target, each measured against a baseline taken in the
 * same run on the same machine. Figures are printed as a table and written to bench-results.json.
 * BENCH_QUICK=1 shrinks the sizes (for a smoke run); BENCH_SKIP_1M=1 skips the 1M search point;
 * BENCH_ONLY=<area,...> runs only those areas (worker, ingest, search, hook, watcher, import, install, doctor, memory, viewer).
 * BENCH_EXPORT_MB sets the export size of the memory area (default 1024; 50 with BENCH_QUICK).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { benchIngest } from './ingest.js';
import { benchSearch } from './search.js';
import { benchWorkerStart } from './worker-start.js';
import { benchHook } from './hook.js';
import { benchTranscripts } from './transcripts.js';
import { benchInstall } from './install.js';
import { benchDoctor } from './doctor.js';
import { benchViewer } from './viewer.js';
import { benchMemoryIo } from './memory-io.js';
import { benchImport } from './import.js';
import { benchSync } from './sync.js';
import { round } from './util.js';

interface Row {
  area: string;
  figure: string;
  value: string;
  target: string;
  pass: boolean;
}

const quick = process.env.BENCH_QUICK === '1';
const only = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((a) => a.trim())) : null;
const wanted = (area: string): boolean => !only || only.has(area);
const rows: Row[] = [];
const results: Record<string, unknown> = { node: process.version, date: new Date().toISOString() };

function row(area: string, figure: string, value: string, target: string, pass: boolean): void {
  rows.push({ area, figure, value, target, pass });
  const mark = target === 'report' ? 'info' : pass ? 'ok  ' : 'MISS';
  console.error(`${mark} ${area.padEnd(10)} ${figure.padEnd(46)} ${value.padEnd(26)} target ${target}`);
}

async function main(): Promise<void> {
  if (wanted('worker')) {
    const ws = await benchWorkerStart(quick ? 2 : 5);
    results.workerStart = ws;
    row('worker', 'start → healthy (median)', `${ws.startToHealthyMs} ms`, '< 500 ms', ws.startToHealthyMs < 500);
    row('worker', 'idle RSS', `${ws.idleRssMb} MB`, '< 80 MB', ws.idleRssMb < 80);
  }

  if (wanted('ingest')) await ingestRows();
  if (wanted('search')) searchRows();
  if (wanted('hook')) await hookRows();
  if (wanted('watcher')) await watcherRows();
  if (wanted('import')) await importRows();
  if (wanted('install')) await installRows();
  if (wanted('doctor')) await doctorRows();
  if (wanted('viewer')) await viewerRows();
  if (wanted('memory')) await memoryRows();
  if (wanted('sync')) await syncRows();

  writeFileSync('bench-results.json', JSON.stringify(withEarlierAreas({ ...results, rows }), null, 2) + '\n');
  const targets = rows.filter((r) => r.target !== 'report');
  const missed = targets.filter((r) => !r.pass).length;
  console.error(`\n${targets.length - missed} targets met, ${missed} missed. Figures in bench-results.json.`);
  process.exitCode = missed ? 1 : 0;
}

async function syncRows(): Promise<void> {
  const s = await benchSync(quick ? 10_000 : 100_000);
  results.sync = s;
  const k = (n: number) => `${round(n / 1000, 1)}k rows/s`;
  row('sync', `push ${s.rows} observations' events`, k(s.pushRowsPerS), `report (plain INSERT ${k(s.baselineInsertRowsPerS)})`, true);
  row('sync', `pull + store ${s.rows} (derived rows)`, k(s.pullRowsPerS), `report (plain SELECT+INSERT ${k(s.baselineSelectRowsPerS)})`, true);
  row('sync', 'push ≥ 1/4 of plain INSERT', `${round(s.pushRowsPerS / s.baselineInsertRowsPerS, 2)}x`, '≥ 0.25x', s.pushRowsPerS >= s.baselineInsertRowsPerS / 4);
  row('sync', `convergence, ${s.rows} rows (push + pull)`, `${s.convergeS} s`, 'report', true);
  row('sync', 'hook median while the worker pulls', `${s.hookSyncingMs} ms`, `≤ 1.25x paused (${s.hookPausedMs} ms)`, s.hookSyncingMs <= s.hookPausedMs * 1.25);
}

/** A run of some areas keeps the figures an earlier run wrote for the others. */
function withEarlierAreas(current: Record<string, unknown> & { rows: Row[] }): Record<string, unknown> {
  if (!only || !existsSync('bench-results.json')) return current;
  const earlier = JSON.parse(readFileSync('bench-results.json', 'utf8')) as Record<string, unknown> & { rows?: Row[] };
  const kept = (earlier.rows ?? []).filter((r) => !only.has(r.area));
  return { ...earlier, ...current, rows: [...kept, ...current.rows] };
}

async function ingestRows(): Promise<void> {
  const ing = await benchIngest({ singleRequests: quick ? 1000 : 5000, batches: quick ? 20 : 100, batchSize: 1000, concurrency: 8 });
  results.ingest = ing;
  row('ingest', 'one event/request vs bare node:http', `${round(ing.singleEventRatio * 100, 1)}% (${Math.round(ing.workerReqPerSec)} vs ${Math.round(ing.bareReqPerSec)} req/s)`, '≥ 50%', ing.singleEventRatio >= 0.5);
  row('ingest', 'batch route', `${Math.round(ing.batchEventsPerSec)} events/s`, '≥ 10,000/s', ing.batchEventsPerSec >= 10_000);
  row('ingest', 'stored exactly once', `${ing.storedRows}/${ing.expectedRows}`, 'equal', ing.storedRows === ing.expectedRows);
}

function searchRows(): void {
  for (const n of quick ? [10_000] : process.env.BENCH_SKIP_1M === '1' ? [100_000] : [100_000, 1_000_000]) {
    const s = benchSearch(n);
    results[`search${n}`] = s;
    row('search', `p95 at ${n.toLocaleString('en')} observations`, `${s.p95Ms} ms (filtered ${s.filteredP95Ms} ms)`, n <= 100_000 ? '< 20 ms' : 'report', n > 100_000 || s.p95Ms < 20);
    row('search', `questions at ${n.toLocaleString('en')} observations, p50 / p95`, `${s.questionP50Ms} / ${s.questionP95Ms} ms`, 'report', true);
  }
}

async function hookRows(): Promise<void> {
  const hook = await benchHook({ runs: quick ? 8 : 30 });
  results.hook = hook;
  const up = hook.hookUpMs / hook.nodeBaselineMs;
  const down = hook.hookDownMs / hook.nodeBaselineMs;
  const ctxLimit = hook.nodeBaselineMs * 1.3 + 50;
  row('hook', 'PostToolUse, worker up vs node -e 0', `${round(up)}× (${hook.hookUpMs} vs ${hook.nodeBaselineMs} ms)`, '≤ 1.3×', up <= 1.3);
  row('hook', 'PostToolUse, worker down (spool) vs node -e 0', `${round(down)}× (${hook.hookDownMs} ms)`, '≤ 1.5×', down <= 1.5);
  row('hook', 'SessionStart context, 10k observations', `${hook.contextMs} ms`, `≤ 1.3× node + 50 ms (${round(ctxLimit, 1)} ms)`, hook.contextMs <= ctxLimit);
}

async function watcherRows(): Promise<void> {
  const tr = await benchTranscripts({ targetMb: quick ? 5 : 50, latencySamples: quick ? 15 : 60 });
  results.transcripts = tr;
  row('watcher', 'JSONL through schema + ingest', `${tr.mbPerSec} MB/s (evaluation alone ${tr.evalOnlyMbPerSec}; its rows by plain SQL alone ${tr.dbOnlyMbPerSec})`, '≥ 50 MB/s', tr.mbPerSec >= 50);
  row('watcher', 'longest event-loop pause while ingesting', `${tr.longestPauseMs} ms`, 'report', true);
  row('watcher', 'append → stored row, p95', `${tr.appendToRowP95Ms} ms`, '< 300 ms', tr.appendToRowP95Ms < 300);
  const appendRatio = tr.bigFileAppendMs / tr.smallFileAppendMs;
  row('watcher', 'one-line append: 1 GB file vs small file', `${round(appendRatio)}× (${tr.bigFileAppendMs} vs ${tr.smallFileAppendMs} ms)`, '≈ 1× (≤ 1.5×)', appendRatio <= 1.5);
}

async function importRows(): Promise<void> {
  const im = await benchImport({ targetMb: quick ? 10 : 50, bigMb: quick ? 100 : 1000 });
  results.import = im;
  row('import', `import-history end to end, ${im.mb} MB generated Codex`, `${im.mbPerSec} MB/s (read+parse alone ${im.readParseMbPerSec}; +schema ${im.evalOnlyMbPerSec})`, '≥ 50 MB/s', im.mbPerSec >= 50);
  const hl = im.hostLogs;
  row('import', `the same, ${hl.mb} MB real host sessions (Claude Code + Codex)`, `${hl.mbPerSec} MB/s (read+parse alone ${hl.readParseMbPerSec}; +schema ${hl.evalOnlyMbPerSec}; ${Math.round(hl.events / hl.mb)} events/MB)`, '≥ 50 MB/s', hl.mbPerSec >= 50);
  row('import', 'worker loop pause, import run by the worker', `${im.inProcessPauseMs} ms (no import ${im.idlePauseMs}; ${im.workerMbPerSec} MB/s)`, 'report', true);
  row('import', 'hook write during it, max', `${im.workerHookWriteMaxMs} ms (no import ${im.idleHookWriteMaxMs})`, 'report', true);
  row('import', 'same, import in another process: pause / write p99 / max', `${im.separatePauseMs} / ${im.hookWriteP99Ms} / ${im.hookWriteMaxMs} ms`, 'report', true);
  row('import', `peak RSS, ${im.bigMb} MB history vs ${im.smallMb} MB`, `${im.bigRssMb} vs ${im.smallRssMb} MB`, 'bounded (≤ 1.5×)', im.bigRssMb <= im.smallRssMb * 1.5);
}

async function installRows(): Promise<void> {
  const inst = await benchInstall(quick ? 3 : 7);
  results.install = inst;
  row('install', 'install --yes, all 18 hosts (no worker start)', `${Math.round(inst.allHostsMs)} ms (cpu ${Math.round(inst.cpuMs)} ms)`, '< 1000 ms', inst.allHostsMs < 1000);
}

async function doctorRows(): Promise<void> {
  const doc = await benchDoctor(quick ? 2 : 5);
  results.doctor = doc;
  row('doctor', `doctor, all hosts (${doc.checks} checks)`, `${Math.round(doc.doctorMs)} ms`, '< 2000 ms', doc.doctorMs < 2000);
}

async function viewerRows(): Promise<void> {
  const n = quick ? 10_000 : 100_000;
  const v = await benchViewer(n, quick ? 5 : 15, quick ? 20 : 60);
  results.viewer = v;
  const at = `at ${n.toLocaleString('en')} observations`;
  row('viewer', `first paint ${at}`, `${v.firstPaintMs} ms (same bytes, bare node:http: ${v.baselineFirstPaintMs} ms)`, '< 200 ms', v.firstPaintMs < 200);
  row('viewer', `live feed rendered ${at}`, `${v.feedRenderedMs} ms (bare node:http: ${v.baselineFeedRenderedMs} ms)`, '< 200 ms', v.feedRenderedMs < 200);
  row('viewer', `search in the page ${at}, p95`, `${v.pageSearchP95Ms} ms (median ${v.pageSearchMedianMs})`, '< 200 ms', v.pageSearchP95Ms < 200);
  row('viewer', 'viewer search route vs signed /api/search, p95', `${v.viewerSearchP95Ms} vs ${v.apiSearchP95Ms} ms`, 'report', true);
}

async function memoryRows(): Promise<void> {
  const mb = Number(process.env.BENCH_EXPORT_MB ?? (quick ? 50 : 1024));
  const m = await benchMemoryIo(mb);
  results.memoryIo = m;
  const size = `${m.exportMb} MB export`;
  row('memory', `export, ${size}`, `${m.exportMbPerSec} MB/s, ${m.exportMbPerCpuSec}/cpu-s (plain copy ${m.copyMbPerSec}, ${m.copyMbPerCpuSec}/cpu-s)`, 'report', true);
  row('memory', 'export peak RSS', `${m.exportPeakRssMb} MB (plain copy ${m.copyPeakRssMb} MB)`, '< 256 MB (bounded)', m.exportPeakRssMb < 256);
  row('memory', `import, ${size} into a fresh database`, `${m.importMbPerSec} MB/s, ${m.importMbPerCpuSec}/cpu-s (read + JSON.parse ${m.readParseMbPerSec}, ${m.readParseMbPerCpuSec}/cpu-s)`, 'report', true);
  row('memory', 'import peak RSS', `${m.importPeakRssMb} MB (read + JSON.parse ${m.readParsePeakRssMb} MB)`, '< 256 MB (bounded)', m.importPeakRssMb < 256);
  row('memory', 'second import of the same file adds', `${m.reimportAdded} rows`, '0', m.reimportAdded === 0);
}

await main();
