/**
 * What sync reads from and writes to the local store: the outbox (events captured here, in the
 * order they were stored), the devices rows came from, and sync's own state (cursors, errors).
 */
import type { StatementCache } from './statements.js';
import type { ReplicaEvent } from './types.js';

/** A local event ready to push: its row id is the push cursor. */
export interface OutboxEvent extends Omit<ReplicaEvent, 'origin'> {
  id: number;
}

export interface SyncDevice {
  deviceId: string;
  name: string;
  member: string;
}

/** Events captured on this device after `afterId` (probes never leave it). */
export function readOutbox(stmts: StatementCache, afterId: number, limit: number): OutboxEvent[] {
  return stmts.get(`SELECT e.id, e.idem_key AS idemKey, e.host, e.kind, e.payload, e.dropped, e.at, coalesce(s.project, '') AS project
    FROM events e LEFT JOIN sessions s ON s.id = e.session_id
    WHERE e.id > ? AND e.origin IS NULL AND e.probe = 0 ORDER BY e.id LIMIT ?`).all(afterId, limit) as OutboxEvent[];
}

export interface SyncTombstone {
  key: string;
  project: string | null;
  createdAt: string;
}

/** Tombstones written here (forget) and not on the sync database yet. */
export function unsyncedTombstones(stmts: StatementCache, limit: number): SyncTombstone[] {
  return stmts.get(`SELECT key, project, created_at AS createdAt FROM tombstones WHERE synced = 0 ORDER BY key LIMIT ?`).all(limit) as SyncTombstone[];
}

export function markTombstonesSynced(stmts: StatementCache, keys: readonly string[]): void {
  const mark = stmts.get('UPDATE tombstones SET synced = 1 WHERE key = ?');
  for (const k of keys) mark.run(k);
}

export function countOutbox(stmts: StatementCache, afterId: number): number {
  return (stmts.get('SELECT count(*) AS n FROM events WHERE id > ? AND origin IS NULL AND probe = 0').get(afterId) as { n: number }).n;
}

export function rememberDevices(stmts: StatementCache, devices: readonly SyncDevice[]): void {
  const upsert = stmts.get(`INSERT INTO sync_devices (device_id, name, member) VALUES (?, ?, ?)
    ON CONFLICT (device_id) DO UPDATE SET name = excluded.name, member = excluded.member`);
  for (const d of devices) upsert.run(d.deviceId, d.name, d.member);
}

export function readSyncState(stmts: StatementCache): Record<string, string> {
  const rows = stmts.get('SELECT key, value FROM sync_state').all() as { key: string; value: string }[];
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}

/** Sets (a string) or removes (null) each key. */
export function writeSyncState(stmts: StatementCache, patch: Record<string, string | null>): void {
  const set = stmts.get('INSERT INTO sync_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  const del = stmts.get('DELETE FROM sync_state WHERE key = ?');
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) del.run(k);
    else set.run(k, v);
  }
}

/** How many local rows came from each device (status). */
export function pulledCounts(stmts: StatementCache): { deviceId: string; name: string; member: string; events: number }[] {
  return stmts.get(`SELECT d.device_id AS deviceId, d.name, d.member, count(e.id) AS events
    FROM sync_devices d LEFT JOIN events e ON e.origin = d.device_id GROUP BY d.device_id ORDER BY d.name`).all() as
    { deviceId: string; name: string; member: string; events: number }[];
}
