/**
 * claude-mem's schema on the shared PostgreSQL database, with numbered migrations as for SQLite.
 * Every table is readable and writable by any role that may connect (PUBLIC), and row-level
 * security (forced, so the owner is held to it too) decides which rows a role sees: its own, and
 * the rows of projects a teammate shared with a team (a PostgreSQL role) it is a member of.
 *
 * Rows are pulled in commit order: each carries the id of the transaction that wrote it (`txid`),
 * and a reader takes only rows of transactions older than every transaction still running (the
 * snapshot's xmin), so a row that commits late is never passed over (remote.ts).
 * Append new migrations at the end; never edit one that has shipped.
 */
import type pg from 'pg';

const SCHEMA = 'claude_mem';

interface RemoteMigration {
  version: number;
  name: string;
  up: string;
}

export const REMOTE_MIGRATIONS: readonly RemoteMigration[] = [
  {
    version: 1,
    name: 'devices, events in commit order, projects shared with teams, row-level security',
    up: `
CREATE TABLE claude_mem.devices (
  device_id uuid PRIMARY KEY,
  member name NOT NULL DEFAULT current_user,
  name text NOT NULL,
  first_seen timestamptz NOT NULL DEFAULT now(),
  last_seen timestamptz NOT NULL DEFAULT now()
);

-- A member's rows of a project, shared with a team (a role the member belongs to).
CREATE TABLE claude_mem.shared_projects (
  member name NOT NULL DEFAULT current_user,
  team name NOT NULL,
  project text NOT NULL,
  shared_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (member, team, project)
);
CREATE INDEX shared_projects_project ON claude_mem.shared_projects (project, member);

-- Captured events as their device stored them (after privacy). Immutable: a set keyed by the
-- member and the event's idempotency key.
CREATE TABLE claude_mem.events (
  seq bigserial PRIMARY KEY,
  txid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  member name NOT NULL DEFAULT current_user,
  device_id uuid NOT NULL REFERENCES claude_mem.devices (device_id),
  project text NOT NULL,
  idem_key text NOT NULL,
  host text NOT NULL,
  kind text NOT NULL,
  payload text NOT NULL,
  dropped text,
  at text NOT NULL,
  pushed_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (member, idem_key)
);
CREATE INDEX events_commit_order ON claude_mem.events (txid, seq);

CREATE FUNCTION claude_mem.in_team(team name) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = team AND pg_has_role(current_user, r.oid, 'MEMBER'))
$$;
CREATE FUNCTION claude_mem.shared_with_me(owner name, proj text) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM claude_mem.shared_projects sp
    WHERE sp.member = owner AND sp.project = proj AND claude_mem.in_team(sp.team))
$$;

ALTER TABLE claude_mem.events ENABLE ROW LEVEL SECURITY;
ALTER TABLE claude_mem.events FORCE ROW LEVEL SECURITY;
CREATE POLICY events_read ON claude_mem.events FOR SELECT
  USING (member = current_user OR claude_mem.shared_with_me(member, project));
CREATE POLICY events_write ON claude_mem.events FOR INSERT
  WITH CHECK (member = current_user AND EXISTS (
    SELECT 1 FROM claude_mem.devices d WHERE d.device_id = events.device_id AND d.member = current_user));
CREATE POLICY events_delete ON claude_mem.events FOR DELETE USING (member = current_user);

ALTER TABLE claude_mem.shared_projects ENABLE ROW LEVEL SECURITY;
ALTER TABLE claude_mem.shared_projects FORCE ROW LEVEL SECURITY;
CREATE POLICY shared_read ON claude_mem.shared_projects FOR SELECT USING (member = current_user OR claude_mem.in_team(team));
CREATE POLICY shared_write ON claude_mem.shared_projects FOR INSERT WITH CHECK (member = current_user AND claude_mem.in_team(team));
CREATE POLICY shared_delete ON claude_mem.shared_projects FOR DELETE USING (member = current_user);

ALTER TABLE claude_mem.devices ENABLE ROW LEVEL SECURITY;
ALTER TABLE claude_mem.devices FORCE ROW LEVEL SECURITY;
CREATE POLICY devices_read ON claude_mem.devices FOR SELECT USING (member = current_user OR EXISTS (
  SELECT 1 FROM claude_mem.shared_projects sp WHERE sp.member = devices.member AND claude_mem.in_team(sp.team)));
CREATE POLICY devices_insert ON claude_mem.devices FOR INSERT WITH CHECK (member = current_user);
CREATE POLICY devices_update ON claude_mem.devices FOR UPDATE USING (member = current_user) WITH CHECK (member = current_user);
CREATE POLICY devices_delete ON claude_mem.devices FOR DELETE USING (member = current_user);

GRANT USAGE ON SCHEMA claude_mem TO PUBLIC;
GRANT SELECT ON claude_mem.schema_migrations TO PUBLIC;
GRANT SELECT, INSERT, DELETE ON claude_mem.events TO PUBLIC;
GRANT USAGE ON SEQUENCE claude_mem.events_seq_seq TO PUBLIC;
GRANT SELECT, INSERT, UPDATE, DELETE ON claude_mem.devices TO PUBLIC;
GRANT SELECT, INSERT, DELETE ON claude_mem.shared_projects TO PUBLIC;
`,
  },
  {
    version: 2,
    name: 'tombstones: what a member forgot, in commit order',
    up: `
-- A forget on one device, for every other one: the key names an event, a session or an
-- observation (src/store/memory-keys.ts); no content is kept. Pushing one also deletes
-- the member's events it names, and later pushes of them are refused (remote.ts).
CREATE TABLE claude_mem.tombstones (
  seq bigserial PRIMARY KEY,
  txid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  member name NOT NULL DEFAULT current_user,
  device_id uuid NOT NULL REFERENCES claude_mem.devices (device_id),
  key text NOT NULL,
  project text,
  created_at text NOT NULL,
  UNIQUE (member, key)
);
CREATE INDEX tombstones_commit_order ON claude_mem.tombstones (txid, seq);

ALTER TABLE claude_mem.tombstones ENABLE ROW LEVEL SECURITY;
ALTER TABLE claude_mem.tombstones FORCE ROW LEVEL SECURITY;
CREATE POLICY tombstones_read ON claude_mem.tombstones FOR SELECT
  USING (member = current_user OR (project IS NOT NULL AND claude_mem.shared_with_me(member, project)));
CREATE POLICY tombstones_write ON claude_mem.tombstones FOR INSERT WITH CHECK (member = current_user);
CREATE POLICY tombstones_delete ON claude_mem.tombstones FOR DELETE USING (member = current_user);
GRANT SELECT, INSERT, DELETE ON claude_mem.tombstones TO PUBLIC;
GRANT USAGE ON SEQUENCE claude_mem.tombstones_seq_seq TO PUBLIC;
`,
  },
  {
    version: 3,
    name: 'pins: each observation\'s last pin or unpin per member, by hybrid logical clock',
    up: `
-- One row per member and observation key: the pin state with the greatest clock (hlc) wins.
-- A row that changes takes a new transaction id and sequence, so pulls see it again.
CREATE TABLE claude_mem.pins (
  member name NOT NULL DEFAULT current_user,
  obs_key text NOT NULL,
  project text NOT NULL,
  pinned boolean NOT NULL,
  hlc text NOT NULL,
  device_id uuid NOT NULL REFERENCES claude_mem.devices (device_id),
  txid xid8 NOT NULL DEFAULT pg_current_xact_id(),
  seq bigserial NOT NULL,
  PRIMARY KEY (member, obs_key)
);
CREATE INDEX pins_commit_order ON claude_mem.pins (txid, seq);
ALTER TABLE claude_mem.pins ENABLE ROW LEVEL SECURITY;
ALTER TABLE claude_mem.pins FORCE ROW LEVEL SECURITY;
-- Pins are a member's own: they shape that member's context on every machine.
CREATE POLICY pins_own ON claude_mem.pins USING (member = current_user) WITH CHECK (member = current_user);
GRANT SELECT, INSERT, UPDATE, DELETE ON claude_mem.pins TO PUBLIC;
GRANT USAGE ON SEQUENCE claude_mem.pins_seq_seq TO PUBLIC;
`,
  },
];

export const REMOTE_SCHEMA_VERSION = REMOTE_MIGRATIONS[REMOTE_MIGRATIONS.length - 1].version;

class RemoteSchemaError extends Error {
  constructor(readonly code: 'remote_newer_schema' | 'remote_not_migrated', message: string) {
    super(message);
  }
}

/** The remote schema's version: 0 when claude-mem's schema is not there yet. */
export async function remoteVersion(client: pg.ClientBase): Promise<number> {
  const t = await client.query<{ ok: boolean }>(`SELECT to_regclass('claude_mem.schema_migrations') IS NOT NULL AS ok`);
  if (!t.rows[0]?.ok) return 0;
  const r = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM claude_mem.schema_migrations');
  return r.rows[0]?.v ?? 0;
}

/**
 * Creates or migrates the schema. One migrator at a time (an advisory lock); each migration in its
 * own transaction. Returns the versions applied. A schema written by a newer claude-mem is left
 * alone; a role that may not create it gets an error saying who can.
 */
export async function migrateRemote(client: pg.ClientBase, migrations: readonly RemoteMigration[] = REMOTE_MIGRATIONS): Promise<number[]> {
  const target = migrations[migrations.length - 1].version;
  const before = await remoteVersion(client);
  if (before > target) {
    throw new RemoteSchemaError('remote_newer_schema',
      `the database holds claude-mem schema version ${before}, newer than this claude-mem understands (${target}); upgrade claude-mem on this machine`);
  }
  if (before === target) return [];
  const applied: number[] = [];
  for (const m of migrations) {
    await client.query('BEGIN');
    try {
      await client.query(`SELECT pg_advisory_xact_lock(hashtext('claude_mem.migrate'))`);
      await client.query(`CREATE SCHEMA IF NOT EXISTS claude_mem`);
      await client.query(`CREATE TABLE IF NOT EXISTS claude_mem.schema_migrations (
        version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
      const done = await client.query('SELECT 1 FROM claude_mem.schema_migrations WHERE version = $1', [m.version]);
      if (done.rowCount === 0) {
        await client.query(m.up);
        await client.query('INSERT INTO claude_mem.schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
        applied.push(m.version);
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {});
      const code = (err as { code?: string }).code;
      if (code === '42501') {
        throw new RemoteSchemaError('remote_not_migrated',
          `this role may not ${before === 0 ? 'create' : 'migrate'} claude-mem's schema (${(err as Error).message}); run 'claude-mem sync setup' once with the database owner's role, then again with this one`);
      }
      throw err;
    }
  }
  return applied;
}
