/**
 * The deterministic observer (docs/architecture.md, How an event flows): turns one capture event into one compact
 * observation, and a session digest into a summary. No API key, no network, no clock.
 */
import type { CaptureEvent } from '../shared/capture-event.js';
import { isMcpToolName, normalizeToolName } from '../shared/tool-names.js';
import { observeTask, observeTodos } from './agent.js';
import { observeEdit, observePatch, observeRead, observeWrite } from './files.js';
import { observeGeneric, observeNote } from './generic.js';
import { observeMcp } from './mcp.js';
import { isPatchText, patchFromInput } from './patch.js';
import { observeSearch } from './search.js';
import { observeShell } from './shell.js';
import type { ObservationDraft } from './types.js';
import { observeFetch, observeWebSearch } from './web.js';

export { summarize } from './summary.js';
export type { ObservationDraft, SessionDigest, SummaryDraft } from './types.js';

type Observer = (e: CaptureEvent) => ObservationDraft;

const BY_TOOL: Readonly<Record<string, Observer>> = {
  Bash: observeShell,
  Read: observeRead,
  Write: observeWrite,
  Edit: observeEdit,
  NotebookEdit: observeEdit,
  ApplyPatch: observePatch,
  Grep: observeSearch,
  Glob: observeSearch,
  LS: observeSearch,
  WebFetch: observeFetch,
  WebSearch: observeWebSearch,
  Task: observeTask,
  TodoWrite: observeTodos,
};

// Host names the shared table does not map (yet): the observer still knows what they are.
const LOCAL_ALIASES: Readonly<Record<string, string>> = {
  exec: 'Bash', exec_shell: 'Bash', shell_exec: 'Bash', view: 'Read', find: 'Glob',
  list_files: 'Glob', patch: 'ApplyPatch', fetch: 'WebFetch', multi_edit: 'Edit',
};

/** The canonical name, normalizing again in case an event arrived with a host's raw name. */
function canonicalTool(e: CaptureEvent): string {
  const name = e.toolName || e.rawToolName || '';
  if (!name || BY_TOOL[name] || isMcpToolName(name)) return name;
  const normalized = normalizeToolName(e.host, name);
  if (BY_TOOL[normalized] || isMcpToolName(normalized)) return normalized;
  return LOCAL_ALIASES[name.toLowerCase()] ?? normalized;
}

/** A `file_edit` event: a patch, a whole-file write, or old/new pairs on `filePath`. */
function observeFileEdit(e: CaptureEvent): ObservationDraft | null {
  const tool = canonicalTool(e);
  if (tool === 'ApplyPatch' || isPatchText(patchFromInput(e.toolInput))) return observePatch(e);
  if (tool === 'Write') return observeWrite(e);
  if (!e.filePath && !e.toolInput && !e.edits?.length) return null;
  return observeEdit(e);
}

/**
 * One observation for a tool call, file edit or ready-made note; null for every other kind.
 * Never throws: payloads are untrusted, and a failure here must not cost the event its row.
 */
export function observe(e: CaptureEvent): ObservationDraft | null {
  try {
    return dispatch(e);
  } catch {
    try {
      return OBSERVED.has(e.kind) ? observeGeneric(e) : null;
    } catch {
      return null;
    }
  }
}

const OBSERVED = new Set(['tool_use', 'tool_result', 'file_edit']);

function dispatch(e: CaptureEvent): ObservationDraft | null {
  switch (e.kind) {
    case 'observation':
      return observeNote(e);
    case 'file_edit':
      return observeFileEdit(e);
    case 'tool_use':
    case 'tool_result': {
      const tool = canonicalTool(e);
      const event = tool && tool !== e.toolName ? { ...e, toolName: tool } : e;
      if (isMcpToolName(tool)) return observeMcp(event);
      const fn = BY_TOOL[tool];
      return fn ? fn(event) : observeGeneric(event);
    }
    default:
      return null;
  }
}
