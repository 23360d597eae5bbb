/**
 * Tolerant readers for plan decisions and doctor checks. They never throw: a missing or broken
 * file reads as `undefined` (the engine itself refuses broken files with line and column).
 */
import { readFileSync } from 'node:fs';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';

export function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** JSON with comments and trailing commas, as most hosts accept it. */
export function readJsonc(path: string): unknown {
  const text = readText(path);
  if (text === undefined) return undefined;
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false });
  return errors.length ? undefined : value;
}

export function readToml(path: string): Record<string, unknown> | undefined {
  const text = readText(path);
  if (text === undefined) return undefined;
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export function readYaml(path: string): unknown {
  const text = readText(path);
  if (text === undefined) return undefined;
  try {
    return parseYaml(text) as unknown;
  } catch {
    return undefined;
  }
}

export function asRecord(v: unknown): Record<string, unknown> | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** Every string anywhere inside `v`. */
export function stringsIn(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) v.forEach((x) => stringsIn(x, out));
  else if (v && typeof v === 'object') Object.values(v).forEach((x) => stringsIn(x, out));
  return out;
}
