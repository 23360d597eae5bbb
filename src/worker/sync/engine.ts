/**
 * One round of sync between the local store and the shared database: push what this device
 * captured since the push cursor, then pull what other devices pushed since the pull cursor.
 * Both cursors live in the local store; the pull cursor is written in the same transaction as
 * the rows it covers, the push cursor after the server committed (a repeat is a no-op there).
 */
import { randomUUID } from 'node:crypto';
import type { SqliteStore } from '../../store/sqlite-store.js';
import { cursorText, parseCursor, START_CURSOR, type Remote } from './remote.js';

export type SyncStore = Pick<SqliteStore, 'syncOutbox' | 'syncPending' | 'applyReplica' | 'getSyncState' | 'setSyncState' | 'syncDevices'
  | 'syncTombstonesOut' | 'markTombstonesSynced' | 'applyPulledTombstones' | 'syncPinsOut' | 'markPinsSynced' | 'applyPulledPins'>;

export const PUSH_BATCH = 2000;
export const PULL_BATCH = 2000;

export interface PushTotals {
  pushed: number;
  stored: number;
  /** Tombstones pushed, and the events of yours they removed from the server. */
  tombstones?: number;
  removed?: number;
  /** Pin versions pushed. */
  pins?: number;
}

export interface PullTotals {
  pulled: number;
  stored: number;
  duplicates: number;
  skipped: number;
  /** Stopped at the deadline with more to take. */
  partial: boolean;
  /** Tombstones of other devices applied here. */
  tombstones?: number;
  /** Pins and unpins of other devices that won here. */
  pins?: number;
}

/** This store's device id, made on first use: the rows it pushes carry it. */
export function deviceId(store: SyncStore): string {
  const id = store.getSyncState().device_id;
  if (id) return id;
  const made = randomUUID();
  store.setSyncState({ device_id: made });
  return made;
}

/** Forgets go first: the events they name are then refused by the server (remote.ts push). */
async function pushTombstones(store: SyncStore, remote: Remote, device: string, totals: PushTotals): Promise<void> {
  for (;;) {
    const rows = store.syncTombstonesOut(PUSH_BATCH);
    if (!rows.length) return;
    totals.removed = (totals.removed ?? 0) + await remote.pushTombstones(device, rows);
    totals.tombstones = (totals.tombstones ?? 0) + rows.length;
    store.markTombstonesSynced(rows.map((r) => r.key));
  }
}

async function pullTombstones(store: SyncStore, remote: Remote, device: string, totals: PullTotals): Promise<void> {
  for (;;) {
    const page = await remote.pullTombstones(device, parseCursor(store.getSyncState().tomb_cursor), PULL_BATCH);
    totals.tombstones = (totals.tombstones ?? 0) + store.applyPulledTombstones(page.rows, { tomb_cursor: cursorText(page.cursor) });
    if (page.done) return;
  }
}

async function pushPins(store: SyncStore, remote: Remote, device: string, totals: PushTotals): Promise<void> {
  for (;;) {
    const rows = store.syncPinsOut(PUSH_BATCH);
    if (!rows.length) return;
    await remote.pushPins(device, rows);
    totals.pins = (totals.pins ?? 0) + rows.length;
    store.markPinsSynced(rows);
    if (rows.length < PUSH_BATCH) return;
  }
}

async function pullPins(store: SyncStore, remote: Remote, device: string, totals: PullTotals): Promise<void> {
  for (;;) {
    const page = await remote.pullPins(device, parseCursor(store.getSyncState().pin_cursor), PULL_BATCH);
    totals.pins = (totals.pins ?? 0) + store.applyPulledPins(page.rows, { pin_cursor: cursorText(page.cursor) });
    if (page.done) return;
  }
}

export async function pushAll(store: SyncStore, remote: Remote, device: string): Promise<PushTotals> {
  const totals: PushTotals = { pushed: 0, stored: 0 };
  await pushTombstones(store, remote, device, totals);
  for (;;) {
    const after = Number(store.getSyncState().push_after ?? 0);
    const batch = store.syncOutbox(after, PUSH_BATCH);
    if (!batch.length) break;
    const r = await remote.push(device, batch);
    totals.pushed += r.sent;
    totals.stored += r.stored;
    store.setSyncState({ push_after: String(batch[batch.length - 1].id), last_push_at: new Date().toISOString() });
    if (batch.length < PUSH_BATCH) break;
  }
  await pushPins(store, remote, device, totals);
  return totals;
}

function add(totals: PullTotals, pulled: number, r: { stored: number; duplicates: number; skipped: number }): void {
  totals.pulled += pulled;
  totals.stored += r.stored;
  totals.duplicates += r.duplicates;
  totals.skipped += r.skipped;
}

/**
 * A project a teammate shares from now on has a history the pull cursor already passed while it
 * was hidden from this member: take it once, then remember the share as seen. A share withdrawn
 * is forgotten, so sharing again brings what was written in between.
 */
async function takeNewShares(store: SyncStore, remote: Remote, device: string, totals: PullTotals): Promise<void> {
  const state = store.getSyncState();
  const seen = new Set<string>(JSON.parse(state.shares_seen ?? '[]') as string[]);
  const visible = (await remote.sharedProjects()).filter((s) => s.member !== remote.member);
  const current = [...new Set(visible.map((s) => `${s.member}\n${s.project}`))];
  const upto = parseCursor(state.pull_cursor);
  if (upto !== START_CURSOR) {
    for (const key of current.filter((k) => !seen.has(k))) {
      const [member, project] = key.split('\n');
      for (let after = START_CURSOR; ;) {
        const page = await remote.pullShared(device, member, project, upto, after, PULL_BATCH);
        add(totals, page.events.length, store.applyReplica(page.events, page.devices, {}));
        after = page.cursor;
        if (page.done) break;
      }
    }
  }
  if (current.length !== seen.size || current.some((k) => !seen.has(k))) store.setSyncState({ shares_seen: JSON.stringify(current) });
}

/**
 * `batch` bounds how long one page holds the store (deriving rows is synchronous): the worker
 * takes small pages so that a hook's request never waits behind a big one.
 */
export async function pullAll(
  store: SyncStore, remote: Remote, device: string, deadline = Infinity, batch = PULL_BATCH, restMs = 0,
): Promise<PullTotals> {
  const totals: PullTotals = { pulled: 0, stored: 0, duplicates: 0, skipped: 0, partial: false };
  // Tombstones first: the events they name are then refused as they are pulled.
  await pullTombstones(store, remote, device, totals);
  await takeNewShares(store, remote, device, totals);
  for (;;) {
    const cursor = parseCursor(store.getSyncState().pull_cursor);
    const page = await remote.pull(device, cursor, batch);
    const r = store.applyReplica(page.events, page.devices, {
      pull_cursor: cursorText(page.cursor), last_pull_at: new Date().toISOString(),
    });
    add(totals, page.events.length, r);
    if (page.done) break;
    if (Date.now() >= deadline) {
      totals.partial = true;
      break;
    }
    // A catch-up in the worker leaves the machine room for the hooks between pages.
    if (restMs) await new Promise((r) => setTimeout(r, restMs));
  }
  // After the events: a pin names an observation that may have just arrived.
  if (!totals.partial) await pullPins(store, remote, device, totals);
  return totals;
}

export function isSyncStore(store: unknown): store is SyncStore {
  const s = store as Partial<Record<keyof SyncStore, unknown>>;
  return typeof s?.applyReplica === 'function' && typeof s.syncOutbox === 'function';
}
