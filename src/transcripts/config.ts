/**
 * transcript-watch.json and schema validation (zod 4). Every problem is reported with its exact
 * path (`watches[0].schema`, `schemas.codex.events[3].match.all[1].regex`), not just the first.
 */
import { readFileSync } from 'node:fs';
import { parse as parseJsonc, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { z } from 'zod';
import { HOST_IDS } from '../shared/hosts.js';
import { ACTION_FIELDS, ACTION_REQUIRED, SESSION_DEFAULT_FIELDS } from './actions.js';
import { checkFieldSpec } from './fields.js';
import { compilePath } from './json-path.js';
import { checkMatchRule, type Issue } from './match.js';
import { HISTORY_READERS } from './readers/names.js';
import { ACTIONS, type Action, type TranscriptSchema, type TranscriptWatchConfig } from './types.js';

type Ctx = z.RefinementCtx;
const report = (ctx: Ctx, issues: Issue[]) => {
  for (const i of issues) ctx.addIssue({ code: 'custom', message: i.message, path: i.path });
};

const FieldSpecZ = z.unknown().superRefine((v, ctx) => report(ctx, checkFieldSpec(v, [])));
const MatchZ = z.unknown().superRefine((v, ctx) => report(ctx, checkMatchRule(v, [])));
const PathZ = z.string().superRefine((v, ctx) => {
  try { compilePath(v); } catch (e) { ctx.addIssue({ code: 'custom', message: (e as Error).message }); }
});
const RegexZ = z.string().superRefine((v, ctx) => {
  try { new RegExp(v); } catch (e) { ctx.addIssue({ code: 'custom', message: `invalid regex: ${(e as Error).message}` }); }
});

const EventRuleZ = z
  .object({
    name: z.string().optional(),
    match: MatchZ.optional(),
    each: PathZ.optional(),
    action: z.enum(ACTIONS),
    fields: z.record(z.string(), FieldSpecZ).optional(),
  })
  .strict()
  .superRefine((rule, ctx) => {
    const allowed = ACTION_FIELDS[rule.action as Action];
    if (!allowed) return;
    const given = Object.keys(rule.fields ?? {});
    for (const k of given) {
      if (!allowed.includes(k)) ctx.addIssue({ code: 'custom', path: ['fields', k], message: `"${k}" is not a field of ${rule.action} (fields: ${allowed.join(', ')})` });
    }
    for (const oneOf of ACTION_REQUIRED[rule.action as Action] ?? []) {
      if (!oneOf.some((k) => given.includes(k))) {
        ctx.addIssue({ code: 'custom', path: ['fields'], message: `${rule.action} needs ${oneOf.map((k) => `"${k}"`).join(' or ')}` });
      }
    }
  });

const ToolSpecZ = z
  .object({ name: z.string().min(1).optional(), rename: z.record(z.string(), z.string()).optional(), wrap: z.string().min(1).optional() })
  .strict();

const TranscriptSchemaZ = z
  .object({
    $schema: z.string().optional(),
    $comment: z.string().optional(),
    name: z.string().optional(),
    description: z.string().optional(),
    host: z.enum(HOST_IDS),
    version: z.number().optional(),
    session: z
      .record(z.string(), FieldSpecZ)
      .superRefine((s, ctx) => {
        for (const k of Object.keys(s)) {
          if (!SESSION_DEFAULT_FIELDS.includes(k)) ctx.addIssue({ code: 'custom', path: [k], message: `unknown session field "${k}" (fields: ${SESSION_DEFAULT_FIELDS.join(', ')})` });
        }
      })
      .optional(),
    tools: z.record(z.string(), z.union([z.string().min(1), ToolSpecZ])).optional(),
    ignoreTools: z.array(RegexZ).optional(),
    defaultWatch: z
      .object({ path: z.string().min(1), startAtEnd: z.boolean().optional(), subagentOnly: z.boolean().optional() })
      .strict()
      .optional(),
    history: z
      .object({
        paths: z.array(z.string().min(1)).min(1),
        reader: z.string().refine((n) => HISTORY_READERS.includes(n), { message: `unknown reader (readers: ${HISTORY_READERS.join(', ') || 'none'})` }).optional(),
        verified: z.boolean().optional(),
      })
      .strict()
      .optional(),
    events: z.array(EventRuleZ).min(1),
  })
  .strict();

const WatchZ = z
  .object({
    name: z.string().min(1),
    path: z.string().min(1),
    schema: z.string().min(1),
    startAtEnd: z.boolean().optional(),
    subagentOnly: z.boolean().optional(),
    managedBy: z.string().optional(),
    enabled: z.boolean().optional(),
  })
  .strict();

const OptionsZ = z
  .object({
    pollIntervalMs: z.number().int().min(50).max(600_000).optional(),
    discoveryIntervalMs: z.number().int().min(100).max(3_600_000).optional(),
    maxLineBytes: z.number().int().min(1024).max(1024 * 1024 * 1024).optional(),
  })
  .strict();

const ConfigZ = z
  .object({
    $schema: z.string().optional(),
    $comment: z.string().optional(),
    version: z.literal(1).optional(),
    schemas: z.record(z.string(), TranscriptSchemaZ).optional(),
    watches: z.array(WatchZ),
    options: OptionsZ.optional(),
  })
  .strict();

/** `watches[0].schema`, `schemas.codex.events[3].match.all[1].regex`, `schemas["my schema"]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && /^[A-Za-z_$][\w$-]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out || '(root)';
}

function zodIssues(error: z.ZodError | undefined): Issue[] {
  return (error?.issues ?? []).map((i) => ({ path: i.path as (string | number)[], message: i.message }));
}

type Validation<T> = { ok: true; value: T; errors: [] } | { ok: false; errors: string[] };

function done<T>(issues: Issue[], value: T): Validation<T> {
  if (!issues.length) return { ok: true, value, errors: [] };
  const seen = new Set<string>();
  const errors: string[] = [];
  for (const i of issues) {
    const line = `${formatPath(i.path)}: ${i.message}`;
    if (!seen.has(line)) { seen.add(line); errors.push(line); }
  }
  return { ok: false, errors };
}

export function validateSchema(raw: unknown): Validation<TranscriptSchema> {
  const r = TranscriptSchemaZ.safeParse(raw);
  return done(zodIssues(r.error), raw as TranscriptSchema);
}

/** Validates a whole config; `shippedNames` are the schema names templates/transcripts provides. */
export function validateConfig(raw: unknown, shippedNames: readonly string[]): Validation<TranscriptWatchConfig> {
  const r = ConfigZ.safeParse(raw);
  const issues = zodIssues(r.error);
  // Cross-references are checked on the raw input so they are reported alongside shape errors.
  const obj = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const own = obj.schemas && typeof obj.schemas === 'object' ? Object.keys(obj.schemas) : [];
  const known = [...new Set([...shippedNames, ...own])];
  const names = new Map<string, number>();
  if (Array.isArray(obj.watches)) {
    obj.watches.forEach((w, i) => {
      if (!w || typeof w !== 'object') return;
      const watch = w as Record<string, unknown>;
      if (typeof watch.schema === 'string' && watch.schema && !known.includes(watch.schema)) {
        issues.push({ path: ['watches', i, 'schema'], message: `unknown schema "${watch.schema}" (known: ${known.join(', ') || 'none'})` });
      }
      if (typeof watch.name === 'string') {
        if (names.has(watch.name)) issues.push({ path: ['watches', i, 'name'], message: `duplicate watch name "${watch.name}" (also watches[${names.get(watch.name)}])` });
        else names.set(watch.name, i);
      }
    });
  }
  issues.sort((a, b) => formatPath(a.path).localeCompare(formatPath(b.path), 'en'));
  return done(issues, raw as TranscriptWatchConfig);
}

/** Parses JSON (comments and trailing commas allowed) with line:column errors. */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; errors: string[] } {
  const errs: ParseError[] = [];
  const value = parseJsonc(text, errs, { allowTrailingComma: true, disallowComments: false });
  if (!errs.length) return { ok: true, value };
  return {
    ok: false,
    errors: errs.map((e) => {
      const before = text.slice(0, e.offset);
      const line = before.split('\n').length;
      const col = e.offset - before.lastIndexOf('\n');
      return `line ${line}, column ${col}: ${printParseErrorCode(e.error)}`;
    }),
  };
}

export function readConfigFile(file: string, shippedNames: readonly string[]): Validation<TranscriptWatchConfig> {
  let text: string;
  try { text = readFileSync(file, 'utf8'); } catch (e) {
    return { ok: false, errors: [`${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : (e as Error).message}`] };
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) return { ok: false, errors: parsed.errors.map((e) => `${file}: ${e}`) };
  return validateConfig(parsed.value, shippedNames);
}
