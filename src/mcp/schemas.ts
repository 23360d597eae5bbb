/** Input and output schemas of the five tools. Descriptions are what the agent reads: keep them exact. */
import { z } from 'zod';
import type { ObservationType } from '../store/types.js';

const OBSERVATION_TYPES = ['command', 'read', 'edit', 'search', 'web', 'mcp', 'agent', 'tool', 'memory', 'note'] as const satisfies readonly ObservationType[];
// Compile-time check that the list above names every ObservationType.
type Unlisted = Exclude<ObservationType, (typeof OBSERVATION_TYPES)[number]>;
const everyTypeListed: [Unlisted] extends [never] ? true : never = true;
void everyTypeListed;

const SEARCH_TYPES = [...OBSERVATION_TYPES, 'prompt', 'assistant', 'summary'] as const;

const host = z.string().min(1).max(40)
  .describe('Only this host (claude-code, codex, cursor, windsurf, gemini, ... ; aliases such as "claude" or "codex-cli" work).');
const since = z.string().max(40).describe('Only items at or after this time: ISO date/time (2025-01-31, 2025-01-31T14:00:00Z) or an age (30m, 12h, 7d, 2w).');
const until = z.string().max(40).describe('Only items at or before this time: ISO date/time or an age, like "since".');

export const searchInput = {
  query: z.string().max(1000)
    .describe('A few distinctive words: names, errors, files, tools ("arm64 runner build", "parseConfig", "src/config/loader.ts"). '
      + 'Ranked by relevance; not every word must match; stems match ("failing" finds "failed"); "quoted phrase" must occur; '
      + '"refact*" matches prefixes. Empty string = the most recent sessions.'),
  project: z.string().max(500).optional()
    .describe('Omitted or "." = the current project (when it has no match, every project is searched and the answer says so). '
      + '"*" = all projects. Otherwise a project id as shown in results.'),
  host: host.optional(),
  type: z.enum(SEARCH_TYPES).optional()
    .describe('Only this kind: command, read, edit, search, web, mcp, agent, tool, memory (saved with mem_save), note, prompt (what the user asked), '
      + 'assistant (what the agent replied) or summary (a session summary).'),
  since: since.optional(),
  until: until.optional(),
  file: z.string().max(1000).optional().describe('Only items that read or modified this file (absolute path or a suffix such as "src/app.ts").'),
  limit: z.number().int().min(1).max(50).optional().describe('How many sessions (1-50, default 8).'),
  offset: z.number().int().min(0).max(10_000).optional().describe('Skip this many sessions, to page through (default 0).'),
};

export const timelineInput = {
  anchor: z.number().int().min(1).optional()
    .describe('Observation id (from mem_search) to centre on. Takes precedence over session and project.'),
  session: z.string().min(1).max(128).optional()
    .describe("A host's session id (shown in results): the session's latest items, or around the anchor within it."),
  host: host.optional(),
  project: z.string().max(500).optional()
    .describe('Without anchor or session: the latest items of this project. Omitted or "." = the current project; "*" = all projects.'),
  before: z.number().int().min(0).max(50).optional().describe('Items before the anchor (0-50, default 5).'),
  after: z.number().int().min(0).max(50).optional().describe('Items after the anchor (0-50, default 5).'),
};

export const getObservationsInput = {
  ids: z.array(z.number().int().min(1)).min(1).max(50)
    .describe('Observation ids from mem_search or mem_timeline (1-50 per call).'),
};

export const saveInput = {
  text: z.string().trim().min(1).max(16_000)
    .describe('What to remember, self-contained: a decision and its reason, a gotcha, a command that works, a convention.'),
  title: z.string().max(200).optional().describe('A short headline (default: the first line of text).'),
  project: z.string().max(500).optional()
    .describe('Project to file it under. Omitted or "." = the current project.'),
  concepts: z.array(z.string().min(1).max(100)).max(20).optional()
    .describe('Keywords or tags that should find it later, e.g. ["auth", "migration"].'),
  files: z.array(z.string().min(1).max(1000)).max(50).optional()
    .describe('Files it is about; relative paths are taken from the current directory.'),
};

export const contextInput = {
  project: z.string().max(500).optional()
    .describe('Project id. Omitted or "." = the current project (or the project of "cwd" when given).'),
  cwd: z.string().max(4096).optional().describe('An absolute directory whose project to use instead of the current one.'),
  maxTokens: z.number().int().min(100).max(20_000).optional().describe('Upper bound on the size of the context (default 1500 tokens).'),
};

// Outputs: our own shapes, filled from either access path, so both validate the same way.

const evidence = z.object({
  kind: z.enum(['observation', 'prompt', 'assistant', 'summary']),
  id: z.number().describe('Id within its kind: observation ids go to mem_get_observations and mem_timeline.'),
  type: z.string(),
  title: z.string(),
  snippet: z.string(),
  promptNumber: z.number().nullable(),
  files: z.array(z.string()),
  createdAt: z.string(),
});

const searchTurn = z.object({
  promptNumber: z.number().nullable().describe('The turn within its session; null for rows of the whole session (its summary).'),
  promptId: z.number().nullable(),
  request: z.string().describe('What the user asked in this turn.'),
  outcome: z.string().describe('The last reply of the turn.'),
  outcomeId: z.number().nullable(),
  evidence: z.array(evidence).describe('The rows that matched, best first.'),
});

const searchResult = z.object({
  session: z.string().describe("The host's session id (mem_timeline {session})."),
  sessionId: z.number(),
  host: z.string(),
  project: z.string(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  summaryId: z.number().nullable(),
  request: z.string().describe('What the session was asked.'),
  outcome: z.string().describe('How it ended.'),
  files: z.array(z.string()),
  createdAt: z.string(),
  turns: z.array(searchTurn),
});

export const searchOutput = {
  via: z.enum(['worker', 'database']),
  project: z.string().nullable().describe('The project searched, null = all projects.'),
  widened: z.boolean().describe('True when the current project had no match and every project was searched.'),
  results: z.array(searchResult),
};

const timelineItem = z.object({
  kind: z.enum(['observation', 'prompt', 'summary', 'session_start', 'session_end']),
  id: z.number(),
  title: z.string(),
  host: z.string(),
  session: z.string(),
  project: z.string(),
  createdAt: z.string(),
});

export const timelineOutput = {
  via: z.enum(['worker', 'database']),
  anchor: z.number().nullable(),
  items: z.array(timelineItem),
};

const observation = z.object({
  id: z.number(),
  type: z.string(),
  title: z.string(),
  subtitle: z.string().nullable(),
  narrative: z.string(),
  facts: z.array(z.string()),
  filesRead: z.array(z.string()),
  filesModified: z.array(z.string()),
  concepts: z.array(z.string()),
  toolName: z.string().nullable(),
  host: z.string(),
  session: z.string(),
  project: z.string(),
  promptNumber: z.number().nullable(),
  createdAt: z.string(),
});

export const getObservationsOutput = {
  via: z.enum(['worker', 'database']),
  observations: z.array(observation),
  missing: z.array(z.number()).describe('Requested ids that do not exist.'),
};

export const saveOutput = {
  via: z.enum(['worker', 'database']),
  observation,
};

export const contextOutput = {
  via: z.enum(['worker', 'database']),
  project: z.string(),
  text: z.string(),
  observationIds: z.array(z.number()),
  summaryId: z.number().nullable(),
  approxTokens: z.number(),
};

export type ObservationOut = z.infer<typeof observation>;
export type SearchResultOut = z.infer<typeof searchResult>;
export type EvidenceOut = z.infer<typeof evidence>;
export type TimelineItemOut = z.infer<typeof timelineItem>;
