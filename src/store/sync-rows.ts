/**
 * What sync reads from and writes to the local store: the outbox (events captured here, in the
 * order they were stored), the devices rows came from, and sync's own state (cursors, errors).
 */
import { OBS_IDENTITY_FROM, OBS_IDENTITY_SQL, observationKey, type ObservationIdentity } from './memory-keys.js';
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

export interface PinVersion {
  obsKey: string;
  project: string;
  pinned: boolean;
  hlc: string;
}

export function unsyncedPins(stmts: StatementCache, limit: number): PinVersion[] {
  return (stmts.get('SELECT obs_key AS obsKey, project, pinned, hlc FROM pin_versions WHERE synced = 0 ORDER BY obs_key LIMIT ?')
    .all(limit) as (Omit<PinVersion, 'pinned'> & { pinned: number })[]).map((p) => ({ ...p, pinned: p.pinned === 1 }));
}

/** Marks pushed versions, unless a newer local edit replaced them meanwhile. */
export function markPinsSynced(stmts: StatementCache, rows: readonly PinVersion[]): void {
  const mark = stmts.get('UPDATE pin_versions SET synced = 1 WHERE obs_key = ? AND hlc = ?');
  for (const r of rows) mark.run(r.obsKey, r.hlc);
}

/** The observation an observation key names here, if it is here (memory-keys.ts observationKey). */
function observationByKey(stmts: StatementCache, key: string): number | undefined {
  if (key.startsWith('ev:')) {
    return (stmts.get('SELECT o.id FROM observations o JOIN events e ON e.id = o.event_id WHERE e.idem_key = ?')
      .get(key.slice(3)) as { id: number } | undefined)?.id;
  }
  const m = /^([^|]+)\|([^|]+)\|t:(.+)$/s.exec(key);
  if (m) {
    return (stmts.get(`SELECT o.id FROM observations o JOIN sessions s ON s.id = o.session_id
      WHERE s.host = ? AND s.host_session_id = ? AND o.tool_use_id = ?`).get(m[1], m[2], m[3]) as { id: number } | undefined)?.id;
  }
  const n = /^([^|]+)\|([^|]+)\|m:/.exec(key);
  if (!n) return undefined;
  const rows = stmts.get(`SELECT o.id, ${OBS_IDENTITY_SQL} FROM ${OBS_IDENTITY_FROM} WHERE s.host = ? AND s.host_session_id = ?`)
    .all(n[1], n[2]) as (ObservationIdentity & { id: number })[];
  return rows.find((r) => observationKey(r) === key)?.id;
}

/**
 * Pin versions from other devices: each replaces the local one when its stamp is greater (last
 * writer wins by hybrid logical clock), and pins or unpins the observation here. Must run inside
 * a transaction. Returns how many changed something.
 */
export function applyPinVersions(stmts: StatementCache, rows: readonly PinVersion[], now: string): number {
  stmts.get(`INSERT INTO sync_state (key, value) VALUES ('applying_pins', '1') ON CONFLICT (key) DO NOTHING`).run();
  let n = 0;
  for (const r of rows) {
    const local = stmts.get('SELECT hlc FROM pin_versions WHERE obs_key = ?').get(r.obsKey) as { hlc: string } | undefined;
    if (local && local.hlc >= r.hlc) continue;
    stmts.get(`INSERT INTO pin_versions (obs_key, project, pinned, hlc, synced) VALUES (?, ?, ?, ?, 1)
      ON CONFLICT (obs_key) DO UPDATE SET project = excluded.project, pinned = excluded.pinned, hlc = excluded.hlc, synced = 1`)
      .run(r.obsKey, r.project, r.pinned ? 1 : 0, r.hlc);
    if (!r.pinned) {
      stmts.get('UPDATE pins SET unpinned_at = ? WHERE obs_key = ? AND unpinned_at IS NULL').run(now, r.obsKey);
    } else {
      const id = observationByKey(stmts, r.obsKey);
      if (id !== undefined) {
        stmts.get(`INSERT INTO pins (observation_id, obs_key, project, pinned_at) VALUES (?, ?, ?, ?)
          ON CONFLICT (observation_id) DO UPDATE SET pinned_at = excluded.pinned_at, unpinned_at = NULL WHERE unpinned_at IS NOT NULL`)
          .run(id, r.obsKey, r.project, now);
      }
    }
    n++;
  }
  stmts.get(`DELETE FROM sync_state WHERE key = 'applying_pins'`).run();
  return n;
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
