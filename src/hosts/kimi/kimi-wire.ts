/**
 * Kimi Code's session log, read at Stop: `<KIMI_CODE_HOME or ~/.kimi-code>/sessions/<workspace>/
 * <session id>/agents/main/wire.jsonl` (test/fixtures/hosts/kimi-code/README.md, "Session log").
 *
 * Kimi Code's Stop payload has no assistant message, and its PostToolUse hook is started with the
 * turn's abort signal: at the end of the turn it gets SIGTERM and SIGKILL 100 ms later, which with
 * a fast model lands before node has even started. The log is written by the host itself before
 * Stop runs (Stop is awaited), so the turn read from it gives the final answer and every tool call
 * with its result; tool results carry the host's tool call id, so one that the PostToolUse hook
 * delivered too is stored once.
 */
import { closeSync, existsSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { isValidSessionId } from '../../shared/capture-event.js';
import type { Env } from '../../shared/paths.js';
import { rec, str, type Payload } from '../../hook/adapters/common.js';
import { dirFrom } from '../host-facts.js';

const CHUNK = 256 * 1024;
/** A turn longer than this in the log is read from its last MiBs only (the answer is at the end). */
const MAX_TAIL = 8 * 1024 * 1024;

interface WireToolCall {
  id: string;
  name: string;
  args: unknown;
  output?: unknown;
  isError?: boolean;
}

export interface WireTurn {
  turnId?: string;
  /** The text of the turn's last step (its answer); '' when it ended without one. */
  answer: string;
  /** Tool calls of the turn that have a result, in order. */
  calls: WireToolCall[];
}

/** The wire.jsonl of a session, when there is exactly that file under the host's sessions folder. */
export function findWire(sessionId: string, env: Env): string | undefined {
  if (!isValidSessionId(sessionId) || /^\.+$/.test(sessionId)) return undefined;
  const sessions = join(dirFrom(env, 'KIMI_CODE_HOME', '.kimi-code'), 'sessions');
  let workspaces: string[];
  try {
    workspaces = readdirSync(sessions);
  } catch {
    return undefined;
  }
  for (const w of workspaces) {
    const file = join(sessions, w, sessionId, 'agents', 'main', 'wire.jsonl');
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** The log's lines from the last `turn.prompt` record on (read backwards, in chunks). */
function lastTurnLines(file: string): string[] {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    let start = size;
    let text = '';
    while (start > 0 && size - start < MAX_TAIL) {
      const len = Math.min(CHUNK, start);
      start -= len;
      const buf = Buffer.alloc(len);
      readSync(fd, buf, 0, len, start);
      text = buf.toString('utf8') + text;
      const at = text.lastIndexOf('"type":"turn.prompt"');
      if (at >= 0) return text.slice(text.lastIndexOf('\n', at) + 1).split('\n');
    }
    // No prompt record in reach: whole lines only (the first may be cut).
    const lines = text.split('\n');
    return start > 0 ? lines.slice(1) : lines;
  } finally {
    closeSync(fd);
  }
}

function outputText(v: unknown): unknown {
  if (!Array.isArray(v)) return v;
  const texts = v.map((p) => str(rec(p)?.text)).filter((t): t is string => t !== undefined);
  return texts.length === v.length ? texts.join('') : v;
}

function addLoopEvent(turn: WireTurn, calls: Map<string, WireToolCall>, ev: Payload, step: { n: unknown; text: string }): void {
  const type = ev.type;
  if (type === 'step.begin') {
    step.n = ev.step;
    step.text = '';
  } else if (type === 'content.part') {
    const part = rec(ev.part);
    if (part?.type === 'text' && typeof part.text === 'string') step.text += part.text;
  } else if (type === 'tool.call') {
    const id = str(ev.toolCallId);
    const name = str(ev.name);
    if (id && name) calls.set(id, { id, name, args: ev.args });
  } else if (type === 'tool.result') {
    const call = calls.get(str(ev.toolCallId) ?? '');
    const result = rec(ev.result);
    if (!call || !result) return;
    call.output = outputText(result.output);
    if (result.isError === true) call.isError = true;
    turn.calls.push(call);
  }
}

/** The session's last turn as its log shows it, or undefined when there is no log. */
export function readLastTurn(file: string): WireTurn | undefined {
  const turn: WireTurn = { answer: '', calls: [] };
  const calls = new Map<string, WireToolCall>();
  const step = { n: undefined as unknown, text: '' };
  let any = false;
  for (const line of lastTurnLines(file)) {
    if (!line.trim()) continue;
    let r: Payload | undefined;
    try {
      r = rec(JSON.parse(line));
    } catch {
      continue; // a line being written, or cut at the start of the window
    }
    if (!r) continue;
    any = true;
    if (r.type === 'turn.prompt' && (typeof r.turnId === 'number' || typeof r.turnId === 'string')) turn.turnId = String(r.turnId);
    const ev = r.type === 'context.append_loop_event' ? rec(r.event) : undefined;
    if (ev) addLoopEvent(turn, calls, ev, step);
  }
  turn.answer = step.text.trim();
  return any ? turn : undefined;
}
