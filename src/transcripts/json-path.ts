/**
 * Paths into a record, compiled once: `a.b[0].c`, `$.a`, `$item.x`, `$ctx.promptId`,
 * `$file.parts[-2]`, `content[*].text` (every element), `["odd.key"]`.
 */
type PathRoot = 'record' | 'item' | 'ctx' | 'file';
type Segment = string | number | typeof WILD;
const WILD = Symbol('wild');

export interface CompiledPath {
  source: string;
  root: PathRoot;
  segments: Segment[];
  wild: boolean;
}

export interface PathScope {
  record: unknown;
  item?: unknown;
  ctx: Record<string, unknown>;
  file: unknown;
}

const ROOTS: Array<[string, PathRoot]> = [['$item', 'item'], ['$ctx', 'ctx'], ['$file', 'file'], ['$', 'record']];

/** Throws with a readable reason when the path cannot be parsed. */
export function compilePath(source: string): CompiledPath {
  if (typeof source !== 'string' || source.trim() === '') throw new Error('empty path');
  let rest = source.trim();
  let root: PathRoot = 'record';
  for (const [prefix, r] of ROOTS) {
    if (rest === prefix) { root = r; rest = ''; break; }
    if (rest.startsWith(prefix + '.') || rest.startsWith(prefix + '[')) {
      root = r;
      rest = rest.slice(prefix.length);
      if (rest.startsWith('.')) rest = rest.slice(1);
      break;
    }
  }
  const segments: Segment[] = [];
  let i = 0;
  let expectKey = true;
  while (i < rest.length) {
    const ch = rest[i];
    if (ch === '[') {
      const close = rest.indexOf(']', i);
      if (close < 0) throw new Error(`unclosed "[" in "${source}"`);
      const inner = rest.slice(i + 1, close).trim();
      if (inner === '*') segments.push(WILD);
      else if (/^-?\d+$/.test(inner)) segments.push(Number(inner));
      else if (/^"(?:[^"\\]|\\.)*"$/.test(inner)) segments.push(JSON.parse(inner) as string);
      else throw new Error(`bad index [${inner}] in "${source}"`);
      i = close + 1;
      expectKey = false;
    } else if (ch === '.') {
      if (expectKey) throw new Error(`empty segment in "${source}"`);
      i++;
      expectKey = true;
    } else {
      let j = i;
      while (j < rest.length && rest[j] !== '.' && rest[j] !== '[') j++;
      const key = rest.slice(i, j);
      if (key === '*') segments.push(WILD);
      else segments.push(key);
      i = j;
      expectKey = false;
    }
  }
  if (rest.length > 0 && expectKey) throw new Error(`path ends with "." in "${source}"`);
  return { source, root, segments, wild: segments.includes(WILD) };
}

function step(value: unknown, seg: string | number): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  if (typeof seg === 'number') {
    if (!Array.isArray(value)) return undefined;
    return value[seg < 0 ? value.length + seg : seg];
  }
  return (value as Record<string, unknown>)[seg];
}

/** The value at the path; with `[*]` an array of every match (missing ones left out). */
export function readPath(path: CompiledPath, scope: PathScope): unknown {
  let value: unknown =
    path.root === 'record' ? scope.record : path.root === 'item' ? scope.item : path.root === 'ctx' ? scope.ctx : scope.file;
  if (!path.wild) {
    const segs = path.segments;
    for (let k = 0; k < segs.length; k++) {
      if (value === undefined || value === null) return undefined;
      value = step(value, segs[k] as string | number);
    }
    return value;
  }
  let values: unknown[] = [value];
  for (const seg of path.segments) {
    const next: unknown[] = [];
    for (const v of values) {
      if (seg === WILD) {
        if (Array.isArray(v)) next.push(...v);
        else if (v && typeof v === 'object') next.push(...Object.values(v));
      } else {
        const s = step(v, seg);
        if (s !== undefined) next.push(s);
      }
    }
    values = next;
  }
  return values;
}
