/**
 * The schema engine: a schema is compiled once (paths parsed, regexes built, rules indexed by
 * their discriminating field), then each parsed record is turned into CaptureEvents while the
 * file's state (session context, pending tool calls) is updated in place.
 */
import {
  isValidCwd, isValidSessionId, truncateText, type CaptureEvent, type CaptureKind,
} from '../../shared/capture-event.js';
import type { HostId } from '../../shared/hosts.js';
import { normalizeToolName } from '../../shared/tool-names.js';
import { basename, dirname } from 'node:path';
import { compileField, isEmpty, type Getter } from './fields.js';
import { compilePath, readPath, type CompiledPath, type PathScope } from './json-path.js';
import { compileMatch, type Predicate } from './match.js';
import type { Action, EventRule, MatchRule, ToolSpec, TranscriptSchema } from './types.js';

export interface PendingCall {
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

export interface FileInfo {
  path: string;
  name: string;
  /** The name up to its first dot (`<session>.jsonl` → `<session>`). */
  stem: string;
  dir: string;
  parts: string[];
}

export interface EvalOptions {
  /** Only sessions whose first record carries the subagent marker are recorded. */
  subagentOnly?: boolean;
  /** Update context only (used to learn the session from a file's first line when starting at its end). */
  contextOnly?: boolean;
}

export interface LineOutcome {
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
export const MAX_PENDING = 1000;

export function fileInfo(path: string): FileInfo {
  const name = basename(path);
  const dot = name.indexOf('.', 1);
  return { path, name, stem: dot > 0 ? name.slice(0, dot) : name, dir: dirname(path), parts: path.split(/[\\/]+/).filter(Boolean) };
}

/** The required parts of a match: the rule itself, or each rule of its `all`. */
function requiredParts(rule: MatchRule | undefined): MatchRule[] {
  if (!rule) return [];
  const r = rule as Record<string, unknown>;
  return Array.isArray(r.all) ? (r.all as MatchRule[]) : [rule];
}

/** An equals/in of primitives on one record path: [the path as a key, the values it accepts]. */
function discriminant(part: MatchRule): [string, unknown[]] | null {
  const sub = part as Record<string, unknown>;
  if (typeof sub.path !== 'string') return null;
  let p: CompiledPath;
  try { p = compilePath(sub.path); } catch { return null; }
  if (p.root !== 'record' || p.wild) return null;
  const key = p.segments.map(String).join('\u0000');
  const prim = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
  if ('equals' in sub && prim(sub.equals)) return [key, [sub.equals]];
  if (Array.isArray(sub.in) && (sub.in as unknown[]).every(prim)) return [key, sub.in as unknown[]];
  return null;
}

/** Required equals/in on record paths, used to jump straight to the rules a record can match. */
function discriminants(rule: MatchRule | undefined): Array<[string, unknown[]]> {
  return requiredParts(rule).flatMap((part) => {
    const d = discriminant(part);
    return d ? [d] : [];
  });
}

/** The match of a rule reached through the index at `value`: without the parts the index already checked. */
function afterIndex(rule: MatchRule | undefined, key: string, value: unknown): Predicate {
  const rest = requiredParts(rule).filter((part) => {
    const d = discriminant(part);
    return !(d && d[0] === key && d[1].includes(value));
  });
  return compileMatch(rest.length ? ({ all: rest } as MatchRule) : undefined);
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
  const ignore = (schema.ignoreTools ?? []).map((r) => new RegExp(r));
  const tools = new Map<string, ToolSpec>(
    Object.entries(schema.tools ?? {}).map(([k, v]) => [k, typeof v === 'string' ? { name: v } : v]),
  );

  // Index: the record path most rules pin with equals/in, so a record only meets its candidates.
  const counts = new Map<string, number>();
  const perRule = schema.events.map((e) => discriminants(e.match));
  perRule.forEach((ds) => new Set(ds.map(([k]) => k)).forEach((k) => counts.set(k, (counts.get(k) ?? 0) + 1)));
  let indexKey: string | undefined;
  for (const [k, n] of counts) if (n > 1 && (!indexKey || n > (counts.get(indexKey) ?? 0))) indexKey = k;
  let indexPath: CompiledPath | undefined;
  const byValue = new Map<unknown, CompiledRule[]>();
  let unpinned: CompiledRule[] = rules;
  if (indexKey) {
    indexPath = { source: indexKey, root: 'record', segments: indexKey.split('\u0000').map((s) => (/^-?\d+$/.test(s) ? Number(s) : s)), wild: false };
    unpinned = rules.filter((_, i) => !perRule[i].some(([k]) => k === indexKey));
    const values = new Set<unknown>();
    perRule.forEach((ds) => ds.forEach(([k, vs]) => k === indexKey && vs.forEach((v) => values.add(v))));
    for (const v of values) {
      byValue.set(v, rules.flatMap((r, i) => {
        if (unpinned.includes(r)) return [r];
        const pinned = perRule[i].some(([k, vs]) => k === indexKey && vs.includes(v));
        return pinned ? [{ ...r, match: afterIndex(schema.events[i].match, indexKey, v) }] : [];
      }));
    }
  }

  function normalizeTool(raw: string | undefined, input: unknown): { toolName?: string; toolInput: unknown } {
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
  }

  function evaluate(record: unknown, state: FileState, file: FileInfo, opts: EvalOptions = {}): LineOutcome {
    const ctx = state.context;
    const scope: PathScope = { record, ctx, file };
    const first = ctx.firstSeen !== true;
    if (first) {
      ctx.firstSeen = true;
      for (const [k, g] of sessionDefaults) {
        const v = g(scope);
        if (k === 'subagent') ctx.isSubagent = truthy(v);
        else if (str(v) !== undefined && ctx[k] === undefined) ctx[k] = str(v);
      }
    }
    ctx.lineNo = (typeof ctx.lineNo === 'number' ? ctx.lineNo : 0) + 1;
    const out: LineOutcome = { events: [] };
    let candidates = unpinned;
    if (indexPath) {
      const v = readPath(indexPath, scope);
      candidates = byValue.get(v) ?? unpinned;
    }
    for (const rule of candidates) {
      if (rule.each) {
        const items = readPath(rule.each, scope);
        if (!Array.isArray(items)) continue;
        for (const item of items) {
          const s: PathScope = { record, ctx, file, item };
          if (rule.match(s)) apply(rule, s, state, first, opts, out);
        }
      } else if (rule.match(scope)) {
        apply(rule, scope, state, first, opts, out);
      }
    }
    return out;
  }

  function apply(rule: CompiledRule, scope: PathScope, state: FileState, first: boolean, opts: EvalOptions, out: LineOutcome): void {
    const ctx = state.context;
    const vals: Record<string, unknown> = {};
    const fields = rule.fields;
    for (let i = 0; i < fields.length; i++) vals[fields[i][0]] = fields[i][1](scope);
    const declared = (k: string) => k in vals;

    const at = vals.at === undefined ? undefined : toIso(vals.at);
    if (at) ctx.lastAt = at;
    if (rule.action === 'session_init' || rule.action === 'session_context') {
      // One file is one session: the first session_init names it; a later one (copied history) cannot rename it.
      if (rule.action === 'session_init' && ctx.sessionId !== undefined) delete vals.sessionId;
      // Context fields a record may set for every later record; an explicit null clears one.
      for (const k of CONTEXT_FIELDS) {
        if (!(k in vals)) continue;
        const v = str(vals[k]);
        if (v !== undefined) ctx[k] = v;
        else if (vals[k] === null && rule.action === 'session_context') delete ctx[k];
      }
      if (first && declared('subagent')) ctx.isSubagent = truthy(vals.subagent);
      if (rule.action === 'session_context') return;
    }
    if (rule.action === 'user_message' && declared('promptId') && str(vals.promptId)) ctx.promptId = str(vals.promptId);

    const recording = !opts.contextOnly && (!opts.subagentOnly || ctx.isSubagent === true);
    if (!recording) {
      // Pending calls are still forgotten when answered, so a later switch cannot pair stale ones.
      if (rule.action === 'tool_result') { const id = str(vals.toolUseId); if (id) delete state.pending[id]; }
      return;
    }

    const ev: Partial<CaptureEvent> = {};
    let kind: CaptureKind;
    switch (rule.action) {
      case 'session_init':
        kind = 'session_start';
        if (str(vals.reason)) ev.reason = str(vals.reason);
        if (str(vals.title)) ev.title = str(vals.title);
        break;
      case 'user_message': {
        const prompt = text(vals.prompt);
        if (!prompt) return;
        kind = 'prompt';
        ev.prompt = truncateText(prompt);
        break;
      }
      case 'assistant_message': {
        const message = text(vals.message);
        if (!message) return;
        kind = 'assistant_message';
        ev.message = truncateText(message);
        break;
      }
      case 'tool_use': {
        const raw = str(vals.toolName);
        if (!raw) return;
        const id = str(vals.toolUseId);
        if (ignore.some((re) => re.test(raw))) {
          if (id) remember(state, id, { ignored: true });
          return;
        }
        const t = normalizeTool(raw, vals.toolInput);
        kind = 'tool_use';
        ev.toolUseId = id;
        ev.toolName = t.toolName;
        ev.rawToolName = raw;
        ev.toolInput = t.toolInput;
        if (id) remember(state, id, { toolName: t.toolName, rawToolName: raw, toolInput: t.toolInput, promptId: promptFor(vals, ctx) });
        break;
      }
      case 'tool_result': {
        const id = str(vals.toolUseId);
        const pending = id ? state.pending[id] : undefined;
        if (id) delete state.pending[id];
        const raw = str(vals.toolName) ?? pending?.rawToolName;
        if (pending?.ignored || (raw && ignore.some((re) => re.test(raw)))) return;
        kind = 'tool_result';
        ev.toolUseId = id;
        if (str(vals.toolName)) {
          const t = normalizeTool(str(vals.toolName), vals.toolInput ?? pending?.toolInput);
          ev.toolName = t.toolName;
          ev.toolInput = t.toolInput;
        } else {
          ev.toolName = pending?.toolName;
          ev.toolInput = declared('toolInput') && !isEmpty(vals.toolInput) ? normalizeTool(pending?.rawToolName, vals.toolInput).toolInput : pending?.toolInput;
        }
        if (raw) ev.rawToolName = raw;
        ev.toolResponse = bound(vals.toolResponse);
        if (truthy(vals.toolFailed)) ev.toolFailed = true;
        if (!declared('promptId') && pending?.promptId) ev.promptId = pending.promptId;
        break;
      }
      case 'observation': {
        const title = text(vals.title);
        const message = text(vals.message);
        if (!title && !message) return;
        kind = 'observation';
        if (title) ev.title = truncateText(title, 500);
        if (message) ev.message = truncateText(message);
        if (str(vals.toolName)) ev.toolName = str(vals.toolName);
        if (str(vals.filePath)) ev.filePath = str(vals.filePath);
        break;
      }
      case 'file_edit': {
        const filePath = str(vals.filePath);
        if (!filePath) return;
        kind = 'file_edit';
        ev.filePath = filePath;
        const oldText = typeof vals.oldText === 'string' ? vals.oldText : undefined;
        const newText = typeof vals.newText === 'string' ? vals.newText : undefined;
        if (oldText !== undefined || newText !== undefined) ev.edits = [{ oldText: bound(oldText) as string | undefined, newText: bound(newText) as string | undefined }];
        if (str(vals.toolUseId)) ev.toolUseId = str(vals.toolUseId);
        if (str(vals.toolName)) ev.toolName = normalizeTool(str(vals.toolName), undefined).toolName;
        break;
      }
      case 'session_end':
        kind = 'session_end';
        if (str(vals.reason)) ev.reason = str(vals.reason);
        break;
      default:
        return;
    }

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
      host,
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

  return { name, host, reader: schema.history?.reader, evaluate };
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
