/**
 * The shared PostgreSQL database, as sync uses it: register a device, push local events (a set
 * union by idempotency key), pull others' events in commit order, share and unshare projects.
 */
import pg from 'pg';
import type { OutboxEvent, PinVersion, SyncDevice, SyncTombstone } from '../../store/sync-rows.js';
import type { ReplicaEvent } from '../../store/types.js';
import { migrateRemote, remoteVersion } from './remote-schema.js';

/** Where the pull stopped: the last row taken, in (transaction id, sequence) order. */
interface PullCursor {
  txid: string;
  seq: string;
}

export const START_CURSOR: PullCursor = { txid: '0', seq: '0' };

export function cursorText(c: PullCursor): string {
  return `${c.txid}:${c.seq}`;
}

export function parseCursor(text: string | undefined): PullCursor {
  const m = /^(\d+):(\d+)$/.exec(text ?? '');
  return m ? { txid: m[1], seq: m[2] } : START_CURSOR;
}

interface PullPage {
  events: ReplicaEvent[];
  devices: SyncDevice[];
  cursor: PullCursor;
  /** Fewer rows than asked: nothing more is ready to be taken now. */
  done: boolean;
}

interface PushResult {
  sent: number;
  /** New on the server (the others were there already). */
  stored: number;
}

interface EventRow {
  seq: string;
  txid: string;
  member: string;
  device_id: string;
  project: string;
  idem_key: string;
  host: string;
  kind: string;
  payload: string;
  dropped: string | null;
  at: string;
}

const EVENT_COLUMNS = 'seq, txid::text AS txid, member, device_id, project, idem_key, host, kind, payload, dropped, at';

const CONNECT_TIMEOUT_MS = 10_000;
const STATEMENT_TIMEOUT_MS = 60_000;

export class Remote {
  private constructor(readonly client: pg.Client, readonly member: string) {}

  /** Connects (the error says why it could not, without the password). */
  static async connect(config: pg.ClientConfig): Promise<Remote> {
    const client = new pg.Client({
      ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS, statement_timeout: STATEMENT_TIMEOUT_MS,
      application_name: 'claude-mem', keepAlive: true,
    });
    // A connection that drops between queries must not crash the worker: the next query fails.
    client.on('error', () => {});
    try {
      await client.connect();
      const r = await client.query<{ u: string }>('SELECT current_user AS u');
      return new Remote(client, r.rows[0]!.u);
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => {});
  }

  migrate(): Promise<number[]> {
    return migrateRemote(this.client);
  }

  schemaVersion(): Promise<number> {
    return remoteVersion(this.client);
  }

  /** True when `team` is a role this member belongs to. */
  async inTeam(team: string): Promise<boolean> {
    const r = await this.client.query<{ ok: boolean }>('SELECT claude_mem.in_team($1) AS ok', [team]);
    return r.rows[0]?.ok === true;
  }

  async registerDevice(deviceId: string, name: string): Promise<void> {
    await this.client.query(`INSERT INTO claude_mem.devices (device_id, name) VALUES ($1, $2)
      ON CONFLICT (device_id) DO UPDATE SET name = excluded.name, last_seen = now()`, [deviceId, name]);
  }

  /**
   * One batch in one statement: all of it is on the server, or none. An event this member's
   * tombstones name (by its key or its session) is not taken: a device that was offline during
   * the forget cannot bring it back.
   */
  async push(deviceId: string, events: readonly OutboxEvent[]): Promise<PushResult> {
    if (!events.length) return { sent: 0, stored: 0 };
    const col = <K extends keyof OutboxEvent>(k: K) => events.map((e) => e[k]);
    const forgot = await this.client.query('SELECT 1 FROM claude_mem.tombstones WHERE member = current_user LIMIT 1');
    const notForgotten = forgot.rowCount ? `WHERE NOT EXISTS (SELECT 1 FROM claude_mem.tombstones t WHERE t.member = current_user
        AND t.key IN ('event:' || u.idem_key, 'session:' || u.host || '|' || (u.payload::jsonb ->> 'sessionId'),
          'session:' || u.host || '|' || (u.payload::jsonb ->> 'parentSessionId')))` : '';
    const r = await this.client.query(`INSERT INTO claude_mem.events (device_id, project, idem_key, host, kind, payload, dropped, at)
      SELECT $1::uuid, u.* FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
        AS u (project, idem_key, host, kind, payload, dropped, at)
      ${notForgotten}
      ON CONFLICT (member, idem_key) DO NOTHING`,
    [deviceId, col('project'), col('idemKey'), col('host'), col('kind'), col('payload'), col('dropped'), col('at')]);
    return { sent: events.length, stored: r.rowCount ?? 0 };
  }

  /**
   * Tombstones of this device, and the deletion of this member's events they name, in one
   * transaction. Returns how many events left the server.
   */
  async pushTombstones(deviceId: string, rows: readonly SyncTombstone[]): Promise<number> {
    if (!rows.length) return 0;
    const keys = rows.map((r) => r.key);
    await this.client.query('BEGIN');
    try {
      await this.client.query(`INSERT INTO claude_mem.tombstones (device_id, key, project, created_at)
        SELECT $1::uuid, * FROM unnest($2::text[], $3::text[], $4::text[]) ON CONFLICT (member, key) DO NOTHING`,
      [deviceId, keys, rows.map((r) => r.project), rows.map((r) => r.createdAt)]);
      const byKey = await this.client.query(`DELETE FROM claude_mem.events WHERE member = current_user
        AND idem_key = ANY($1::text[])`, [keys.filter((k) => k.startsWith('event:')).map((k) => k.slice('event:'.length))]);
      const sessions = keys.filter((k) => k.startsWith('session:'));
      const bySession = sessions.length
        ? await this.client.query(`DELETE FROM claude_mem.events WHERE member = current_user
            AND ('session:' || host || '|' || (payload::jsonb ->> 'sessionId') = ANY($1::text[])
              OR 'session:' || host || '|' || (payload::jsonb ->> 'parentSessionId') = ANY($1::text[]))`, [sessions])
        : { rowCount: 0 };
      await this.client.query('COMMIT');
      return (byKey.rowCount ?? 0) + (bySession.rowCount ?? 0);
    } catch (err) {
      await this.client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  }

  /** Pin versions: each replaces the server's only when its clock is greater (last writer wins). */
  async pushPins(deviceId: string, rows: readonly PinVersion[]): Promise<number> {
    if (!rows.length) return 0;
    const r = await this.client.query(`INSERT INTO claude_mem.pins (device_id, obs_key, project, pinned, hlc)
      SELECT $1::uuid, * FROM unnest($2::text[], $3::text[], $4::boolean[], $5::text[])
      ON CONFLICT (member, obs_key) DO UPDATE SET project = excluded.project, pinned = excluded.pinned, hlc = excluded.hlc,
        device_id = excluded.device_id, txid = pg_current_xact_id(), seq = nextval('claude_mem.pins_seq_seq')
      WHERE excluded.hlc > claude_mem.pins.hlc`,
    [deviceId, rows.map((p) => p.obsKey), rows.map((p) => p.project), rows.map((p) => p.pinned), rows.map((p) => p.hlc)]);
    return r.rowCount ?? 0;
  }

  async pullPins(deviceId: string, cursor: PullCursor, limit: number): Promise<{ rows: PinVersion[]; cursor: PullCursor; done: boolean }> {
    await this.client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const h = await this.client.query<{ horizon: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon');
      const r = await this.client.query<{ seq: string; txid: string; obs_key: string; project: string; pinned: boolean; hlc: string }>(
        `SELECT seq, txid::text AS txid, obs_key, project, pinned, hlc FROM claude_mem.pins
        WHERE (txid, seq) > ($1::xid8, $2::bigint) AND txid < $3::xid8 AND device_id <> $4::uuid
        ORDER BY txid, seq LIMIT $5`, [cursor.txid, cursor.seq, h.rows[0]!.horizon, deviceId, limit]);
      await this.client.query('COMMIT');
      const last = r.rows[r.rows.length - 1];
      return {
        rows: r.rows.map((p) => ({ obsKey: p.obs_key, project: p.project, pinned: p.pinned, hlc: p.hlc })),
        cursor: last ? { txid: last.txid, seq: last.seq } : cursor,
        done: r.rows.length < limit,
      };
    } catch (err) {
      await this.client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  }

  /** Tombstones of other devices after `cursor`, in commit order (the same rule as events). */
  async pullTombstones(deviceId: string, cursor: PullCursor, limit: number): Promise<{ rows: SyncTombstone[]; cursor: PullCursor; done: boolean }> {
    await this.client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const h = await this.client.query<{ horizon: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon');
      const r = await this.client.query<{ seq: string; txid: string; key: string; project: string | null; created_at: string }>(
        `SELECT seq, txid::text AS txid, key, project, created_at FROM claude_mem.tombstones
        WHERE (txid, seq) > ($1::xid8, $2::bigint) AND txid < $3::xid8 AND device_id <> $4::uuid
        ORDER BY txid, seq LIMIT $5`, [cursor.txid, cursor.seq, h.rows[0]!.horizon, deviceId, limit]);
      await this.client.query('COMMIT');
      const last = r.rows[r.rows.length - 1];
      return {
        rows: r.rows.map((t) => ({ key: t.key, project: t.project, createdAt: t.created_at })),
        cursor: last ? { txid: last.txid, seq: last.seq } : cursor,
        done: r.rows.length < limit,
      };
    } catch (err) {
      await this.client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  }

  /**
   * The next rows of other devices after `cursor`, in commit order. Only rows written by
   * transactions older than the oldest one still running are taken: those can no longer change,
   * so a transaction that took a lower sequence number and commits later is picked up by a later
   * pull instead of being passed over.
   */
  async pull(deviceId: string, cursor: PullCursor, limit: number): Promise<PullPage> {
    await this.client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      const h = await this.client.query<{ horizon: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS horizon');
      const rows = await this.client.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM claude_mem.events
        WHERE (txid, seq) > ($1::xid8, $2::bigint) AND txid < $3::xid8 AND device_id <> $4::uuid
        ORDER BY txid, seq LIMIT $5`, [cursor.txid, cursor.seq, h.rows[0]!.horizon, deviceId, limit]);
      const page = await this.page(rows.rows, cursor, limit);
      await this.client.query('COMMIT');
      return page;
    } catch (err) {
      await this.client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  }

  /**
   * Rows of one member's project up to `upto` (the pull cursor), after `after`: the history of a
   * project a teammate just shared, which the cursor had passed while those rows were hidden.
   */
  async pullShared(deviceId: string, member: string, project: string, upto: PullCursor, after: PullCursor, limit: number): Promise<PullPage> {
    const rows = await this.client.query<EventRow>(`SELECT ${EVENT_COLUMNS} FROM claude_mem.events
      WHERE member = $1 AND project = $2 AND (txid, seq) <= ($3::xid8, $4::bigint) AND (txid, seq) > ($5::xid8, $6::bigint)
        AND device_id <> $7::uuid
      ORDER BY txid, seq LIMIT $8`, [member, project, upto.txid, upto.seq, after.txid, after.seq, deviceId, limit]);
    return this.page(rows.rows, after, limit);
  }

  /** Rows after the cursor this device may pull (ready or not): how far behind it is. */
  async behind(deviceId: string, cursor: PullCursor): Promise<number> {
    const r = await this.client.query<{ n: string }>(`SELECT count(*) AS n FROM claude_mem.events
      WHERE (txid, seq) > ($1::xid8, $2::bigint) AND device_id <> $3::uuid`, [cursor.txid, cursor.seq, deviceId]);
    return Number(r.rows[0]?.n ?? 0);
  }

  /** A page of rows, with the devices they came from. */
  private async page(rows: EventRow[], from: PullCursor, limit: number): Promise<PullPage> {
    const ids = [...new Set(rows.map((r) => r.device_id))];
    const devices = ids.length
      ? (await this.client.query<SyncDevice>(`SELECT device_id AS "deviceId", name, member FROM claude_mem.devices
          WHERE device_id = ANY($1::uuid[])`, [ids])).rows
      : [];
    const known = new Set(devices.map((d) => d.deviceId));
    // A device row the member may not see: still name the member it belongs to.
    for (const r of rows) {
      if (!known.has(r.device_id)) {
        devices.push({ deviceId: r.device_id, name: 'device', member: r.member });
        known.add(r.device_id);
      }
    }
    const last = rows[rows.length - 1];
    return {
      events: rows.map((r) => ({
        idemKey: r.idem_key, origin: r.device_id, project: r.project, host: r.host, kind: r.kind, payload: r.payload,
        dropped: r.dropped, at: r.at,
      })),
      devices,
      cursor: last ? { txid: last.txid, seq: last.seq } : from,
      done: rows.length < limit,
    };
  }

  async share(team: string, project: string): Promise<boolean> {
    const r = await this.client.query(`INSERT INTO claude_mem.shared_projects (team, project) VALUES ($1, $2)
      ON CONFLICT DO NOTHING`, [team, project]);
    return (r.rowCount ?? 0) > 0;
  }

  async unshare(team: string, project: string): Promise<boolean> {
    const r = await this.client.query('DELETE FROM claude_mem.shared_projects WHERE member = current_user AND team = $1 AND project = $2', [team, project]);
    return (r.rowCount ?? 0) > 0;
  }

  async sharedProjects(): Promise<{ member: string; team: string; project: string }[]> {
    const r = await this.client.query<{ member: string; team: string; project: string }>(
      'SELECT member, team, project FROM claude_mem.shared_projects ORDER BY team, project, member');
    return r.rows;
  }

  /** Everything this member has on the server (sync remove --purge-remote). */
  async purgeOwn(): Promise<{ events: number; devices: number }> {
    await this.client.query('BEGIN');
    try {
      const e = await this.client.query('DELETE FROM claude_mem.events WHERE member = current_user');
      await this.client.query('DELETE FROM claude_mem.tombstones WHERE member = current_user');
      await this.client.query('DELETE FROM claude_mem.pins WHERE member = current_user');
      await this.client.query('DELETE FROM claude_mem.shared_projects WHERE member = current_user');
      const d = await this.client.query('DELETE FROM claude_mem.devices WHERE member = current_user');
      await this.client.query('COMMIT');
      return { events: e.rowCount ?? 0, devices: d.rowCount ?? 0 };
    } catch (err) {
      await this.client.query('ROLLBACK').catch(() => {});
      throw err;
    }
  }
}
