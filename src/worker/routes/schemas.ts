/**
 * Request shapes. Types are checked here (a wrong type is a caller bug: 400 with the path);
 * semantic checks of capture events (known host, session id pattern, absolute cwd) are the
 * store's, which rejects one event without failing its batch.
 */
import { z } from 'zod';
import { resolveHostId, type HostId } from '../../shared/hosts.js';

const str = z.string();
const optStr = z.string().optional();
const optBool = z.boolean().optional();

export const CaptureEventSchema = z.looseObject({
  host: str,
  source: str,
  kind: str,
  sessionId: str,
  cwd: str,
  at: str,
  promptId: optStr,
  toolUseId: optStr,
  agentId: optStr,
  parentSessionId: optStr,
  isSubagent: optBool,
  prompt: optStr,
  toolName: optStr,
  rawToolName: optStr,
  toolInput: z.unknown().optional(),
  toolResponse: z.unknown().optional(),
  toolFailed: optBool,
  filePath: optStr,
  edits: z.array(z.object({ oldText: optStr, newText: optStr })).optional(),
  message: optStr,
  reason: optStr,
  title: optStr,
  transcriptPath: optStr,
  privateTurn: optBool,
  probe: optBool,
  model: optStr,
});

export const MAX_EVENTS_PER_BATCH = 5000;

export const EventsBody = z.object({
  events: z.array(CaptureEventSchema).min(1).max(MAX_EVENTS_PER_BATCH),
});

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

const idList = z.array(z.number().int().positive()).max(100_000).optional();

export const ForgetBody = z.object({
  observationIds: idList,
  promptIds: idList,
  assistantIds: idList,
  summaryIds: idList,
  sessions: z.array(z.object({ hostSessionId: z.string().min(1), host: hostParam.optional() })).max(1000).optional(),
  query: z.object({
    q: z.string().min(1).max(2000),
    project: optStr,
    host: hostParam.optional(),
    type: z.enum(OBS_TYPES).optional(),
    since: dateParam.optional(),
    until: dateParam.optional(),
    file: optStr,
  }).optional(),
  dryRun: z.boolean().default(false),
  /** After forgetting: rewrite the database file (VACUUM, WAL truncated). */
  purge: z.boolean().default(false),
}).refine((b) => !!(b.observationIds?.length || b.promptIds?.length || b.assistantIds?.length || b.summaryIds?.length ||
  b.sessions?.length || b.query), 'name what to forget: observationIds, promptIds, assistantIds, summaryIds, sessions or query');

export const PinBody = z.object({ observationId: z.number().int().positive() });

export const PinsQuery = z.object({ project: optStr });

export const TombstonesQuery = z.object({
  since: dateParam.optional(),
  after: optStr,
  limit: intParam(1, 100_000).optional(),
});

export const TombstonesBody = z.object({
  tombstones: z.array(z.object({
    key: z.string().min(1).max(4096),
    project: z.string().nullable().optional(),
    createdAt: optStr,
  })).min(1).max(100_000),
});

export const ImportBody = z.object({
  records: z.array(z.looseObject({ type: z.string() })).min(1).max(20_000),
});

/** URLSearchParams → plain object; empty values count as absent. */
export function queryObject(q: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of q) if (v !== '') out[k] = v;
  return out;
}
