/** History import jobs (import-history hands its import to the running worker: worker/import/jobs.ts). */
import { z } from 'zod';
import { HOST_IDS, type HostId } from '../../shared/hosts.js';
import type { MemoryStore } from '../../store/types.js';
import { HistoryJobs } from '../import/jobs.js';
import { HttpError, parseWith } from './errors.js';
import type { Route } from './types.js';

const jobsByStore = new WeakMap<MemoryStore, HistoryJobs>();
const jobsFor = (store: MemoryStore): HistoryJobs => {
  let j = jobsByStore.get(store);
  if (!j) jobsByStore.set(store, (j = new HistoryJobs(store)));
  return j;
};

const StartBody = z.object({
  hosts: z.array(z.enum(HOST_IDS)).min(1),
  sinceMs: z.number().finite().optional(),
  project: z.string().min(1).max(4096).optional(),
});
const JobBody = z.object({ job: z.string().min(1).max(100) });

const found = <T>(v: T | undefined): T => {
  if (v === undefined) throw new HttpError(404, 'not_found', 'no such import job');
  return v;
};

/** POST /api/history/import: starts an import of the named hosts' logs; answers its plan. */
export const historyStartRoute: Route = {
  method: 'POST',
  path: '/api/history/import',
  auth: true,
  handle: async ({ body }, ctx) => {
    const r = parseWith(StartBody, body, 'invalid_body');
    if (r.project && !r.project.startsWith('/')) throw new HttpError(400, 'invalid_body', 'project must be an absolute path');
    return { status: 202, body: await jobsFor(ctx.store).start({ ...r, hosts: r.hosts as HostId[] }) };
  },
};

/** POST /api/history/status {job}: progress, and the summary once done. */
export const historyStatusRoute: Route = {
  method: 'POST',
  path: '/api/history/status',
  auth: true,
  handle: ({ body }, ctx) => ({ body: found(jobsFor(ctx.store).status(parseWith(JobBody, body, 'invalid_body').job)) }),
};

/** POST /api/history/stop {job}: the job stops after the batch being stored. */
export const historyStopRoute: Route = {
  method: 'POST',
  path: '/api/history/stop',
  auth: true,
  handle: ({ body }, ctx) => ({ body: found(jobsFor(ctx.store).stop(parseWith(JobBody, body, 'invalid_body').job)) }),
};
