import type { EntryMatcher, KeyPath } from './types.js';

/** Structural equality for parsed config data (key order ignored; dates compared by value). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') {
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (a instanceof Date || b instanceof Date) return String(a) === String(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => Object.hasOwn(b as object, k) && deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/** Value at `path`, or undefined when any step is missing. */
export function getAt(root: unknown, path: KeyPath): unknown {
  let cur = root;
  for (const k of path) {
    if (!isPlainObject(cur) || !Object.hasOwn(cur, k)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** Immutable set (creating plain objects on the way); `undefined` deletes. Used to predict a parse. */
export function setAt(root: unknown, path: KeyPath, value: unknown): unknown {
  if (path.length === 0) return value;
  const base = isPlainObject(root) ? { ...root } : {};
  const [head, ...rest] = path;
  const next = setAt(base[head], rest, value);
  if (next === undefined) delete base[head];
  else base[head] = next;
  return base;
}

function strings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => strings(x, out));
  else if (isPlainObject(v)) Object.values(v).forEach((x) => strings(x, out));
  return out;
}

export function matches(entry: unknown, matcher: EntryMatcher): boolean {
  if (matcher.length === 0) return false; // an empty matcher would claim every entry
  return matcher.every((rule) => {
    const target = rule.path ? getAt(entry, rule.path) : entry;
    if (rule.path && target === undefined) return false;
    if (rule.equals !== undefined && !deepEqual(target, rule.equals)) return false;
    if (rule.contains !== undefined && !strings(target).some((s) => s.includes(rule.contains!))) return false;
    if (rule.pattern !== undefined) {
      const re = new RegExp(rule.pattern);
      if (!strings(target).some((s) => re.test(s))) return false;
    }
    return true;
  });
}
