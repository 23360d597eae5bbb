/** Field specs: checked with exact error paths and compiled once into getters. */
import { compilePath, readPath, type PathScope } from './json-path.js';
import type { Issue } from './match.js';
import type { FieldSpec } from './types.js';

export type Getter = (scope: PathScope) => unknown;

const OBJECT_KEYS = ['path', 'coalesce', 'value', 'default', 'parse', 'join', 'decode', 'strip'];

export function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
}

export function checkFieldSpec(spec: unknown, base: (string | number)[]): Issue[] {
  if (typeof spec === 'string') {
    try { compilePath(spec); return []; } catch (e) { return [{ path: base, message: (e as Error).message }]; }
  }
  if (!spec || typeof spec !== 'object' || Array.isArray(spec)) {
    return [{ path: base, message: 'a field is a path string or an object with path, coalesce or value' }];
  }
  const s = spec as Record<string, unknown>;
  const issues: Issue[] = [];
  for (const k of Object.keys(s)) {
    if (!OBJECT_KEYS.includes(k)) issues.push({ path: [...base, k], message: `unknown key "${k}" (allowed: ${OBJECT_KEYS.join(', ')})` });
  }
  const sources = ['path', 'coalesce', 'value'].filter((k) => k in s);
  if (sources.length !== 1) {
    issues.push({ path: base, message: sources.length ? `use one of path, coalesce, value (found ${sources.join(', ')})` : 'needs "path", "coalesce" or "value"' });
  }
  if ('path' in s) issues.push(...checkFieldSpec(s.path, [...base, 'path']).map((i) => (typeof s.path === 'string' ? i : { ...i, message: '"path" must be a string' })));
  if ('coalesce' in s) {
    if (!Array.isArray(s.coalesce) || s.coalesce.length === 0) issues.push({ path: [...base, 'coalesce'], message: '"coalesce" needs a non-empty array' });
    else s.coalesce.forEach((sub, i) => issues.push(...checkFieldSpec(sub, [...base, 'coalesce', i])));
  }
  if ('parse' in s && s.parse !== 'json') issues.push({ path: [...base, 'parse'], message: '"parse" supports only "json"' });
  if ('decode' in s && s.decode !== 'uri') issues.push({ path: [...base, 'decode'], message: '"decode" supports only "uri"' });
  if ('join' in s && typeof s.join !== 'string') issues.push({ path: [...base, 'join'], message: '"join" needs a separator string' });
  if ('strip' in s) {
    if (typeof s.strip !== 'string') issues.push({ path: [...base, 'strip'], message: '"strip" needs a regex string' });
    else {
      try { new RegExp(s.strip, 'g'); } catch (e) { issues.push({ path: [...base, 'strip'], message: `invalid regex: ${(e as Error).message}` }); }
    }
  }
  return issues;
}

export function compileField(spec: FieldSpec): Getter {
  if (typeof spec === 'string') {
    const p = compilePath(spec);
    return (s) => readPath(p, s);
  }
  let get: Getter;
  if (spec.path !== undefined) {
    const p = compilePath(spec.path);
    get = (s) => readPath(p, s);
  } else if (spec.coalesce !== undefined) {
    const subs = spec.coalesce.map(compileField);
    get = (s) => {
      for (const g of subs) { const v = g(s); if (!isEmpty(v)) return v; }
      return undefined;
    };
  } else {
    const v = spec.value;
    get = () => v;
  }
  const { parse, join, decode } = spec;
  const strip = spec.strip !== undefined ? new RegExp(spec.strip, 'g') : undefined;
  const hasDefault = 'default' in spec;
  const dflt = spec.default;
  if (!parse && join === undefined && !decode && !strip && !hasDefault) return get;
  return (s) => {
    let v = get(s);
    if (strip) v = stripText(v, strip);
    if (join !== undefined && Array.isArray(v)) {
      const parts = v.filter((x) => typeof x === 'string' && x !== '');
      v = parts.length ? parts.join(join) : undefined;
    }
    if (parse === 'json' && typeof v === 'string') {
      try { v = JSON.parse(v); } catch { /* not JSON: keep the raw string */ }
    }
    if (decode === 'uri' && typeof v === 'string') {
      try { v = decodeURIComponent(v); } catch { /* malformed escape: keep as is */ }
    }
    return isEmpty(v) && hasDefault ? dflt : v;
  };
}

/** Removes what `re` matches from a string, or from each string / `{text}` block of an array. */
function stripText(v: unknown, re: RegExp): unknown {
  const cut = (t: string) => t.replace(re, '').trim();
  if (typeof v === 'string') return cut(v);
  if (!Array.isArray(v)) return v;
  return v.map((x) => {
    if (typeof x === 'string') return cut(x);
    if (x && typeof x === 'object' && typeof (x as { text?: unknown }).text === 'string') return { ...(x as object), text: cut((x as { text: string }).text) };
    return x;
  });
}
