/** Bounded text helpers: every string the observer writes has a ceiling. */
import { posix, win32 } from 'node:path';
import { clip, cut } from '../shared/text.js';

export { clip, cut };

export const LIMITS = {
  title: 120,
  subtitle: 200,
  narrative: 2000,
  facts: 10,
  fact: 200,
  files: 50,
  excerpt: 600,
} as const;

const ANSI_RE = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g;

function stripAnsi(s: string): string {
  return s.includes('\x1b') ? s.replace(ANSI_RE, '') : s;
}


/** Head and tail of a long output, with the size of the gap: the end of a log is often what matters. */
export function excerpt(text: string, max: number = LIMITS.excerpt): string {
  const plain = stripAnsi(text);
  const s = (plain.includes('\r') ? plain.replace(/\r\n?/g, '\n') : plain).trim();
  if (s.length <= max) return s;
  // Room for the marker, sized for the largest count it can show.
  const room = Math.max(0, max - `\n…[${s.length} chars omitted]…\n`.length);
  let head = s.slice(0, Math.ceil(room * 0.4));
  let tail = s.slice(s.length - (room - head.length));
  // Cut at line breaks when one is near, so the excerpt shows whole lines.
  const h = head.lastIndexOf('\n');
  if (h > head.length / 2) head = head.slice(0, h);
  const t = tail.indexOf('\n');
  if (t >= 0 && t < tail.length / 2) tail = tail.slice(t + 1);
  return `${head}\n…[${s.length - head.length - tail.length} chars omitted]…\n${tail}`;
}

export function asString(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

export function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+(?:\.\d+)?$/.test(v.trim())) return Number(v);
  return undefined;
}

export function asRecord(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** The first string among the named keys. */
export function pickString(o: Record<string, unknown> | undefined, ...keys: string[]): string | undefined {
  if (!o) return undefined;
  for (const k of keys) {
    const v = o[k];
    if (typeof v === 'string' && v !== '') return v;
  }
  return undefined;
}

export function pickNumber(o: Record<string, unknown> | undefined, ...keys: string[]): number | undefined {
  if (!o) return undefined;
  for (const k of keys) {
    const v = asNumber(o[k]);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** Tool input as an object: some hosts send arguments as a JSON string. */
export function inputRecord(v: unknown): Record<string, unknown> {
  const r = asRecord(v);
  if (r) return r;
  if (typeof v === 'string' && v.trimStart().startsWith('{')) {
    try {
      return asRecord(JSON.parse(v)) ?? {};
    } catch {
      return {};
    }
  }
  return {};
}

/** Compact JSON of tool arguments, bounded. */
export function compactJson(v: unknown, max: number): string {
  if (v === undefined) return '';
  let s: string;
  try {
    s = typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
  } catch {
    s = String(v);
  }
  return cut(s, max);
}

/** Paths inside cwd become relative to it; others stay absolute. */
export function relPath(p: string, cwd: string | undefined): string {
  const path = p.trim();
  if (!path) return path;
  const win = /^[A-Za-z]:[\\/]/.test(cwd ?? '') || /^[A-Za-z]:[\\/]/.test(path);
  const lib = win ? win32 : posix;
  if (path.startsWith('file://')) return relPath(decodeFileUrl(path), cwd);
  if (!lib.isAbsolute(path)) return path.replace(/^\.[\\/]/, '');
  if (!cwd || !lib.isAbsolute(cwd)) return path;
  const rel = lib.relative(cwd, path);
  if (rel === '') return '.';
  if (rel.startsWith('..') || lib.isAbsolute(rel)) return path;
  return rel;
}

function decodeFileUrl(u: string): string {
  try {
    return decodeURIComponent(u.replace(/^file:\/\//, ''));
  } catch {
    return u.replace(/^file:\/\//, '');
  }
}

/** Deduplicated, non-empty, bounded. */
export function uniqueBounded(items: Iterable<string>, max: number = LIMITS.files): string[] {
  const seen = new Set<string>();
  for (const it of items) {
    if (!it || seen.has(it)) continue;
    seen.add(it);
    if (seen.size >= max) break;
  }
  return [...seen];
}

/** "a, b, c (+12 more)" for narratives. */
export function listInline(items: readonly string[], show: number, total = items.length): string {
  const head = items.slice(0, show).join(', ');
  return total > show ? `${head} (+${total - show} more)` : head;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
