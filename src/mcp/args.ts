/** Turns the friendly forms tools accept (host aliases, relative times, "." for this project) into store queries. */
import { resolveHostId, HOST_IDS, type HostId } from '../shared/hosts.js';

/** A mistake in the caller's arguments; the message says how to fix it. */
export class ToolInputError extends Error {
  override name = 'ToolInputError';
}

export function resolveHostArg(value: string | undefined): HostId | undefined {
  if (value === undefined || value === '') return undefined;
  const id = resolveHostId(value);
  if (!id) throw new ToolInputError(`Unknown host "${value}". Use one of: ${HOST_IDS.join(', ')}.`);
  return id;
}

const RELATIVE = /^(\d{1,6})\s*(m|min|h|d|w)$/i;
const UNIT_MS: Record<string, number> = { m: 60_000, min: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * "7d", "12h", "30m", "2w" count back from now; a date (2025-01-31) is kept as a whole day for the
 * store; a date-time is normalized to UTC ISO so it compares correctly with stored times.
 */
export function resolveTimeArg(name: string, value: string | undefined, now = Date.now()): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  const rel = RELATIVE.exec(v);
  if (rel) return new Date(now - Number(rel[1]) * UNIT_MS[rel[2].toLowerCase()]).toISOString();
  if (DATE_ONLY.test(v) && !Number.isNaN(Date.parse(v))) return v;
  if (/^\d{4}-\d{2}-\d{2}[T ]/.test(v)) {
    const t = Date.parse(v.replace(' ', 'T'));
    if (!Number.isNaN(t)) return new Date(t).toISOString();
  }
  throw new ToolInputError(`"${name}" must be an ISO date or time (2025-01-31, 2025-01-31T14:00:00Z) or a relative age (30m, 12h, 7d, 2w); got "${value}".`);
}

const ALL_PROJECTS = ['*', 'all'];
export const CURRENT_PROJECT = ['.', 'current'];

/**
 * `undefined` means every project. `fallback` decides what an omitted project means for this tool.
 */
export function resolveProjectArg(value: string | undefined, current: () => string, fallback: 'all' | 'current'): string | undefined {
  const v = value?.trim();
  if (!v) return fallback === 'all' ? undefined : current();
  if (ALL_PROJECTS.includes(v.toLowerCase())) return undefined;
  if (CURRENT_PROJECT.includes(v.toLowerCase())) return current();
  return v;
}

/** Maps the MCP client's self-reported name (e.g. "claude-code", "codex-mcp-client") to a host id. */
export function hostFromClientName(name: string | undefined): HostId | undefined {
  if (!name) return undefined;
  const n = name.trim().toLowerCase();
  const stripped = n.replace(/[-_ ](mcp[-_ ])?client$/, '').replace(/[-_ ]vscode$/, '');
  return resolveHostId(n) ?? resolveHostId(stripped);
}
