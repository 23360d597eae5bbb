/**
 * The watches an installer writes, built from each shipped schema's `defaultWatch` (the hosts'
 * log locations live in the schema files, not here).
 *
 * Single writer, by default: Codex top-level sessions are captured by Codex's own hooks, so the
 * Codex watch is `subagentOnly` (its schema's default) while those hooks are installed; pass
 * `subagentOnly: false` only when Codex has no hooks and the transcript is its only writer.
 */
import { loadShippedSchemas } from './shipped.js';
import type { TranscriptWatchConfig, WatchConfig } from './types.js';

export interface DefaultWatchOverrides {
  name?: string;
  path?: string;
  startAtEnd?: boolean;
  subagentOnly?: boolean;
}

/** One watch for a shipped schema, marked as managed by `managedBy` (e.g. `installer`). */
export function defaultWatch(schema: string, overrides: DefaultWatchOverrides = {}, managedBy = 'installer'): WatchConfig {
  const s = loadShippedSchemas().schemas[schema];
  if (!s) throw new Error(`no shipped transcript schema "${schema}"`);
  const d = s.defaultWatch;
  const path = overrides.path ?? d?.path;
  if (!path) throw new Error(`schema "${schema}" has no default watch path; give one`);
  return {
    name: overrides.name ?? schema,
    path,
    schema,
    startAtEnd: overrides.startAtEnd ?? d?.startAtEnd ?? true,
    subagentOnly: overrides.subagentOnly ?? d?.subagentOnly ?? false,
    managedBy,
  };
}

/** A whole config with one default watch per named schema. */
export function defaultWatchConfig(schemas: Array<string | [string, DefaultWatchOverrides]>): TranscriptWatchConfig {
  return {
    version: 1,
    watches: schemas.map((s) => (typeof s === 'string' ? defaultWatch(s) : defaultWatch(s[0], s[1]))),
  };
}
