/**
 * A small glob: `~` and `$VAR` / `${VAR}` / `${VAR:-default}` expansion, then `*`, `?`, `[…]`,
 * `{a,b}` within a segment and `**` across segments. Expansion walks only below the fixed
 * prefix and prunes directories that cannot match.
 */
import { readdir } from 'node:fs/promises';
import { isAbsolute, join, resolve, sep } from 'node:path';
import { expandHome, type Env } from '../shared/paths.js';

export function expandVars(pattern: string, env: Env = process.env): string {
  const out = pattern.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g, (_m, braced: string | undefined, dflt: string | undefined, bare: string | undefined) => {
    const name = braced ?? bare ?? '';
    const v = env[name];
    if (v !== undefined && v !== '') return v;
    return dflt ?? '';
  });
  return expandHome(out, env);
}

const MAGIC = /[*?[{]/;

function segmentRegex(seg: string): RegExp {
  let re = '';
  let i = 0;
  let braces = 0;
  while (i < seg.length) {
    const c = seg[i];
    if (c === '\\' && i + 1 < seg.length) { re += escapeRe(seg[i + 1]); i += 2; continue; }
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const close = seg.indexOf(']', i + 2);
      if (close < 0) re += '\\[';
      else {
        let body = seg.slice(i + 1, close);
        if (body.startsWith('!')) body = '^' + body.slice(1);
        re += `[${body.replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else if (c === '{') { re += '(?:'; braces++; }
    else if (c === '}' && braces > 0) { re += ')'; braces--; }
    else if (c === ',' && braces > 0) re += '|';
    else re += escapeRe(c);
    i++;
  }
  while (braces-- > 0) re += ')';
  return new RegExp(`^${re}$`);
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

export interface CompiledGlob {
  /** Absolute directory below which matches can live. */
  base: string;
  segments: Array<RegExp | '**'>;
  /** The pattern had no wildcard: `base` is the one file. */
  literal: boolean;
}

export function compileGlob(pattern: string, env: Env = process.env, cwd = process.cwd()): CompiledGlob {
  const expanded = expandVars(pattern, env);
  const abs = isAbsolute(expanded) ? expanded : resolve(cwd, expanded);
  const parts = abs.split(/[\\/]+/);
  const fixed: string[] = [];
  let i = 0;
  for (; i < parts.length; i++) {
    if (MAGIC.test(parts[i])) break;
    fixed.push(parts[i]);
  }
  const base = fixed.join(sep) || sep;
  if (i === parts.length) return { base: resolve(base), segments: [], literal: true };
  const segments = parts.slice(i).filter((s) => s !== '').map((s) => (s === '**' ? ('**' as const) : segmentRegex(s)));
  return { base: resolve(base), segments, literal: false };
}

/** Positions reachable without consuming a name (`**` may match zero segments). */
function closure(segs: CompiledGlob['segments'], states: Iterable<number>): number[] {
  const out = new Set<number>();
  for (let s of states) {
    out.add(s);
    while (s < segs.length && segs[s] === '**') out.add(++s);
  }
  return [...out];
}

/** NFA step: the segment positions reachable after matching `name`. */
function advance(segs: CompiledGlob['segments'], states: number[], name: string): number[] {
  const next = new Set<number>();
  for (const s of closure(segs, states)) {
    const seg = segs[s];
    if (seg === undefined) continue;
    if (seg === '**') next.add(s);
    else if (seg.test(name)) next.add(s + 1);
  }
  return [...next];
}

function accepts(segs: CompiledGlob['segments'], states: number[]): boolean {
  return closure(segs, states).includes(segs.length);
}

export function globMatches(g: CompiledGlob, file: string): boolean {
  const abs = resolve(file);
  if (g.literal) return abs === g.base;
  const rel = abs.startsWith(g.base === sep ? sep : g.base + sep) ? abs.slice(g.base === sep ? 1 : g.base.length + 1) : null;
  if (rel === null) return false;
  let states = [0];
  for (const name of rel.split(sep)) {
    states = advance(g.segments, states, name);
    if (!states.length) return false;
  }
  return accepts(g.segments, states);
}

interface ExpandOptions { maxDepth?: number; maxFiles?: number }

/** Files (not directories) matching the glob. Unreadable directories are skipped. */
export async function expandGlob(g: CompiledGlob, opts: ExpandOptions = {}): Promise<string[]> {
  const maxDepth = opts.maxDepth ?? 24;
  const maxFiles = opts.maxFiles ?? 100_000;
  const out: string[] = [];
  if (g.literal) {
    try {
      const { stat } = await import('node:fs/promises');
      if ((await stat(g.base)).isFile()) out.push(g.base);
    } catch { /* not there yet */ }
    return out;
  }
  const walk = async (dir: string, states: number[], depth: number): Promise<void> => {
    if (depth > maxDepth || out.length >= maxFiles) return;
    let entries;
    try { entries = await readdir(dir, { withFileTypes: true }); } catch { return; }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const next = advance(g.segments, states, e.name);
      if (!next.length) continue;
      const full = join(dir, e.name);
      if (e.isDirectory()) await walk(full, next, depth + 1);
      else if ((e.isFile() || e.isSymbolicLink()) && accepts(g.segments, next)) out.push(full);
      if (out.length >= maxFiles) return;
    }
  };
  await walk(g.base, [0], 0);
  return out;
}
