/**
 * Filter tags: host, type, project and file are written as opaque words into a `tags` column of
 * each FTS table, so a filtered search is one FTS5 query (doclist intersections) instead of a
 * table lookup for every word match. Words are `z` + a letter + alphanumerics, which the unicode61
 * tokenizer keeps whole; user words are confined to the other columns, so they never meet these.
 */

const MAX_SUFFIXES = 12;
const hashCache = new Map<string, string>();

/** A 64-bit-ish non-cryptographic hash in base 36 (collisions only widen a filter, never leak). */
function hash(text: string): string {
  const hit = hashCache.get(text);
  if (hit) return hit;
  let h1 = 0x811c9dc5 ^ text.length;
  let h2 = 0x6a09e667;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 0x85ebca6b);
  h2 = Math.imul(h2 ^ (h2 >>> 13), 0xc2b2ae35);
  const out = (h1 >>> 0).toString(36) + 'x' + (h2 >>> 0).toString(36);
  if (hashCache.size > 4096) hashCache.clear();
  hashCache.set(text, out);
  return out;
}

export const hostTag = (host: string): string => `zh${host.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
export const typeTag = (type: string): string => `zt${type.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
export const projectTag = (project: string): string => `zp${hash(project)}`;
export const fileTag = (suffix: string): string => `zf${hash(suffix)}`;

function segments(path: string): string[] {
  return path.replace(/\\/g, '/').split('/').filter((s) => s && s !== '.');
}

/** Every trailing part of a stored path: `src/a/b.ts` -> `src/a/b.ts`, `a/b.ts`, `b.ts`. */
function storedFileSuffixes(path: string): string[] {
  const segs = segments(path);
  const out: string[] = [];
  for (let i = segs.length - 1; i >= 0 && out.length < MAX_SUFFIXES; i--) out.push(segs.slice(i).join('/'));
  return out;
}

/**
 * The suffixes a file filter accepts. A relative filter must match a stored path's tail;
 * an absolute one also matches a path stored relative to some root (two segments at least,
 * so `/x/y/index.ts` does not match every `index.ts`).
 */
export function queryFileSuffixes(file: string): string[] {
  const segs = segments(file);
  if (!segs.length) return [];
  if (!/^([/\\]|[A-Za-z]:[/\\])/.test(file.trim())) return [segs.join('/')];
  const out: string[] = [];
  for (let i = 0; i < segs.length && out.length < MAX_SUFFIXES; i++) {
    if (segs.length - i >= 2 || segs.length === 1) out.push(segs.slice(i).join('/'));
  }
  return out;
}

export function observationTags(host: string, type: string, project: string, files: readonly string[]): string {
  const tags = new Set([hostTag(host), typeTag(type), projectTag(project)]);
  for (const f of files) for (const s of storedFileSuffixes(f)) tags.add(fileTag(s));
  return [...tags].join(' ');
}

export function rowTags(host: string, project: string): string {
  return `${hostTag(host)} ${projectTag(project)}`;
}
