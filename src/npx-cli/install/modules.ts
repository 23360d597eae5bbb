/** The host modules, in the order of HOST_IDS (the registry is loaded lazily: `--help` does not need it). */
import { HOST_IDS } from '../../shared/hosts.js';
import type { HostModule } from '../hosts/types.js';

function isModuleList(v: unknown): v is HostModule[] {
  return Array.isArray(v) && v.length > 0 && v.every((m) => m && typeof m === 'object' && 'id' in m && typeof (m as HostModule).plan === 'function');
}

export async function loadHostModules(): Promise<HostModule[]> {
  const mod = (await import('../hosts/registry.js')) as Record<string, unknown>;
  const list = Object.values(mod).find(isModuleList);
  if (!list) throw new Error('the host registry exports no list of host modules');
  return sortModules(list);
}

export function sortModules(list: readonly HostModule[]): HostModule[] {
  return [...list].sort((a, b) => HOST_IDS.indexOf(a.id) - HOST_IDS.indexOf(b.id));
}
