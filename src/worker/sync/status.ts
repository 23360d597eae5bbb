/** What `sync status` and doctor report, from the local configuration and the store's sync state. */
import type { DataPaths } from '../../shared/paths.js';
import { readSyncConfig } from './config.js';
import type { SyncStore } from './engine.js';

export interface SyncStatus {
  configured: boolean;
  paused: boolean;
  /** The database, without the password. */
  target: string | null;
  team: string | null;
  device: { id: string | null; name: string | null };
  /** Local events not pushed yet. */
  pending: number;
  /** Where pulling stands on the server (transaction id:sequence). */
  pullCursor: string | null;
  lastPushAt: string | null;
  lastPullAt: string | null;
  lastOkAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
  /** Consecutive failures and when the worker tries again (null when it is not backing off). */
  failures: number;
  retryAt: string | null;
  /** Devices rows were pulled from, and how many events each. */
  devices: { deviceId: string; name: string; member: string; events: number }[];
  configError?: string;
}

export function syncStatus(paths: DataPaths, store: SyncStore | undefined, backoff = { failures: 0, retryAt: null as string | null }): SyncStatus {
  let configError: string | undefined;
  let config: ReturnType<typeof readSyncConfig>;
  try {
    config = readSyncConfig(paths);
  } catch (err) {
    configError = (err as Error).message;
  }
  const state = store?.getSyncState() ?? {};
  return {
    configured: !!config,
    paused: config?.paused ?? false,
    target: config?.target ?? null,
    team: config?.team ?? null,
    device: { id: state.device_id ?? null, name: config?.deviceName ?? null },
    pending: store ? store.syncPending(Number(state.push_after ?? 0)) : 0,
    pullCursor: state.pull_cursor ?? null,
    lastPushAt: state.last_push_at ?? null,
    lastPullAt: state.last_pull_at ?? null,
    lastOkAt: state.last_ok_at ?? null,
    lastError: state.last_error ?? null,
    lastErrorAt: state.last_error_at ?? null,
    failures: backoff.failures,
    retryAt: backoff.retryAt,
    devices: store?.syncDevices() ?? [],
    ...(configError ? { configError } : {}),
  };
}
