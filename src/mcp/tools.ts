/** The five memory tools, written once against MemoryReader. */
import { isAbsolute, resolve } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { runnable } from '../npx-cli/command-form.js';
import type { HostId } from '../shared/hosts.js';
import { CURRENT_PROJECT, ToolInputError, resolveHostArg, resolveProjectArg, resolveTimeArg } from './args.js';
import {
  contextText, observationText, observationsText, SEARCH_DESCRIPTION, searchText, timelineText, toObservation, toSearchResults, toTimelineItem,
} from './format.js';
import { debug } from './log.js';
import { RequestRejectedError, type MemoryReader } from './reader.js';
import {
  contextInput, contextOutput, getObservationsInput, getObservationsOutput, saveInput, saveOutput,
  searchInput, searchOutput, timelineInput, timelineOutput,
} from './schemas.js';

interface ToolDeps {
  reader: MemoryReader;
  /** The directory the agent works in (roots from the client, else the server's cwd). */
  cwd(): Promise<string>;
  /** Project id of a directory. */
  projectOf(cwd: string): string;
  /** The host the connected client is, when it can be told. */
  host(): HostId | undefined;
}

function ok(text: string, structured: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** Every failure becomes a tool error the agent can read, never a protocol error or a crash. */
async function guarded(tool: string, fn: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await fn();
  } catch (err) {
    const msg = err instanceof Error ? err.message : String(err);
    debug(`${tool} failed:`, err);
    const text = err instanceof ToolInputError || err instanceof RequestRejectedError
      ? msg
      // The doctor command in the form that runs on this machine (npx-cli/command-form.ts).
      : runnable(`claude-mem could not answer ${tool}: ${msg}. Run "claude-mem doctor" to find out why.`);
    return { content: [{ type: 'text', text }], isError: true };
  }
}

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;

/** The current project, resolved only when a tool needs it. */
async function currentProject(deps: ToolDeps): Promise<() => string> {
  const cwd = await deps.cwd();
  return () => deps.projectOf(cwd);
}

/** mem_search: sessions that match, best first, with their evidence. */
function registerSearch(server: McpServer, deps: ToolDeps): void {
  server.registerTool('mem_search', {
    title: 'Search memory',
    description: SEARCH_DESCRIPTION,
    inputSchema: searchInput,
    outputSchema: searchOutput,
    annotations: READ_ONLY,
  }, (args) => guarded('mem_search', async () => {
    const project = resolveProjectArg(args.project, await currentProject(deps), 'current');
    const offset = args.offset ?? 0;
    const { value, via } = await deps.reader.search({
      query: args.query, project, widen: !args.project?.trim() || CURRENT_PROJECT.includes(args.project.trim().toLowerCase()),
      host: resolveHostArg(args.host), type: args.type,
      since: resolveTimeArg('since', args.since), until: resolveTimeArg('until', args.until),
      file: args.file || undefined, limit: args.limit ?? 8, offset,
    });
    const { results, widened } = toSearchResults(value);
    return ok(searchText(results, args.query, project, offset, widened), { via, project: widened ? null : project ?? null, widened, results });
  }));
}

/** mem_timeline: what happened in order around an anchor, a session or a project. */
function registerTimeline(server: McpServer, deps: ToolDeps): void {
  server.registerTool('mem_timeline', {
    title: 'Memory timeline',
    description:
      'What happened, in order: prompts, tool uses, summaries and session starts/ends around an observation (anchor = an id from mem_search), '
      + 'or the latest items of a session or project. Step 2 of mem_search → mem_timeline → mem_get_observations. '
      + 'With no arguments: the latest activity in the current project.',
    inputSchema: timelineInput,
    outputSchema: timelineOutput,
    annotations: READ_ONLY,
  }, (args) => guarded('mem_timeline', async () => {
    const host = resolveHostArg(args.host);
    // The anchor or session already pins the place; a default project would only hide items.
    const pinned = args.anchor !== undefined || !!args.session;
    const project = pinned && !args.project ? undefined : resolveProjectArg(args.project, await currentProject(deps), 'current');
    const { value, via } = await deps.reader.timeline({
      anchorId: args.anchor, hostSessionId: args.session, host, project, before: args.before ?? 5, after: args.after ?? 5,
    });
    const items = value.map(toTimelineItem);
    const scope = args.session ? `session ${args.session}` : project ? `project ${project}` : 'all projects';
    return ok(timelineText(items, args.anchor, scope), { via, anchor: args.anchor ?? null, items });
  }));
}

/** mem_get_observations: full observations by id. */
function registerGetObservations(server: McpServer, deps: ToolDeps): void {
  server.registerTool('mem_get_observations', {
    title: 'Get observations',
    description:
      'Full details of observations by id: narrative, facts, files read and modified, concepts, tool, host, session. '
      + 'Step 3: fetch only the ids you need from mem_search or mem_timeline (1-50 per call). '
      + 'Prompt and summary ids from search are not observation ids.',
    inputSchema: getObservationsInput,
    outputSchema: getObservationsOutput,
    annotations: READ_ONLY,
  }, (args) => guarded('mem_get_observations', async () => {
    const ids = [...new Set(args.ids)];
    const { value, via } = await deps.reader.getObservations(ids);
    const byId = new Map(value.map((o) => [Number(o.id), toObservation(o)]));
    const observations = ids.flatMap((id) => byId.get(id) ?? []);
    const missing = ids.filter((id) => !byId.has(id));
    return ok(observationsText(observations, missing), { via, observations, missing });
  }));
}

/** mem_save: a memory the user or agent chose to keep. */
function registerSave(server: McpServer, deps: ToolDeps): void {
  server.registerTool('mem_save', {
    title: 'Save a memory',
    description:
      'Save something worth remembering so any future session, in any agent, can find it: a decision and its reason, a convention, '
      + 'a gotcha, a command that works, a user preference. Filed under the current project unless "project" is given; '
      + 'mem_search finds it (type "memory"). No need to save what is captured automatically (tool calls, edits, prompts).',
    inputSchema: saveInput,
    outputSchema: saveOutput,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  }, (args) => guarded('mem_save', async () => {
    const cwd = await deps.cwd();
    const project = resolveProjectArg(args.project, () => deps.projectOf(cwd), 'current');
    if (!project) throw new ToolInputError('mem_save needs one project; "*" is not allowed here.');
    const files = args.files?.map((f) => (isAbsolute(f) ? f : resolve(cwd, f)));
    const { value, via } = await deps.reader.save({
      text: args.text, title: args.title?.trim() || undefined, project, cwd, host: deps.host(),
      concepts: args.concepts, files,
    });
    const observation = toObservation(value);
    return ok(`Saved as #${observation.id} in ${observation.project}.\n\n${observationText(observation)}`, { via, observation });
  }));
}

/** mem_context: the digest hosts inject at session start. */
function registerContext(server: McpServer, deps: ToolDeps): void {
  server.registerTool('mem_context', {
    title: 'Project memory context',
    description:
      'The memory digest of a project, the same one hosts inject at session start: recent work, the latest session summary, saved memories. '
      + 'Use it when you start on a project and no claude-mem context was injected, after switching projects, or to refresh during a long session. '
      + 'Defaults to the current project; then use mem_search for anything specific.',
    inputSchema: contextInput,
    outputSchema: contextOutput,
    annotations: READ_ONLY,
  }, (args) => guarded('mem_context', async () => {
    if (args.cwd && !isAbsolute(args.cwd)) throw new ToolInputError(`"cwd" must be an absolute path; got "${args.cwd}".`);
    const cwd = args.cwd || (await deps.cwd());
    const project = resolveProjectArg(args.project, () => deps.projectOf(cwd), 'current');
    if (!project) throw new ToolInputError('mem_context works on one project; "*" is not allowed here.');
    const { value, via } = await deps.reader.context({ project, cwd, maxTokens: args.maxTokens ?? 1500 });
    return ok(contextText(value), {
      via, project: value.project || project, text: value.text, observationIds: value.observationIds ?? [],
      summaryId: value.summaryId ?? null, approxTokens: value.approxTokens ?? 0,
    });
  }));
}

export function registerTools(server: McpServer, deps: ToolDeps): void {
  registerSearch(server, deps);
  registerTimeline(server, deps);
  registerGetObservations(server, deps);
  registerSave(server, deps);
  registerContext(server, deps);
}
