/** Worker start to healthy, and idle resident memory. */
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { benchHome, BIN, median, round } from './util.js';

async function healthy(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    return res.ok;
  } catch {
    return false;
  }
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}

export interface WorkerStartFigures {
  startToHealthyMs: number;
  idleRssMb: number;
}

export async function benchWorkerStart(runs = 5): Promise<WorkerStartFigures> {
  const times: number[] = [];
  let idleRssMb = NaN;
  for (let r = 0; r < runs; r++) {
    const home = benchHome();
    try {
      // Settings and token exist already, as after install: time the process start alone.
      spawnSync(process.execPath, [BIN, 'start'], { env: home.env, stdio: 'ignore' });
      spawnSync(process.execPath, [BIN, 'stop'], { env: home.env, stdio: 'ignore' });
      const t0 = performance.now();
      const r1 = spawnSync(process.execPath, [BIN, 'start'], { env: home.env, encoding: 'utf8' });
      if (r1.status !== 0) throw new Error(`start failed: ${r1.stderr}`);
      const info = JSON.parse(readFileSync(`${home.dataDir}/worker.json`, 'utf8')) as { port: number; pid: number };
      while (!(await healthy(info.port))) await new Promise((r2) => setTimeout(r2, 5));
      times.push(performance.now() - t0);
      if (r === runs - 1) {
        await new Promise((r2) => setTimeout(r2, 3000));
        idleRssMb = rssMb(info.pid);
      }
    } finally {
      home.cleanup();
    }
  }
  return { startToHealthyMs: round(median(times), 1), idleRssMb: round(idleRssMb, 1) };
}
