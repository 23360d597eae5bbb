/**
 * The host install modules, found by folder: src/hosts/<id>/<id>-install.ts exports one
 * `HostModule` for its host. Only the commands that plan or check hosts load them (the pattern
 * below makes each a chunk of its own; the hook never imports this file).
 */
import { HOST_IDS, type HostId } from '../../shared/hosts.js';
import type { HostModule } from './types.js';

function isModuleOf(id: HostId, v: unknown): v is HostModule {
  const m = v as HostModule | undefined;
  return !!m && typeof m === 'object' && m.id === id && typeof m.detect === 'function' && typeof m.plan === 'function';
}

const cache = new Map<HostId, Promise<HostModule>>();

async function load(id: HostId): Promise<HostModule> {
  const mod = (await import(`../../hosts/${id}/${id}-install.ts`)) as Record<string, unknown>;
  const found = Object.values(mod).filter((v) => isModuleOf(id, v));
  if (found.length !== 1) throw new Error(`src/hosts/${id}/${id}-install.ts must export one host module for ${id} (found ${found.length})`);
  return found[0] as HostModule;
}

/** The install module of one host. */
export function loadHostModule(id: HostId): Promise<HostModule> {
  let m = cache.get(id);
  if (!m) cache.set(id, (m = load(id)));
  return m;
}

/** Every host's install module, in HOST_IDS order. */
export function loadHostModules(): Promise<HostModule[]> {
  return Promise.all(HOST_IDS.map(loadHostModule));
}
