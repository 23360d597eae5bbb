/**
 * Request shapes. Types are checked here (a wrong type is a caller bug: 400 with the path);
 * semantic checks of capture events (known host, session id pattern, absolute cwd) are the
 * store's, which rejects one event without failing its batch.
 */
import { z } from 'zod';
import { resolveHostId, type HostId } from '../../shared/hosts.js';

const optStr = z.string().optional();
const optBool = z.boolean().optional();

export { CaptureEventSchema, EventsBody, MAX_EVENTS_PER_BATCH } from '../../shared/capture-event-schema.js';

/** Host id or alias → id. */
const hostParam = z
  .string()
  .transform((v, ctx) => {
    const id = resolveHostId(v);
    if (!id) ctx.addIssue({ code: 'custom', message: `unknown host "${v}"` });
    return id as HostId;
  });

const intParam = (min: number, max: number) =>
  z
    .string()
    .regex(/^-?\d+$/, 'expected an integer')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

const dateParam = z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'expected an ISO date or time');

const OBS_TYPES = ['command', 'read', 'edit', 'search', 'web', 'mcp', 'agent', 'tool', 'memory', 'note', 'prompt', 'assistant', 'summary'] as const;

export const ContextQuery = z.object({
  project: optStr,
  cwd: optStr,
  host: hostParam.optional(),
  session: optStr,
  mode: z.enum(['session', 'prompt']).optional(),
  prompt: z.string().max(4000).optional(),
  maxTokens: intParam(1, 100_000).optional(),
  limit: intParam(1, 200).optional(),
  /** `1`: the host takes memory once per session; later asks of the same session get ''. */
  once: z.enum(['0', '1']).optional(),
});

export const SearchQuery = z.object({
  q: z.string().max(2000).default(''),
  project: optStr,
  host: hostParam.optional(),
  type: z.enum(OBS_TYPES).optional(),
  since: dateParam.optional(),
  until: dateParam.optional(),
  file: optStr,
  widen: z.enum(['0', '1', 'true', 'false']).transform((v) => v === '1' || v === 'true').optional(),
  session: optStr,
  sessionHost: hostParam.optional(),
  limit: intParam(1, 200).optional(),
  offset: intParam(0, 1_000_000).optional(),
});

export const TimelineQuery = z.object({
  anchor: intParam(1, Number.MAX_SAFE_INTEGER).optional(),
  session: optStr,
  host: hostParam.optional(),
  project: optStr,
  before: intParam(0, 200).optional(),
  after: intParam(0, 200).optional(),
});

export const ObservationsBody = z.object({
  ids: z.array(z.number().int().positive()).min(1).max(500),
});

export const MemoryBody = z.object({
  text: z.string().min(1).max(256 * 1024),
  title: z.string().max(500).optional(),
  project: optStr,
  cwd: optStr,
  host: hostParam.optional(),
  hostSessionId: optStr,
  concepts: z.array(z.string()).max(100).optional(),
  files: z.array(z.string()).max(1000).optional(),
});

/** URLSearchParams → plain object; empty values count as absent. */
export function queryObject(q: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of q) if (v !== '') out[k] = v;
  return out;
}
