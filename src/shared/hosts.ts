/** The hosts claude-mem knows, their public ids and the aliases users may type (from src/hosts/registry.ts). */
import type { HostFacts } from '../hosts/host-facts.js';
import { DEFAULT_MEMORY_HOST, HOST_FACTS } from '../hosts/registry.js';

export { DEFAULT_MEMORY_HOST };

export type HostId = (typeof HOST_FACTS)[number]['id'];

export const HOST_IDS: readonly HostId[] = HOST_FACTS.map((f) => f.id);

/** Hook dialects the `hook` command understands: every host with hooks, plus the generic `raw`. */
export type HookHostId = HostId | 'raw';

export const HOST_ALIASES: Readonly<Record<string, HostId>> = Object.fromEntries(
  HOST_FACTS.flatMap((f) => f.aliases.map((a) => [a, f.id])),
);

export const HOST_LABELS = Object.fromEntries(HOST_FACTS.map((f) => [f.id, f.label])) as Readonly<Record<HostId, string>>;

const BY_ID = new Map<string, HostFacts<HostId>>(HOST_FACTS.map((f) => [f.id, f]));

/** The facts of one host (src/hosts/<id>/<id>-facts.ts). */
export function hostFacts(id: HostId): HostFacts<HostId> {
  return BY_ID.get(id)!;
}

export function isHostId(value: string): value is HostId {
  return BY_ID.has(value);
}

/** Resolves an id or alias (case-insensitive) to a host id, or undefined. */
export function resolveHostId(value: string): HostId | undefined {
  const v = value.trim().toLowerCase();
  if (isHostId(v)) return v;
  return HOST_ALIASES[v];
}

/**
 * Resolves a list of `--ide` values; `all` expands to every host.
 * Throws with the unknown names so the CLI can exit 2 with a clear message.
 */
export function resolveHostList(values: readonly string[]): HostId[] {
  const out = new Set<HostId>();
  const unknown: string[] = [];
  for (const raw of values.flatMap((v) => v.split(','))) {
    if (!raw.trim()) continue;
    if (raw.trim().toLowerCase() === 'all') {
      HOST_IDS.forEach((h) => out.add(h));
      continue;
    }
    const id = resolveHostId(raw);
    if (id) out.add(id);
    else unknown.push(raw);
  }
  if (unknown.length) {
    throw new Error(`Unknown host ${unknown.map((u) => `"${u}"`).join(', ')}. Known hosts: ${HOST_IDS.join(', ')} (or "all").`);
  }
  return [...out];
}
