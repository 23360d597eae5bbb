/**
 * A session as Claude Code plays it: the hook payloads it sends, in order, each at its own time,
 * and the transcript records it appends to ~/.claude/projects/<slug>/<session>.jsonl before each
 * hook runs (shapes as captured in test/fixtures/hosts/claude-code). Every event Claude Code fires
 * is listed; the replay runs only those a hook is registered for, as Claude Code does.
 */
import { isAbsolute, join } from 'node:path';
import { Rng, hashSeed } from '../rng.js';
import type { Session, Step } from '../types.js';

const VERSION = '2.1.197';
const MODEL = 'claude-opus-4-8';

export interface Act {
  /** Milliseconds since the epoch (simulated time). */
  at: number;
  /** Transcript lines appended before the hook runs. */
  records: Record<string, unknown>[];
  /** The hook event fired at this moment, if any. */
  event?: string;
  payload?: Record<string, unknown>;
}

export interface SessionScript {
  sessionId: string;
  cwd: string;
  transcriptPath: string;
  acts: Act[];
}

/** Claude Code's project folder name: the path with every non-alphanumeric character as `-`. */
export const projectSlug = (cwd: string): string => cwd.replace(/[^A-Za-z0-9]/g, '-');

const absolute = (cwd: string, path: string): string => (isAbsolute(path) ? path : join(cwd, path));

function toolId(rng: Rng): string {
  const abc = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < 24; i++) s += abc[rng.int(0, abc.length - 1)];
  return `toolu_01${s}`;
}

interface ToolCall {
  name: string;
  input: Record<string, unknown>;
  /** tool_response of PostToolUse, or the error text of PostToolUseFailure. */
  response: unknown;
  failed: boolean;
  /** What the model sees as the tool result. */
  resultText: string;
  seconds: number;
}

function countLines(text: string): number {
  return text === '' ? 0 : text.split('\n').length;
}

/** The tool call a step stands for, with Claude Code's own input and response shapes. */
function toolCall(step: Exclude<Step, { kind: 'say' }>, cwd: string, rng: Rng): ToolCall {
  switch (step.kind) {
    case 'bash': {
      const failed = step.exitCode !== 0;
      const error = `Exit code ${step.exitCode}\n${step.output}`;
      return {
        name: 'Bash',
        input: { command: step.command, description: describe(step.command) },
        response: failed ? error : { stdout: step.output, stderr: '', interrupted: false, isImage: false, noOutputExpected: false },
        failed,
        resultText: failed ? error : step.output,
        seconds: rng.int(4, 90),
      };
    }
    case 'read': {
      const filePath = absolute(cwd, step.path);
      const lines = countLines(step.content);
      const numbered = step.content.split('\n').map((l, i) => `${String(i + 1).padStart(6)}→${l}`).join('\n');
      return {
        name: 'Read',
        input: { file_path: filePath },
        response: { type: 'text', file: { filePath, content: step.content, numLines: lines, startLine: 1, totalLines: lines } },
        failed: false,
        resultText: numbered,
        seconds: rng.int(2, 12),
      };
    }
    case 'edit': {
      const filePath = absolute(cwd, step.path);
      const oldLines = step.oldText.split('\n');
      const newLines = step.newText.split('\n');
      const start = rng.int(3, 120);
      return {
        name: 'Edit',
        input: { file_path: filePath, old_string: step.oldText, new_string: step.newText, replace_all: false },
        response: {
          filePath, oldString: step.oldText, newString: step.newText, originalFile: null, userModified: false, replaceAll: false,
          structuredPatch: [{
            oldStart: start, oldLines: oldLines.length, newStart: start, newLines: newLines.length,
            lines: [...oldLines.map((l) => `-${l}`), ...newLines.map((l) => `+${l}`)],
          }],
        },
        failed: false,
        resultText: `The file ${filePath} has been updated.`,
        seconds: rng.int(5, 40),
      };
    }
    case 'write': {
      const filePath = absolute(cwd, step.path);
      return {
        name: 'Write',
        input: { file_path: filePath, content: step.content },
        response: { type: 'create', filePath, content: step.content, structuredPatch: [], originalFile: null },
        failed: false,
        resultText: `File created successfully at: ${filePath}`,
        seconds: rng.int(8, 60),
      };
    }
    case 'grep': {
      const files = [...new Set(step.output.split('\n').map((l) => l.split(':')[0]).filter(Boolean))];
      return {
        name: 'Grep',
        input: { pattern: step.pattern, output_mode: 'content', '-n': true },
        response: { mode: 'content', numFiles: files.length, filenames: files, content: step.output, numLines: countLines(step.output) },
        failed: false,
        resultText: step.output || 'No matches found',
        seconds: rng.int(2, 8),
      };
    }
  }
}

function describe(command: string): string {
  const head = command.split(/\s+/).slice(0, 3).join(' ');
  return `Run ${head}`.slice(0, 60);
}

/** Builds the acts of one session; times come from its start plus seeded gaps. */
export function scriptSession(s: Session, cwd: string, home: string): SessionScript {
  const rng = new Rng(hashSeed(s.id));
  const transcriptPath = join(home, '.claude', 'projects', projectSlug(cwd), `${s.id}.jsonl`);
  const base = { session_id: s.id, transcript_path: transcriptPath, cwd };
  const meta = { userType: 'external', entrypoint: 'cli', cwd, sessionId: s.id, version: VERSION, gitBranch: 'main' };
  const acts: Act[] = [];
  let now = Date.parse(s.start);
  let parent: string | null = null;
  const record = (fields: Record<string, unknown>): Record<string, unknown> => {
    const uuid = rng.uuid();
    const r = { parentUuid: parent, isSidechain: false, ...fields, uuid, timestamp: new Date(now).toISOString(), ...meta };
    parent = uuid;
    return r;
  };
  const assistant = (content: unknown[], stop: string | null): Record<string, unknown> => record({
    message: {
      id: `msg_01${rng.hex(22)}`, type: 'message', role: 'assistant', model: MODEL, content, stop_reason: stop, stop_sequence: null,
      usage: { input_tokens: rng.int(200, 4000), cache_creation_input_tokens: 0, cache_read_input_tokens: rng.int(0, 40000), output_tokens: rng.int(20, 900), service_tier: 'standard' },
    },
    type: 'assistant',
  });

  acts.push({ at: now, records: [], event: 'SessionStart', payload: { ...base, hook_event_name: 'SessionStart', source: 'startup' } });
  let promptId = '';
  for (const turn of s.turns) {
    now += rng.int(20, 240) * 1000;
    promptId = rng.uuid();
    const turnBase = { ...base, prompt_id: promptId, permission_mode: 'default' };
    const toolBase = { ...turnBase, effort: { level: 'high' } };
    const enqueue = { type: 'queue-operation', operation: 'enqueue', timestamp: new Date(now).toISOString(), sessionId: s.id, content: turn.prompt };
    acts.push({ at: now, records: [enqueue], event: 'UserPromptSubmit', payload: { ...turnBase, hook_event_name: 'UserPromptSubmit', prompt: turn.prompt } });
    acts.push({ at: now + 40, records: [record({ promptId, type: 'user', message: { role: 'user', content: turn.prompt }, permissionMode: 'default', promptSource: 'user' })] });
    for (const step of turn.steps) {
      if (step.kind === 'say') {
        now += rng.int(3, 25) * 1000;
        acts.push({ at: now, records: [assistant([{ type: 'text', text: step.text }], null)] });
        continue;
      }
      const call = toolCall(step, cwd, rng);
      const id = toolId(rng);
      now += rng.int(1, 6) * 1000;
      const use = assistant([{ type: 'tool_use', id, name: call.name, input: call.input }], 'tool_use');
      acts.push({ at: now, records: [use], event: 'PreToolUse', payload: { ...toolBase, hook_event_name: 'PreToolUse', tool_name: call.name, tool_input: call.input, tool_use_id: id } });
      const useUuid = use.uuid;
      now += call.seconds * 1000;
      const result = record({
        promptId, type: 'user',
        message: { role: 'user', content: [{ tool_use_id: id, type: 'tool_result', content: call.resultText, is_error: call.failed }] },
        toolUseResult: call.failed ? `Error: ${call.response as string}` : call.response,
        sourceToolAssistantUUID: useUuid,
      });
      const payload = call.failed
        ? { ...toolBase, hook_event_name: 'PostToolUseFailure', tool_name: call.name, tool_input: call.input, tool_use_id: id, error: call.response, is_interrupt: false }
        : { ...toolBase, hook_event_name: 'PostToolUse', tool_name: call.name, tool_input: call.input, tool_response: call.response, tool_use_id: id, duration_ms: call.seconds * 1000 };
      acts.push({ at: now, records: [result], event: payload.hook_event_name, payload });
    }
    now += rng.int(4, 30) * 1000;
    const last = assistant([{ type: 'text', text: turn.final }], 'end_turn');
    acts.push({
      at: now, records: [last], event: 'Stop',
      payload: { ...turnBase, effort: { level: 'high' }, hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: turn.final, background_tasks: [], session_crons: [] },
    });
  }
  now += rng.int(30, 900) * 1000;
  const lastPrompt = s.turns.at(-1)?.prompt ?? '';
  acts.push({
    at: now,
    records: [{ type: 'last-prompt', lastPrompt, leafUuid: parent, sessionId: s.id }],
    event: 'SessionEnd',
    payload: { ...base, prompt_id: promptId || undefined, hook_event_name: 'SessionEnd', reason: rng.pick(['prompt_input_exit', 'prompt_input_exit', 'other', 'clear']) },
  });
  return { sessionId: s.id, cwd, transcriptPath, acts };
}

/** The raw text of a session, as the plain BM25 baseline indexes it. */
export function sessionText(s: Session): string {
  const parts: string[] = [];
  for (const t of s.turns) {
    parts.push(t.prompt);
    for (const step of t.steps) {
      switch (step.kind) {
        case 'say': parts.push(step.text); break;
        case 'bash': parts.push(step.command, step.output); break;
        case 'read': parts.push(step.path, step.content); break;
        case 'edit': parts.push(step.path, step.oldText, step.newText); break;
        case 'write': parts.push(step.path, step.content); break;
        case 'grep': parts.push(step.pattern, step.output); break;
      }
    }
    parts.push(t.final);
  }
  return parts.join('\n');
}
