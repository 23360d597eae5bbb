/**
 * The hook dialects, found by folder: a host whose facts say `hooks` has one in
 * src/hosts/<id>/<id>-hooks.ts (one export built with `defineAdapter`); every other host reads the
 * raw format. The pattern below bundles every such file into dist/hook.js, and each is evaluated
 * only when its host's hook runs.
 */
import { HOST_IDS, hostFacts, isHostId, type HookHostId, type HostId } from '../../shared/hosts.js';
import type { HookAdapter } from '../types.js';
import { rawAdapter, rawAdapterFor } from './raw.js';

const loaded = new Map<HookHostId, HookAdapter>([[rawAdapter.host, rawAdapter]]);

function isAdapterOf(host: string, v: unknown): v is HookAdapter {
  const a = v as HookAdapter | undefined;
  return !!a && typeof a === 'object' && a.host === host && typeof a.normalize === 'function' && typeof a.formatOutput === 'function';
}

/** Hosts with a hook dialect of their own (their facts say `hooks`), and the generic `raw`. */
export const HOOK_DIALECT_HOSTS: readonly HookHostId[] = [...HOST_IDS.filter((id) => hostFacts(id).hooks), 'raw'];

/** The dialect exported by src/hosts/<id>/<id>-hooks.ts; throws when the file has none for its host. */
async function loadDialect(id: HostId): Promise<HookAdapter> {
  const mod = (await import(`../../hosts/${id}/${id}-hooks.ts`)) as Record<string, unknown>;
  const found = Object.values(mod).filter((v) => isAdapterOf(id, v));
  if (found.length !== 1) throw new Error(`src/hosts/${id}/${id}-hooks.ts must export one hook dialect for ${id} (found ${found.length})`);
  return found[0] as HookAdapter;
}

/** The adapter for `claude-mem hook <host> …`; hosts without a hook dialect read the raw format. */
export async function getAdapter(host: HookHostId): Promise<HookAdapter> {
  let adapter = loaded.get(host);
  if (!adapter) {
    adapter = isHostId(host) && hostFacts(host).hooks ? await loadDialect(host) : rawAdapterFor(host as HostId);
    loaded.set(host, adapter);
  }
  return adapter;
}
