/** Match rules: checked (with exact error paths) and compiled once into plain predicates. */
import { stableStringify } from '../shared/event-key.js';
import { compilePath, readPath, type CompiledPath, type PathScope } from './json-path.js';
import { MATCH_OPERATORS, type MatchOperator, type MatchRule } from './types.js';

export type Predicate = (scope: PathScope) => boolean;
export interface Issue { path: (string | number)[]; message: string }

const COMBINATORS = ['all', 'any', 'not'] as const;

/** Every problem of a rule, each with its path below `base`. */
export function checkMatchRule(rule: unknown, base: (string | number)[] = []): Issue[] {
  const issues: Issue[] = [];
  if (!rule || typeof rule !== 'object' || Array.isArray(rule)) {
    return [{ path: base, message: 'a match rule must be an object' }];
  }
  const r = rule as Record<string, unknown>;
  const keys = Object.keys(r);
  const combs = keys.filter((k) => (COMBINATORS as readonly string[]).includes(k));
  if (combs.length) {
    if (combs.length > 1 || keys.length > 1) issues.push({ path: base, message: `"${combs[0]}" cannot be combined with other keys (${keys.join(', ')})` });
    const k = combs[0] as (typeof COMBINATORS)[number];
    if (k === 'not') return [...issues, ...checkMatchRule(r.not, [...base, 'not'])];
    const list = r[k];
    if (!Array.isArray(list) || list.length === 0) return [...issues, { path: [...base, k], message: `"${k}" needs a non-empty array of rules` }];
    list.forEach((sub, i) => issues.push(...checkMatchRule(sub, [...base, k, i])));
    return issues;
  }
  const ops = keys.filter((k) => (MATCH_OPERATORS as readonly string[]).includes(k)) as MatchOperator[];
  for (const k of keys) {
    if (k !== 'path' && k !== 'flags' && !ops.includes(k as MatchOperator)) {
      issues.push({ path: [...base, k], message: `unknown key "${k}" (operators: ${MATCH_OPERATORS.join(', ')}; combinators: all, any, not)` });
    }
  }
  if (typeof r.path !== 'string') issues.push({ path: [...base, 'path'], message: 'a rule needs a "path" string' });
  else {
    try { compilePath(r.path); } catch (e) { issues.push({ path: [...base, 'path'], message: (e as Error).message }); }
  }
  if (ops.length !== 1) {
    issues.push({ path: base, message: ops.length ? `one operator per rule, found ${ops.join(', ')} (use "all")` : `no operator (one of ${MATCH_OPERATORS.join(', ')})` });
    return issues;
  }
  const op = ops[0];
  const v = r[op];
  const at = [...base, op];
  switch (op) {
    case 'in': case 'not_in':
      if (!Array.isArray(v)) issues.push({ path: at, message: `"${op}" needs an array` });
      break;
    case 'exists':
      if (typeof v !== 'boolean') issues.push({ path: at, message: '"exists" needs true or false' });
      break;
    case 'starts_with': case 'not_starts_with':
      if (!(typeof v === 'string' || (Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string')))) {
        issues.push({ path: at, message: `"${op}" needs a string or a non-empty array of strings` });
      }
      break;
    case 'contains':
      if (v === undefined) issues.push({ path: at, message: '"contains" needs a value' });
      break;
    case 'regex':
      if (typeof v !== 'string') issues.push({ path: at, message: '"regex" needs a string' });
      else {
        try { new RegExp(v, typeof r.flags === 'string' ? r.flags : undefined); } catch (e) {
          issues.push({ path: at, message: `invalid regex: ${(e as Error).message}` });
        }
      }
      break;
    default:
      break;
  }
  if (r.flags !== undefined && op !== 'regex') issues.push({ path: [...base, 'flags'], message: '"flags" only applies to "regex"' });
  return issues;
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return stableStringify(a) === stableStringify(b);
}

/** A value from a `[*]` path is an array of candidates: positive operators hold if any does. */
function positive(path: CompiledPath, test: (v: unknown) => boolean): Predicate {
  if (path.wild) return (s) => (readPath(path, s) as unknown[]).some(test);
  return (s) => test(readPath(path, s));
}

export function compileMatch(rule: MatchRule | undefined): Predicate {
  if (!rule) return () => true;
  const r = rule as Record<string, unknown>;
  if (Array.isArray(r.all)) {
    const subs = (r.all as MatchRule[]).map(compileMatch);
    return (s) => { for (const p of subs) if (!p(s)) return false; return true; };
  }
  if (Array.isArray(r.any)) {
    const subs = (r.any as MatchRule[]).map(compileMatch);
    return (s) => { for (const p of subs) if (p(s)) return true; return false; };
  }
  if (r.not !== undefined) {
    const sub = compileMatch(r.not as MatchRule);
    return (s) => !sub(s);
  }
  const path = compilePath(r.path as string);
  if ('equals' in r) { const v = r.equals; return positive(path, v === null || typeof v !== 'object' ? (x) => x === v : (x) => equal(x, v)); }
  if ('not_equals' in r) {
    const v = r.not_equals;
    const p = positive(path, v === null || typeof v !== 'object' ? (x) => x === v : (x) => equal(x, v));
    return (s) => !p(s);
  }
  if ('in' in r) {
    const list = r.in as unknown[];
    const prims = new Set(list.filter((x) => x === null || typeof x !== 'object'));
    return positive(path, (x) => prims.has(x) || list.some((y) => typeof y === 'object' && equal(x, y)));
  }
  if ('not_in' in r) {
    const list = r.not_in as unknown[];
    const p = positive(path, (x) => list.some((y) => equal(x, y)));
    return (s) => !p(s);
  }
  if ('exists' in r) {
    const want = r.exists as boolean;
    const has = positive(path, (x) => x !== undefined && x !== null);
    return want ? has : (s) => !has(s);
  }
  if ('starts_with' in r || 'not_starts_with' in r) {
    const neg = 'not_starts_with' in r;
    const raw = neg ? r.not_starts_with : r.starts_with;
    const prefixes = (Array.isArray(raw) ? raw : [raw]) as string[];
    const p = positive(path, (x) => typeof x === 'string' && prefixes.some((pre) => x.startsWith(pre)));
    return neg ? (s) => !p(s) : p;
  }
  if ('contains' in r) {
    const needle = r.contains;
    return positive(path, (x) => {
      if (typeof x === 'string') return typeof needle === 'string' && x.includes(needle);
      if (Array.isArray(x)) return x.some((y) => equal(y, needle));
      return false;
    });
  }
  if ('regex' in r) {
    const re = new RegExp(r.regex as string, typeof r.flags === 'string' ? r.flags.replace(/[gy]/g, '') : undefined);
    return positive(path, (x) => typeof x === 'string' && re.test(x));
  }
  throw new Error('match rule without operator');
}
