/** Worker: identity proven (pid, port, data dir, instance, version), the token, and who holds its port. */
import { readFileSync } from 'node:fs';
import { VERSION } from '../../shared/version.js';
import type { StatusReport } from '../../worker/lifecycle/status.js';
import type { DoctorContext } from './context.js';
import { age } from './timebox.js';
import type { Check } from './types.js';

const START_FIX = 'claude-mem doctor --fix (or: claude-mem start)';
const INSTALL_FIX = 'claude-mem install (sets up the data directory and starts the worker)';

function identity(st: StatusReport, fresh: boolean): Check {
  const id = 'worker.identity';
  if (st.state === 'running' && st.worker && st.health) {
    const h = st.health;
    const text = `pid ${h.pid}, port ${st.worker.port}, data dir ${h.dataDir}, version ${h.version}, up ${age(h.uptimeMs)} (GET /api/health proved instance ${h.instanceId.slice(0, 8)})`;
    if (h.version !== VERSION) {
      return { id, area: 'worker', status: 'warn', evidence: `${text}; this claude-mem is ${VERSION}`, fix: 'claude-mem restart (so the worker runs this version)' };
    }
    return { id, area: 'worker', status: 'ok', evidence: text };
  }
  const why = st.state === 'stopped' ? 'not running' : st.state === 'stale' ? 'not running (stale record)' : 'another process answers on its port';
  return {
    id, area: 'worker', status: 'fail',
    evidence: `${why}: ${st.evidence.join('; ')}`,
    fix: st.state === 'foreign' ? (st.fix ?? 'free the port, then claude-mem start')
      : st.lastError ? 'resolve what the last start failed on (see above), then claude-mem doctor --fix (or: claude-mem start)' : fresh ? INSTALL_FIX : START_FIX,
  };
}

function token(st: StatusReport, path: string, fresh: boolean): Check {
  const id = 'worker.token';
  if (st.state === 'running') {
    if (st.tokenAccepted === true) return { id, area: 'worker', status: 'ok', evidence: `the worker accepts ${path}` };
    return { id, area: 'worker', status: 'warn', evidence: `token not verified: ${st.evidence[st.evidence.length - 1]}`, fix: 'claude-mem restart' };
  }
  if (st.tokenAccepted === false) return { id, area: 'worker', status: 'fail', evidence: `the worker rejects ${path}: it changed after the worker started`, fix: 'claude-mem restart' };
  let text = '';
  try {
    text = readFileSync(path, 'utf8').trim();
  } catch {
    // reported below
  }
  if (!/^[0-9a-f]{64}$/.test(text)) return { id, area: 'worker', status: 'fail', evidence: `${path} is missing or not a token`, fix: fresh ? INSTALL_FIX : 'claude-mem restart (a new token is created)' };
  return { id, area: 'worker', status: 'ok', evidence: `${path} present (not verified: the worker is not running)` };
}

function settingsPort(ctx: DoctorContext): number | undefined {
  try {
    const p = (JSON.parse(readFileSync(ctx.paths.settings, 'utf8')) as { port?: unknown }).port;
    return typeof p === 'number' ? p : undefined;
  } catch {
    return undefined;
  }
}

async function port(ctx: DoctorContext, st: StatusReport): Promise<Check> {
  const id = 'worker.port';
  const want = settingsPort(ctx) ?? st.worker?.port;
  if (want === undefined) return { id, area: 'worker', status: 'warn', evidence: `no "port" in ${ctx.paths.settings}`, fix: 'claude-mem start (chooses and records a port)' };
  if (st.state === 'running' && st.worker?.port === want) return { id, area: 'worker', status: 'ok', evidence: `127.0.0.1:${want} is the worker's (pid ${st.worker.pid})` };
  const { describePid, findPortOwner } = await import('../../worker/lifecycle/proc.js');
  const holder = st.portOwner?.port === want && st.portOwner.pid ? st.portOwner.pid : findPortOwner(want);
  if (holder && holder !== st.worker?.pid) {
    return {
      id, area: 'worker', status: 'fail',
      evidence: `port ${want} (settings.json) is in use by ${describePid(holder)}, not by the claude-mem worker`,
      fix: `Stop that process (kill ${holder}), or set another "port" in ${ctx.paths.settings}; then claude-mem start.`,
    };
  }
  if (st.state === 'running') return { id, area: 'worker', status: 'warn', evidence: `the worker listens on ${st.worker?.port}, settings.json says ${want}`, fix: 'claude-mem restart' };
  return { id, area: 'worker', status: 'ok', evidence: `port ${want} is free for the worker` };
}

export async function workerChecks(ctx: DoctorContext): Promise<Check[]> {
  const st = await ctx.worker();
  return [identity(st, ctx.fresh), token(st, ctx.paths.token, ctx.fresh), await port(ctx, st)];
}
