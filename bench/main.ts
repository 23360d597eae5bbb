/**
 * `npm run bench`: every speed and memory target, each measured against a baseline taken in the
 * same run on the same machine. Figures are printed as a table and written to bench-results.json.
 * BENCH_QUICK=1 shrinks the sizes (for a smoke run); BENCH_SKIP_1M=1 skips the 1M search point.
 */
import { writeFileSync } from 'node:fs';
import { benchIngest } from './ingest.js';
import { benchSearch } from './search.js';
import { benchWorkerStart } from './worker-start.js';
import { round } from './util.js';

interface Row {
  area: string;
  figure: string;
  value: string;
  target: string;
  pass: boolean;
}

const quick = process.env.BENCH_QUICK === '1';
const rows: Row[] = [];
const results: Record<string, unknown> = { node: process.version, date: new Date().toISOString() };

function row(area: string, figure: string, value: string, target: string, pass: boolean): void {
  rows.push({ area, figure, value, target, pass });
  console.error(`${pass ? 'ok  ' : 'MISS'} ${area.padEnd(10)} ${figure.padEnd(46)} ${value.padEnd(26)} target ${target}`);
}

async function main(): Promise<void> {
  const ws = await benchWorkerStart(quick ? 2 : 5);
  results.workerStart = ws;
  row('worker', 'start → healthy (median)', `${ws.startToHealthyMs} ms`, '< 500 ms', ws.startToHealthyMs < 500);
  row('worker', 'idle RSS', `${ws.idleRssMb} MB`, '< 80 MB', ws.idleRssMb < 80);

  const ing = await benchIngest({ singleRequests: quick ? 1000 : 5000, batches: quick ? 20 : 100, batchSize: 1000, concurrency: 8 });
  results.ingest = ing;
  row('ingest', 'one event/request vs bare node:http', `${round(ing.singleEventRatio * 100, 1)}% (${Math.round(ing.workerReqPerSec)} vs ${Math.round(ing.bareReqPerSec)} req/s)`, '≥ 50%', ing.singleEventRatio >= 0.5);
  row('ingest', 'batch route', `${Math.round(ing.batchEventsPerSec)} events/s`, '≥ 10,000/s', ing.batchEventsPerSec >= 10_000);
  row('ingest', 'stored exactly once', `${ing.storedRows}/${ing.expectedRows}`, 'equal', ing.storedRows === ing.expectedRows);

  for (const n of quick ? [10_000] : process.env.BENCH_SKIP_1M === '1' ? [100_000] : [100_000, 1_000_000]) {
    const s = benchSearch(n);
    results[`search${n}`] = s;
    row('search', `p95 at ${n.toLocaleString('en')} observations`, `${s.p95Ms} ms (filtered ${s.filteredP95Ms} ms)`, n <= 100_000 ? '< 20 ms' : 'report', n > 100_000 || s.p95Ms < 20);
  }

  writeFileSync('bench-results.json', JSON.stringify({ ...results, rows }, null, 2) + '\n');
  const missed = rows.filter((r) => !r.pass).length;
  console.error(`\n${rows.length - missed} targets met, ${missed} missed. Figures in bench-results.json.`);
  process.exitCode = missed ? 1 : 0;
}

await main();
