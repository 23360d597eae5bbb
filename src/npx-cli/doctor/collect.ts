/** One pass over every check: independent groups run side by side, each behind a safety net. */
import type { DoctorContext } from './context.js';
import { runtimeRefs } from './hook-commands.js';
import { deadLetterCheck, lastEventChecks, lossCheck, spoolCheck } from './capture.js';
import { diskCheck, permissionsCheck } from './data.js';
import { databaseChecks } from './database.js';
import { recordedChanges } from './drift.js';
import { recordedValues } from './files.js';
import { hostChecks } from './hosts.js';
import { cleanupProbes } from './probe.js';
import { realTrafficChecks } from './traffic.js';
import { entryCheck, launcherCheck, nodeCheck, sqliteCheck } from './runtime.js';
import { errorText } from './timebox.js';
import { AREAS, type Area, type Check } from './types.js';
import { workerChecks } from './worker.js';
import { syncChecks } from './sync.js';

/** A group that throws is itself a failed check: doctor never dies half-way and says nothing. */
async function guard(area: Area, run: () => Promise<Check[]>): Promise<Check[]> {
  try {
    return await run();
  } catch (e) {
    return [{ id: `${area}.doctor-error`, area, status: 'fail', evidence: `doctor could not run these checks: ${errorText(e)}`, fix: 'Report this with the output of claude-mem doctor --json.' }];
  }
}

function manifestCheck(ctx: DoctorContext): Check {
  const id = 'data.manifest';
  if (ctx.manifestError) return { id, area: 'data', status: 'fail', evidence: ctx.manifestError.message, fix: ctx.manifestError.fix };
  const n = Object.keys(ctx.manifest?.hosts ?? {}).length;
  return n
    ? { id, area: 'data', status: 'ok', evidence: `${ctx.paths.manifest} records ${n} host(s)` }
    : { id, area: 'data', status: 'warn', evidence: `${ctx.paths.manifest} records no host: nothing is captured`, fix: 'claude-mem install' };
}

export async function collect(ctx: DoctorContext): Promise<Check[]> {
  // The MCP client is the heaviest module doctor loads: load it while the first answers are awaited.
  if (ctx.hosts.length) void import('@modelcontextprotocol/sdk/client/stdio.js').then(() => import('@modelcontextprotocol/sdk/client/index.js')).catch(() => {});
  const refs = ctx.manifest ? ctx.hosts.flatMap((h) => runtimeRefs(recordedValues(recordedChanges(ctx.manifest!, h)), h)) : [];
  let sessions: string[] = [];
  const groups = await Promise.all([
    guard('runtime', async () => [nodeCheck(), ...[launcherCheck(ctx)].filter((c) => c !== undefined), ...(await Promise.all([sqliteCheck(ctx), entryCheck(ctx, refs)]))]),
    guard('data', async () => [permissionsCheck(ctx.paths), manifestCheck(ctx), ...(await databaseChecks(ctx)), diskCheck(ctx.paths)]),
    guard('worker', () => workerChecks(ctx)),
    guard('capture', async () => [await spoolCheck(ctx), lossCheck(ctx), await deadLetterCheck(ctx), ...(await lastEventChecks(ctx)), ...(await realTrafficChecks(ctx))]),
    guard('sync', () => syncChecks(ctx)),
    guard('hosts', async () => {
      const r = await hostChecks(ctx);
      sessions = r.probeSessions;
      return r.checks;
    }),
  ]);
  const cleanup = await cleanupProbes(ctx, sessions);
  const all = [...groups.flat(), ...(cleanup ? [cleanup] : [])];
  // Grouped by area, in a stable order; within an area, in the order the checks were made.
  return AREAS.flatMap((a) => all.filter((c) => c.area === a));
}
