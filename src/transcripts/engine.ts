/**
 * The schema engine: a schema is compiled once (paths parsed, regexes built, rules indexed by
 * their discriminating field), then each parsed record is turned into CaptureEvents while the
 * file's state (session context, pending tool calls) is updated in place.
 */
import {
  isValidCwd, isValidSessionId, truncateText, type CaptureEvent, type CaptureKind,
} from '../shared/capture-event.js';
import type { HostId } from '../shared/hosts.js';
import { normalizeToolName } from '../shared/tool-names.js';
import { basename, dirname } from 'node:path';
import { compileField, isEmpty, type Getter } from './fields.js';
import { compilePath, readPath, type CompiledPath, type PathScope } from './json-path.js';
import { compileMatch, type Predicate } from './match.js';
import { indexRules } from './rule-index.js';
import type { Action, EventRule, ToolSpec, TranscriptSchema } from './types.js';

interface PendingCall {
  toolName?: string;
  rawToolName?: string;
  toolInput?: unknown;
  promptId?: string;
  ignored?: boolean;
}

/** What a file carries from line to line; saved in its checkpoint. */
export interface FileState {
  context: Record<string, unknown>;
  pending: Record<string, PendingCall>;
}

interface FileInfo {
  path: string;
  name: string;
  /** The name up to its first dot (`<session>.jsonl` → `<session>`). */
  stem: string;
  dir: string;
  parts: string[];
}

interface EvalOptions {
  /** Only sessions whose first record carries the subagent marker are recorded. */
  subagentOnly?: boolean;
  /** Update context only (used to learn the session from a file's first line when starting at its end). */
  contextOnly?: boolean;
}

interface LineOutcome {
  events: CaptureEvent[];
  /** Set when the record can never be accepted (e.g. no valid session id): the caller dead-letters it. */
  error?: string;
}

interface CompiledRule {
  index: number;
  name: string;
  action: Action;
  match: Predicate;
  each?: CompiledPath;
  fields: Array<[string, Getter]>;
}

export interface CompiledSchema {
  name: string;
  host: HostId;
  /** The history reader that makes this schema's lines from a store that is not JSON lines. */
  reader?: string;
  evaluate(record: unknown, state: FileState, file: FileInfo, opts?: EvalOptions): LineOutcome;
}

const CONTEXT_FIELDS = ['sessionId', 'cwd', 'model', 'agentId', 'parentSessionId', 'title', 'promptId'];

/** Unanswered calls kept per file; older ones are dropped first (a crashed tool never answers). */
const MAX_PENDING = 1000;

export function fileInfo(path: string): FileInfo {
  const name = basename(path);
  const dot = name.indexOf('.', 1);
  return { path, name, stem: dot > 0 ? name.slice(0, dot) : name, dir: dirname(path), parts: path.split(/[\\/]+/).filter(Boolean) };
}

function str(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() === '' ? undefined : v;
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  return undefined;
}

/** Text from a string, an array of strings or of `{text}` blocks. */
function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v.trim() === '' ? undefined : v;
  if (Array.isArray(v)) {
    const parts = v
      .map((x) => (typeof x === 'string' ? x : x && typeof x === 'object' && typeof (x as { text?: unknown }).text === 'string' ? (x as { text: string }).text : ''))
      .filter((x) => x.trim() !== '');
    return parts.length ? parts.join('\n') : undefined;
  }
  return undefined;
}

function truthy(v: unknown): boolean {
  if (isEmpty(v) || v === false || v === 0 || v === 'false' || v === '0') return false;
  if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0) return false;
  return true;
}

const ISO_Z = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** ISO time from an ISO string, epoch seconds or epoch milliseconds. */
export function toIso(v: unknown): string | undefined {
  // Most logs already write canonical UTC ISO times: keep them without a Date round trip.
  if (typeof v === 'string' && v.length === 24 && ISO_Z.test(v)) return v;
  let ms: number;
  if (typeof v === 'number' && Number.isFinite(v)) ms = v > 1e11 ? v : v * 1000;
  else if (typeof v === 'string' && v.trim()) {
    ms = /^\d+(\.\d+)?$/.test(v.trim()) ? toMs(Number(v)) : Date.parse(v);
  } else return undefined;
  if (!Number.isFinite(ms)) return undefined;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}
const toMs = (n: number) => (n > 1e11 ? n : n * 1000);

function bound(v: unknown): unknown {
  return typeof v === 'string' ? truncateText(v) : v;
}

/** What building an event needs from its schema besides the rule. */
interface EventContext {
  host: HostId;
  ignore: RegExp[];
  normalizeTool: ToolNormalizer;
}

type ToolNormalizer = (raw: string | undefined, input: unknown) => { toolName?: string; toolInput: unknown };
type Body = { kind: CaptureKind; ev: Partial<CaptureEvent> };

export function compileSchema(name: string, schema: TranscriptSchema): CompiledSchema {
  const host = schema.host;
  const rules: CompiledRule[] = schema.events.map((e: EventRule, index) => ({
    index,
    name: e.name ?? `${e.action}#${index}`,
    action: e.action,
    match: compileMatch(e.match),
    each: e.each ? compilePath(e.each) : undefined,
    fields: Object.entries(e.fields ?? {}).map(([k, spec]) => [k, compileField(spec)] as [string, Getter]),
  }));
  const sessionDefaults = Object.entries(schema.session ?? {}).map(([k, spec]) => [k, compileField(spec)] as [string, Getter]);
  const tools = new Map<string, ToolSpec>(
    Object.entries(schema.tools ?? {}).map(([k, v]) => [k, typeof v === 'string' ? { name: v } : v]),
  );
  const ec: EventContext = { host, ignore: (schema.ignoreTools ?? []).map((r) => new RegExp(r)), normalizeTool: toolNormalizer(host, tools) };
  const index = indexRules(rules, schema.events.map((e) => e.match));

  function evaluate(record: unknown, state: FileState, file: FileInfo, opts: EvalOptions = {}): LineOutcome {
    const ctx = state.context;
    const scope: PathScope = { record, ctx, file };
    const first = ctx.firstSeen !== true;
    if (first) applySessionDefaults(sessionDefaults, scope, ctx);
    ctx.lineNo = (typeof ctx.lineNo === 'number' ? ctx.lineNo : 0) + 1;
    const out: LineOutcome = { events: [] };
    const candidates = index.path ? index.byValue.get(readPath(index.path, scope)) ?? index.unpinned : index.unpinned;
    for (const rule of candidates) {
      if (rule.each) {
        const items = readPath(rule.each, scope);
        if (!Array.isArray(items)) continue;
        for (const item of items) {
          const s: PathScope = { record, ctx, file, item };
          if (rule.match(s)) apply(ec, rule, s, state, first, opts, out);
        }
      } else if (rule.match(scope)) {
        apply(ec, rule, scope, state, first, opts, out);
      }
    }
    return out;
  }

  return { name, host, reader: schema.history?.reader, evaluate };
}

/** The schema's `session` fields, read once from a file's first record. */
function applySessionDefaults(defaults: Array<[string, Getter]>, scope: PathScope, ctx: Record<string, unknown>): void {
  ctx.firstSeen = true;
  for (const [k, g] of defaults) {
    const v = g(scope);
    if (k === 'subagent') ctx.isSubagent = truthy(v);
    else if (str(v) !== undefined && ctx[k] === undefined) ctx[k] = str(v);
  }
}

/** Tool names and inputs as the schema's `tools` table says, else through the shared vocabulary. */
function toolNormalizer(host: HostId, tools: Map<string, ToolSpec>): ToolNormalizer {
  return (raw, input) => {
    if (!raw) return { toolName: undefined, toolInput: input };
    const spec = tools.get(raw);
    // Names the schema does not list go through the shared vocabulary (mcp__… stays as is).
    if (!spec) return { toolName: normalizeToolName(host, raw), toolInput: input };
    let out = input;
    if (spec.wrap && (out === null || typeof out !== 'object' || Array.isArray(out)) && out !== undefined) out = { [spec.wrap]: out };
    if (spec.rename && out && typeof out === 'object' && !Array.isArray(out)) {
      const renamed: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(out as Record<string, unknown>)) renamed[spec.rename[k] ?? k] = v;
      out = renamed;
    }
    return { toolName: spec.name ?? normalizeToolName(host, raw), toolInput: out };
  };
}

/** One matched rule: updates the file's context and pending calls, and adds its event to `out`. */
function apply(ec: EventContext, rule: CompiledRule, scope: PathScope, state: FileState, first: boolean, opts: EvalOptions, out: LineOutcome): void {
  const ctx = state.context;
  const vals: Record<string, unknown> = {};
  const fields = rule.fields;
  for (let i = 0; i < fields.length; i++) vals[fields[i][0]] = fields[i][1](scope);

  const at = vals.at === undefined ? undefined : toIso(vals.at);
  if (at) ctx.lastAt = at;
  if (rule.action === 'session_init' || rule.action === 'session_context') {
    applyContextFields(rule.action, vals, ctx, first);
    if (rule.action === 'session_context') return;
  }
  if (rule.action === 'user_message' && 'promptId' in vals && str(vals.promptId)) ctx.promptId = str(vals.promptId);

  const recording = !opts.contextOnly && (!opts.subagentOnly || ctx.isSubagent === true);
  if (!recording) {
    // Pending calls are still forgotten when answered, so a later switch cannot pair stale ones.
    if (rule.action === 'tool_result') { const id = str(vals.toolUseId); if (id) delete state.pending[id]; }
    return;
  }
  const body = eventBody(ec, rule.action, vals, state);
  if (body) addEvent(ec, rule, scope, vals, at, body, ctx, out);
}

/** session_init / session_context: context fields a record sets for every later record. */
function applyContextFields(action: Action, vals: Record<string, unknown>, ctx: Record<string, unknown>, first: boolean): void {
  // One file is one session: the first session_init names it; a later one (copied history) cannot rename it.
  if (action === 'session_init' && ctx.sessionId !== undefined) delete vals.sessionId;
  // An explicit null clears a field.
  for (const k of CONTEXT_FIELDS) {
    if (!(k in vals)) continue;
    const v = str(vals[k]);
    if (v !== undefined) ctx[k] = v;
    else if (vals[k] === null && action === 'session_context') delete ctx[k];
  }
  if (first && 'subagent' in vals) ctx.isSubagent = truthy(vals.subagent);
}

/** The action's own part of the event, or null when the record carries nothing to record. */
function eventBody(ec: EventContext, action: Action, vals: Record<string, unknown>, state: FileState): Body | null {
  const ev: Partial<CaptureEvent> = {};
  switch (action) {
    case 'session_init':
      if (str(vals.reason)) ev.reason = str(vals.reason);
      if (str(vals.title)) ev.title = str(vals.title);
      return { kind: 'session_start', ev };
    case 'user_message': {
      const prompt = text(vals.prompt);
      if (!prompt) return null;
      ev.prompt = truncateText(prompt);
      return { kind: 'prompt', ev };
    }
    case 'assistant_message': {
      const message = text(vals.message);
      if (!message) return null;
      ev.message = truncateText(message);
      return { kind: 'assistant_message', ev };
    }
    case 'tool_use': return toolUseBody(ec, vals, state);
    case 'tool_result': return toolResultBody(ec, vals, state);
    case 'observation': return observationBody(vals);
    case 'file_edit': return fileEditBody(ec, vals);
    case 'session_end':
      if (str(vals.reason)) ev.reason = str(vals.reason);
      return { kind: 'session_end', ev };
    default:
      return null;
  }
}

function toolUseBody(ec: EventContext, vals: Record<string, unknown>, state: FileState): Body | null {
  const raw = str(vals.toolName);
  if (!raw) return null;
  const id = str(vals.toolUseId);
  if (ec.ignore.some((re) => re.test(raw))) {
    if (id) remember(state, id, { ignored: true });
    return null;
  }
  const t = ec.normalizeTool(raw, vals.toolInput);
  const ev: Partial<CaptureEvent> = { toolUseId: id, toolName: t.toolName, rawToolName: raw, toolInput: t.toolInput };
  if (id) remember(state, id, { toolName: t.toolName, rawToolName: raw, toolInput: t.toolInput, promptId: promptFor(vals, state.context) });
  return { kind: 'tool_use', ev };
}

/** A result is paired with its pending call for the tool's name, input and turn. */
function toolResultBody(ec: EventContext, vals: Record<string, unknown>, state: FileState): Body | null {
  const id = str(vals.toolUseId);
  const pending = id ? state.pending[id] : undefined;
  if (id) delete state.pending[id];
  const raw = str(vals.toolName) ?? pending?.rawToolName;
  if (pending?.ignored || (raw && ec.ignore.some((re) => re.test(raw)))) return null;
  const ev: Partial<CaptureEvent> = {};
  ev.toolUseId = id;
  if (str(vals.toolName)) {
    const t = ec.normalizeTool(str(vals.toolName), vals.toolInput ?? pending?.toolInput);
    ev.toolName = t.toolName;
    ev.toolInput = t.toolInput;
  } else {
    ev.toolName = pending?.toolName;
    ev.toolInput = 'toolInput' in vals && !isEmpty(vals.toolInput) ? ec.normalizeTool(pending?.rawToolName, vals.toolInput).toolInput : pending?.toolInput;
  }
  if (raw) ev.rawToolName = raw;
  ev.toolResponse = bound(vals.toolResponse);
  if (truthy(vals.toolFailed)) ev.toolFailed = true;
  if (!('promptId' in vals) && pending?.promptId) ev.promptId = pending.promptId;
  return { kind: 'tool_result', ev };
}

function observationBody(vals: Record<string, unknown>): Body | null {
  const title = text(vals.title);
  const message = text(vals.message);
  if (!title && !message) return null;
  const ev: Partial<CaptureEvent> = {};
  if (title) ev.title = truncateText(title, 500);
  if (message) ev.message = truncateText(message);
  if (str(vals.toolName)) ev.toolName = str(vals.toolName);
  if (str(vals.filePath)) ev.filePath = str(vals.filePath);
  return { kind: 'observation', ev };
}

function fileEditBody(ec: EventContext, vals: Record<string, unknown>): Body | null {
  const filePath = str(vals.filePath);
  if (!filePath) return null;
  const ev: Partial<CaptureEvent> = { filePath };
  const oldText = typeof vals.oldText === 'string' ? vals.oldText : undefined;
  const newText = typeof vals.newText === 'string' ? vals.newText : undefined;
  if (oldText !== undefined || newText !== undefined) ev.edits = [{ oldText: bound(oldText) as string | undefined, newText: bound(newText) as string | undefined }];
  if (str(vals.toolUseId)) ev.toolUseId = str(vals.toolUseId);
  if (str(vals.toolName)) ev.toolName = ec.normalizeTool(str(vals.toolName), undefined).toolName;
  return { kind: 'file_edit', ev };
}

/**
 * The whole event: session, working directory, time and ids from the record or the file's context.
 * Without a valid session or directory the record can never be stored, so the line reports an
 * error and keeps no events.
 */
function addEvent(
  ec: EventContext, rule: CompiledRule, scope: PathScope, vals: Record<string, unknown>, at: string | undefined,
  { kind, ev }: Body, ctx: Record<string, unknown>, out: LineOutcome,
): void {
  const sessionId = str(vals.sessionId) ?? (ctx.sessionId as string | undefined);
  const cwd = str(vals.cwd) ?? (ctx.cwd as string | undefined);
  if (!isValidSessionId(sessionId)) {
    out.error = sessionId === undefined ? `no session id known for ${rule.name}` : `invalid session id "${String(sessionId).slice(0, 200)}"`;
    out.events.length = 0;
    return;
  }
  if (!isValidCwd(cwd)) {
    out.error = cwd === undefined ? `no working directory known for ${rule.name}` : `invalid working directory "${String(cwd).slice(0, 200)}"`;
    out.events.length = 0;
    return;
  }
  if (out.error) return;
  const event: CaptureEvent = {
    host: ec.host,
    source: 'transcript',
    kind,
    sessionId,
    cwd,
    at: at ?? (ctx.lastAt as string | undefined) ?? syntheticAt(ctx),
    transcriptPath: (scope.file as FileInfo).path,
    ...ev,
  };
  const promptId = ev.promptId ?? promptFor(vals, ctx);
  if (promptId) event.promptId = promptId;
  else delete event.promptId;
  const agentId = str(vals.agentId) ?? (ctx.agentId as string | undefined);
  const parent = str(vals.parentSessionId) ?? (ctx.parentSessionId as string | undefined);
  // Optional ids that do not look like ids are left out rather than sinking the event.
  if (agentId && isValidSessionId(agentId)) event.agentId = agentId;
  if (parent && isValidSessionId(parent)) event.parentSessionId = parent;
  if (ctx.isSubagent === true) event.isSubagent = true;
  const model = str(vals.model) ?? (ctx.model as string | undefined);
  if (model) event.model = model;
  for (const k of Object.keys(event) as (keyof CaptureEvent)[]) if (event[k] === undefined) delete event[k];
  out.events.push(event);
}

/** A declared promptId field wins (even when empty: "this record has none"); else the current turn. */
function promptFor(vals: Record<string, unknown>, ctx: Record<string, unknown>): string | undefined {
  if ('promptId' in vals) return str(vals.promptId);
  return str(ctx.promptId);
}

/** Logs without timestamps: the file's first-seen time plus the line number, stable across re-reads. */
function syntheticAt(ctx: Record<string, unknown>): string {
  const base = typeof ctx.fileAt === 'string' ? Date.parse(ctx.fileAt) : 0;
  return new Date((Number.isFinite(base) ? base : 0) + (typeof ctx.lineNo === 'number' ? ctx.lineNo : 0)).toISOString();
}

function remember(state: FileState, id: string, call: PendingCall): void {
  const pending = state.pending;
  if (id in pending) delete pending[id]; // re-insert at the end: insertion order is age order
  pending[id] = call;
  let n = 0;
  for (const _ in pending) n++;
  if (n <= MAX_PENDING) return;
  for (const k in pending) {
    delete pending[k];
    if (--n <= MAX_PENDING) break;
  }
}
