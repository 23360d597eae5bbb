/** The schemas shipped in templates/transcripts/<name>.json, found from src/ and from dist/ alike. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseJsonText, validateSchema } from './config.js';
import type { TranscriptSchema } from './types.js';

let cachedDir: string | null | undefined;

/** Walks up from this module to the package root that holds templates/transcripts. */
export function shippedSchemaDir(): string | null {
  if (cachedDir !== undefined) return cachedDir;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, 'templates', 'transcripts');
    if (existsSync(candidate)) return (cachedDir = candidate);
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return (cachedDir = null);
}

interface ShippedSchemas {
  schemas: Record<string, TranscriptSchema>;
  /** A shipped file that does not validate is a packaging bug: reported, never used. */
  errors: string[];
}

let cache: ShippedSchemas | undefined;

export function loadShippedSchemas(dir: string | null = shippedSchemaDir()): ShippedSchemas {
  if (cache && dir === shippedSchemaDir()) return cache;
  const out: ShippedSchemas = { schemas: {}, errors: [] };
  if (!dir) return out;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const name = file.slice(0, -'.json'.length);
    const parsed = parseJsonText(readFileSync(join(dir, file), 'utf8'));
    if (!parsed.ok) { out.errors.push(...parsed.errors.map((e) => `templates/transcripts/${file}: ${e}`)); continue; }
    const v = validateSchema(parsed.value);
    if (!v.ok) { out.errors.push(...v.errors.map((e) => `templates/transcripts/${file}: ${e}`)); continue; }
    out.schemas[name] = v.value;
  }
  if (dir === shippedSchemaDir()) cache = out;
  return out;
}
