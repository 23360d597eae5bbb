/** Reading host files as the host would (by format), and the values our recorded changes wrote. */
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { Change } from '../engine/index.js';
import { readJsonc, readToml, readYaml } from '../hosts/common/read.js';

/** The parsed document, or undefined (missing, unparseable, or not a config format). */
export function parseHostFile(path: string): unknown {
  const ext = extname(path).toLowerCase();
  if (ext === '.json' || ext === '.jsonc') return readJsonc(path);
  if (ext === '.toml') return readToml(path);
  if (ext === '.yaml' || ext === '.yml') return readYaml(path);
  return undefined;
}

function tryParse(text: string, file: string): unknown {
  try {
    const ext = extname(file).toLowerCase();
    if (ext === '.json') return JSON.parse(text) as unknown;
    if (ext === '.yaml' || ext === '.yml') return parseYaml(text) as unknown;
  } catch {
    // Not data: nothing to look into.
  }
  return undefined;
}

/** What each recorded change put in its file (parsed when it is a whole config file or a YAML block). */
export function recordedValues(changes: readonly Change[]): unknown[] {
  return changes.map((c) => {
    switch (c.kind) {
      case 'json-array-upsert':
      case 'toml-array-entry':
        return c.entry;
      case 'file':
        // The manifest may keep only a whole file's digest: then read what is there now.
        return typeof c.content === 'string' ? tryParse(c.content, c.file) : parseHostFile(c.file);
      case 'text-block':
        return tryParse(c.content, c.file) ?? c.content;
      default:
        return c.value;
    }
  });
}
