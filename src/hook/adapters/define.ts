/**
 * Turns a dialect description into a HookAdapter. Everything every host needs happens here once:
 * event-name resolution, caller identification, session-id / cwd / transcript validation, size
 * bounds, and a catch-all so an adapter never throws.
 */
import { isValidCwd, isValidSessionId, truncateText, type CaptureEvent, type FileEdit } from '../../shared/capture-event.js';
import type { HookHostId, HostId } from '../../shared/hosts.js';
import type { Env } from '../../shared/paths.js';
import { resolve } from 'node:path';
import { identifyCaller } from '../caller.js';
import { isOwnRecallCall, isOwnRecallTool } from '../../shared/own-tools.js';
import type { AdapterResult, HookAdapter, HookInput } from '../types.js';
import { canonicalEvent, clip, pickStr, type Draft, type Payload } from './common.js';
import { confineTranscript } from './homes.js';

export interface HandlerCtx {
  p: Payload;
  env: Env;
  notes: string[];
  /** Validates another transcript-like path of the payload against the host's directories. */
  transcript(value: unknown): string | undefined;
}

export type Handler = (ctx: HandlerCtx) => Draft[];

interface DialectSpec {
  host: HookHostId;
  /** Event names as the host spells them (handled, or answered without capture). */
  events: readonly string[];
  /** Events the host waits on for context. */
  contextEvents: readonly string[];
  /** Finer choice than contextEvents when the payload decides (gets the host's spelling). */
  wantsContext?(event: string, p: Payload | undefined): boolean;
  /** Context events on which the host reads memory once per session (later ones get none). */
  contextOnceEvents?: readonly string[];
  /** The prompt's text for choosing prompt-time memory, when the event stores no prompt itself. */
  contextPrompt?(event: string, p: Payload): string | undefined;
  /** Keyed by canonical event name (see canonicalEvent). */
  handlers: Readonly<Record<string, Handler>>;
  /** Other spellings of one event (canonical → canonical), for dialects with synonyms. */
  aliases?: Readonly<Record<string, string>>;
  /** The event the payload names itself, if any (default: hook_event_name / hookEventName). */
  payloadEvent?(p: Payload | undefined, env: Env): string | undefined;
  sessionId(p: Payload, env: Env): unknown;
  /** Working-directory candidates from the payload, best first. */
  cwd(p: Payload): unknown[];
  /** Host env variables naming the project directory, tried before CLAUDE_PROJECT_DIR and PWD. */
  envCwd?: readonly string[];
  transcript?(p: Payload): unknown;
  /** The host to store under, when the dialect carries it (raw); default: `host`. */
  storeHost?(p: Payload, notes: string[]): HostId | undefined;
  /** Raw input names no other host; skip caller identification. */
  skipCaller?: boolean;
  formatOutput(event: string, context: string): string;
}

const ID_MAX = 256;

function keyOf(spec: DialectSpec, name: string): string {
  const c = canonicalEvent(name);
  return spec.aliases?.[c] ?? c;
}

function spelled(spec: DialectSpec, name: string): string {
  if (spec.events.includes(name)) return name;
  const key = keyOf(spec, name);
  return spec.events.find((e) => keyOf(spec, e) === key) ?? name;
}

/** The payload's own event name wins when it names a different event than the command line. */
function resolveEvent(spec: DialectSpec, cmd: string, payloadName: string | undefined, notes: string[]): string {
  const named = payloadName?.slice(0, 128); // an event name, not a place for megabytes
  if (!named || keyOf(spec, named) === keyOf(spec, cmd)) return spelled(spec, cmd);
  notes.push(`event mismatch: command line says "${cmd}", payload says "${named}"; using the payload's`);
  return spelled(spec, named);
}

function resolveCwd(spec: DialectSpec, p: Payload, env: Env, notes: string[]): string | undefined {
  const fromPayload = spec.cwd(p).filter((c) => c !== undefined && c !== null && c !== '');
  const fromEnv = [...(spec.envCwd ?? []), 'CLAUDE_PROJECT_DIR', 'PWD'].map((k) => env[k]);
  for (const c of [...fromPayload, ...fromEnv]) {
    if (isValidCwd(c)) {
      if (fromPayload.length && c !== fromPayload[0]) notes.push(`cwd ${JSON.stringify(fromPayload[0])} is not absolute; used ${c}`);
      return resolve(c);
    }
  }
  notes.push('no absolute working directory in the payload or environment; nothing stored');
  return undefined;
}

function boundEdit(e: FileEdit): FileEdit {
  return {
    ...(e.oldText !== undefined && { oldText: truncateText(e.oldText) }),
    ...(e.newText !== undefined && { newText: truncateText(e.newText) }),
  };
}

function bound(e: CaptureEvent): CaptureEvent {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) {
    if (v === undefined) continue;
    if (k === 'toolInput' || k === 'toolResponse') out[k] = clip(v);
    else if (k === 'promptId' || k === 'toolUseId' || k === 'agentId' || k === 'parentSessionId') out[k] = truncateText(String(v), ID_MAX);
    else if (k === 'edits' && Array.isArray(v)) out[k] = (v as FileEdit[]).map(boundEdit);
    else if (typeof v === 'string' && k !== 'cwd' && k !== 'transcriptPath') out[k] = truncateText(v);
    else out[k] = v;
  }
  return out as unknown as CaptureEvent;
}

function run(spec: DialectSpec, input: HookInput): AdapterResult {
  const notes: string[] = [];
  const p = input.payload;
  const named = spec.payloadEvent ? spec.payloadEvent(p, input.env) : p && pickStr(p, 'hook_event_name', 'hookEventName');
  const resolvedEvent = resolveEvent(spec, input.event, named, notes);
  const key = keyOf(spec, resolvedEvent);
  // doctor's probes test capture only: they never ask for context (nor use up a once-per-session one).
  const wantsContext = p?.claude_mem_probe !== true && (spec.wantsContext
    ? spec.wantsContext(resolvedEvent, p)
    : spec.contextEvents.some((e) => keyOf(spec, e) === key));
  const contextOnce = spec.contextOnceEvents?.some((e) => keyOf(spec, e) === key) || undefined;
  const done = (events: CaptureEvent[] = [], extra: Partial<AdapterResult> = {}): AdapterResult =>
    ({ events, wantsContext, resolvedEvent, notes, contextOnce, ...extra });

  if (!spec.skipCaller) {
    const caller = identifyCaller(spec.host, p, input.env);
    if (caller.drop) {
      notes.push(`caller identified as ${caller.host} by ${caller.evidence ?? 'its markers'}; not stored as ${spec.host}`);
      return done([], { wantsContext: false, dropReason: caller.drop });
    }
  }
  const handler = spec.handlers[key];
  if (!handler) {
    notes.push(`event "${resolvedEvent}" is not captured for ${spec.host}`);
    return done();
  }
  if (!p) {
    notes.push(input.rawStdin.trim() ? 'stdin is not a JSON object; nothing stored' : 'empty stdin; nothing stored');
    return done();
  }
  const sessionId = spec.sessionId(p, input.env);
  if (!isValidSessionId(sessionId)) {
    notes.push(sessionId === undefined || sessionId === null ? 'no session id; nothing stored' : 'invalid session id; nothing stored');
    return done();
  }
  const cwd = resolveCwd(spec, p, input.env, notes);
  const host = spec.storeHost ? spec.storeHost(p, notes) : (spec.host as HostId);
  if (!cwd || !host) return done();
  const transcriptPath = confineTranscript(spec.transcript?.(p), spec.host, input.env, notes);
  const model = pickStr(p, 'model');
  const ctx: HandlerCtx = {
    p, env: input.env, notes,
    transcript: (v) => confineTranscript(v, spec.host, input.env, notes),
  };
  // `claude-mem doctor` marks its synthetic payloads, so the store can tell them apart and remove them.
  const probe = p.claude_mem_probe === true ? true : undefined;
  const drafts = handler(ctx).filter((d) => {
    const own = (d.kind === 'tool_use' || d.kind === 'tool_result') && (isOwnRecallCall(d.rawToolName, d.toolInput) || isOwnRecallTool(d.toolName));
    if (own) notes.push(`${d.rawToolName ?? d.toolName} is claude-mem's own recall tool; not stored`);
    return !own;
  });
  const events = drafts.map((d) => {
    const e: Record<string, unknown> = { host, source: 'hook', sessionId, cwd, at: input.now, transcriptPath, model, probe };
    for (const [k, v] of Object.entries(d)) if (v !== undefined) e[k] = v; // a draft refines, never blanks
    return bound(e as unknown as CaptureEvent);
  });
  const contextPrompt = wantsContext ? spec.contextPrompt?.(resolvedEvent, p) : undefined;
  return done(events, { session: { host, sessionId, cwd }, contextPrompt });
}

export function defineAdapter(spec: DialectSpec): HookAdapter {
  return {
    host: spec.host,
    events: spec.events,
    normalize(input: HookInput): AdapterResult {
      try {
        return run(spec, input);
      } catch (err) {
        // A host must never see a hook fail because of a payload we did not expect.
        return {
          events: [], wantsContext: false, resolvedEvent: input.event,
          notes: [`adapter error: ${err instanceof Error ? err.message : String(err)}`],
        };
      }
    },
    formatOutput(event: string, context: string): string {
      try {
        return spec.formatOutput(spelled(spec, event), context);
      } catch {
        return '';
      }
    },
  };
}
