/** Renders TOML keys and inline values. Strings are always basic strings, so apostrophes and backslashes are safe. */
import type { KeyPath, TomlData } from './types.js';

const ESCAPES: Record<string, string> = { '\\': '\\\\', '"': '\\"', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\f': '\\f', '\r': '\\r' };

function tomlString(s: string): string {
  return `"${s.replace(/[\\"\u0000-\u001f\u007f]/g, (ch) => ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)}"`;
}

export function tomlKey(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k);
}

export function tomlKeyPath(path: KeyPath): string {
  return path.map(tomlKey).join('.');
}

export function tomlValue(v: TomlData): string {
  if (typeof v === 'string') return tomlString(v);
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') {
    if (Number.isNaN(v)) return 'nan';
    if (!Number.isFinite(v)) return v > 0 ? 'inf' : '-inf';
    return String(v);
  }
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(', ')}]`;
  if (typeof v === 'object' && v !== null) {
    const entries = Object.entries(v as Record<string, TomlData>);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, x]) => `${tomlKey(k)} = ${tomlValue(x)}`).join(', ')} }`;
  }
  throw new TypeError(`TOML has no representation for ${v === null ? 'null' : typeof v}`);
}

/** `key = value` lines for a table body (nested tables are written inline, so the table is one block). */
export function tomlBody(value: Record<string, TomlData>): string[] {
  return Object.entries(value).map(([k, v]) => `${tomlKey(k)} = ${tomlValue(v)}`);
}
