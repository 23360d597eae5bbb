/**
 * What every check reads, gathered once per run: the data directory, the install manifest (the
 * same source of truth install and uninstall use), the worker's proven status, a read-only store.
 */
import { existsSync } from 'node:fs';
import { isHostId, type HostId } from '../../shared/hosts.js';
import { dataDir, dataPaths, homeDir, type DataPaths, type Env } from '../../shared/paths.js';
import type { StatusReport } from '../../worker/lifecycle/status.js';
import type { MemoryStore } from '../../store/types.js';
import { loadManifest, type Manifest } from '../engine/index.js';
import { baseContext, type BaseContext } from '../install/context.js';
import type { InstalledHostMeta } from '../install/meta.js';
import { errorText, once } from './timebox.js';

export interface DoctorContext {
  env: Env;
  paths: DataPaths;
  base: BaseContext;
  /** The manifest, or why it could not be read. */
  manifest: Manifest | undefined;
  manifestError?: { message: string; fix: string };
  /** Hosts to check: recorded in the manifest (and named by --ide, when given). */
  hosts: HostId[];
  /** --ide hosts the manifest does not know. */
  notInstalled: HostId[];
  meta(host: HostId): InstalledHostMeta | undefined;
  worker(): Promise<StatusReport>;
  /** A read-only store, or why there is none (better-sqlite3, missing or damaged database). */
  store(): Promise<{ store?: MemoryStore; error?: string }>;
  probeTimeoutMs: number;
  /** A directory that exists, to run commands in (the data directory once there is one). */
  workDir: string;
  /** Nothing was ever installed here (no manifest hosts): the first fix is install. */
  fresh: boolean;
  /** Closes what the run opened. */
  close(): void;
}

export function createContext(env: Env, hosts: HostId[] | undefined, probeTimeoutMs: number): DoctorContext {
  const paths = dataPaths(dataDir(env));
  let manifest: Manifest | undefined;
  let manifestError: DoctorContext['manifestError'];
  try {
    manifest = loadManifest(paths.manifest);
  } catch (e) {
    manifestError = { message: errorText(e), fix: (e as { fix?: string }).fix ?? `Restore ${paths.manifest} from a backup.` };
  }
  const recorded = Object.keys(manifest?.hosts ?? {}).filter(isHostId);
  const wanted = hosts ?? recorded;
  let opened: MemoryStore | undefined;
  const store = once(async () => {
    if (!existsSync(paths.db)) return { error: `${paths.db} does not exist yet` };
    try {
      const { openStore } = await import('../../store/sqlite-store.js');
      opened = openStore(paths.db, { readonly: true, busyTimeoutMs: 1000 });
      return { store: opened };
    } catch (e) {
      return { error: errorText(e) };
    }
  });
  const worker = once(async () => {
    const { workerStatus } = await import('../../worker/lifecycle/status.js');
    return workerStatus(paths, 1000);
  });
  return {
    env, paths, base: baseContext(env), manifest, manifestError,
    hosts: wanted.filter((h) => recorded.includes(h)),
    notInstalled: wanted.filter((h) => !recorded.includes(h)),
    meta: (h) => manifest?.hosts[h]?.meta as InstalledHostMeta | undefined,
    worker, store, probeTimeoutMs,
    workDir: [paths.root, homeDir(env)].find((d) => existsSync(d)) ?? '/',
    fresh: !manifestError && recorded.length === 0,
    close() {
      try {
        opened?.close();
      } catch {
        // Read-only: nothing to lose.
      }
    },
  };
}
