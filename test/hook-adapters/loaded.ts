/** Every hook adapter, loaded up front, so tests can pick one synchronously. */
import * as adapters from '../../src/hook/adapters/index.js';
import { HOST_IDS, type HookHostId } from '../../src/shared/hosts.js';
import type { HookAdapter } from '../../src/hook/types.js';

export const HOOK_DIALECT_HOSTS = adapters.HOOK_DIALECT_HOSTS;

const ALL = new Map<HookHostId, HookAdapter>();
for (const h of [...HOST_IDS, 'raw' as const]) ALL.set(h, await adapters.getAdapter(h));

export function getAdapter(host: HookHostId): HookAdapter {
  return ALL.get(host)!;
}
