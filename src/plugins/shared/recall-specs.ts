/**
 * The five recall tools as native plugin tools: the same names and arguments as the MCP server's
 * (src/mcp), described in plain JSON Schema so any host can take them (OpenCode V1 `tool.args`
 * and `tool.definition`, OpenCode V2 `editor.add({input})`, Pi `registerTool({parameters})`).
 */
import { SEARCH_DESCRIPTION } from '../../mcp/format.js';
import type { ObservationType } from '../../store/types.js';

export type RecallToolName = 'mem_search' | 'mem_timeline' | 'mem_get_observations' | 'mem_save' | 'mem_context';

export const RECALL_TOOL_NAMES: readonly RecallToolName[] = ['mem_search', 'mem_timeline', 'mem_get_observations', 'mem_save', 'mem_context'];

type JsonSchema = Record<string, unknown>;

export interface RecallToolSpec {
  name: RecallToolName;
  /** A short label for hosts that show one. */
  title: string;
  description: string;
  /** `{ type: 'object', properties, required, additionalProperties: false }`. */
  parameters: { type: 'object'; properties: Record<string, JsonSchema>; required: string[]; additionalProperties: false };
  readOnly: boolean;
}

export const SEARCH_TYPES = ['command', 'read', 'edit', 'search', 'web', 'mcp', 'agent', 'tool', 'memory', 'note', 'prompt', 'assistant', 'summary'] as const satisfies
  readonly (ObservationType | 'prompt' | 'assistant' | 'summary')[];

const str = (description: string, maxLength = 1000): JsonSchema => ({ type: 'string', maxLength, description });
const int = (description: string, minimum: number, maximum: number): JsonSchema => ({ type: 'integer', minimum, maximum, description });
const host = str('Only this host (claude-code, codex, opencode, cursor, ...; aliases such as "claude" work).', 40);
const since = str('Only items at or after this time: ISO date/time (2025-01-31, 2025-01-31T14:00:00Z) or an age (30m, 12h, 7d, 2w).', 40);
const until = str('Only items at or before this time: ISO date/time or an age, like "since".', 40);

const object = (properties: Record<string, JsonSchema>, required: string[] = []): RecallToolSpec['parameters'] =>
  ({ type: 'object', properties, required, additionalProperties: false });

export const RECALL_TOOLS: readonly RecallToolSpec[] = [
  {
    name: 'mem_search',
    title: 'Search memory',
    readOnly: true,
    description: SEARCH_DESCRIPTION,
    parameters: object({
      query: str('A few distinctive words: names, errors, files, tools ("arm64 runner build", "parseConfig", "src/config/loader.ts"). '
        + 'Ranked by relevance; not every word must match; stems match ("failing" finds "failed"); "quoted phrase" must occur; '
        + '"refact*" matches prefixes. Empty string = the most recent sessions.'),
      project: str('Omitted or "." = the current project (when it has no match, every project is searched and the answer says so). '
        + '"*" = all projects. Otherwise a project id as shown in results.', 500),
      host,
      type: { type: 'string', enum: [...SEARCH_TYPES], description: 'Only this kind: command, read, edit, search, web, mcp, agent, tool, memory, note, prompt, assistant (what the agent replied) or summary.' },
      since,
      until,
      file: str('Only items that read or modified this file (absolute path or a suffix such as "src/app.ts").'),
      limit: int('How many sessions (1-50, default 8).', 1, 50),
      offset: int('Skip this many sessions, to page through (default 0).', 0, 10_000),
    }, ['query']),
  },
  {
    name: 'mem_timeline',
    title: 'Memory timeline',
    readOnly: true,
    description:
      'What happened, in order: prompts, tool uses, summaries and session starts/ends around an observation (anchor = an id from mem_search), '
      + 'or the latest items of a session or project. Step 2 of mem_search → mem_timeline → mem_get_observations. '
      + 'With no arguments: the latest activity in the current project.',
    parameters: object({
      anchor: int('Observation id (from mem_search) to centre on. Takes precedence over session and project.', 1, Number.MAX_SAFE_INTEGER),
      session: str("A host's session id (shown in results): the session's latest items, or around the anchor within it.", 128),
      host,
      project: str('Without anchor or session: the latest items of this project. Omitted or "." = the current project; "*" = all projects.', 500),
      before: int('Items before the anchor (0-50, default 5).', 0, 50),
      after: int('Items after the anchor (0-50, default 5).', 0, 50),
    }),
  },
  {
    name: 'mem_get_observations',
    title: 'Get observations',
    readOnly: true,
    description:
      'Full details of observations by id: narrative, facts, files read and modified, concepts, tool, host, session. '
      + 'Step 3: fetch only the ids you need from mem_search or mem_timeline (1-50 per call). Prompt and summary ids are not observation ids.',
    parameters: object({
      ids: { type: 'array', items: { type: 'integer', minimum: 1 }, minItems: 1, maxItems: 50, description: 'Observation ids from mem_search or mem_timeline (1-50 per call).' },
    }, ['ids']),
  },
  {
    name: 'mem_save',
    title: 'Save a memory',
    readOnly: false,
    description:
      'Save something worth remembering so any future session, in any agent, can find it: a decision and its reason, a convention, '
      + 'a gotcha, a command that works, a user preference. Filed under the current project unless "project" is given; mem_search finds it '
      + '(type "memory"). No need to save what is captured automatically (tool calls, edits, prompts).',
    parameters: object({
      text: str('What to remember, self-contained: a decision and its reason, a gotcha, a command that works, a convention.', 16_000),
      title: str('A short headline (default: the first line of text).', 200),
      project: str('Project to file it under. Omitted or "." = the current project.', 500),
      concepts: { type: 'array', items: { type: 'string', maxLength: 100 }, maxItems: 20, description: 'Keywords or tags that should find it later, e.g. ["auth", "migration"].' },
      files: { type: 'array', items: { type: 'string', maxLength: 1000 }, maxItems: 50, description: 'Files it is about; relative paths are taken from the current directory.' },
    }, ['text']),
  },
  {
    name: 'mem_context',
    title: 'Project memory context',
    readOnly: true,
    description:
      'The memory digest of a project, the same one injected at session start: recent work, the latest session summary, saved memories. '
      + 'Use it when no claude-mem context was injected, after switching projects, or to refresh during a long session. '
      + 'Defaults to the current project; then use mem_search for anything specific.',
    parameters: object({
      project: str('Project id. Omitted or "." = the current project (or the project of "cwd" when given).', 500),
      cwd: str('An absolute directory whose project to use instead of the current one.', 4096),
      maxTokens: int('Upper bound on the size of the context (default 1500 tokens).', 100, 20_000),
    }),
  },
];

export function isRecallToolName(name: string): name is RecallToolName {
  return (RECALL_TOOL_NAMES as readonly string[]).includes(name);
}

/** Our own tools under any name a host gives them (one rule for hooks, plugins and the store). */
export { isOwnRecallCall, isOwnRecallTool } from '../../shared/own-tools.js';
