/**
 * Numbered schema migrations. Each runs in its own IMMEDIATE transaction and is recorded in
 * `schema_migrations`, so two processes opening the same file never apply one twice.
 * Append new migrations at the end; never edit one that has shipped.
 */
import type Database from 'better-sqlite3';
import { StoreError } from './errors.js';
import { FTS_COLUMNS, FTS_TABLE, FTS_TOKENIZE, INDEXED_SOURCES, indexInsertSql, indexTriggers, ROW_TAGS_FN } from './search-layout.js';

interface Migration {
  version: number;
  name: string;
  up: string;
}

/**
 * Triggers keeping an external-content FTS5 table in step with its source table (the FTS columns
 * are the table's own columns, so the indexed text is always the row's text).
 *
 * With `lazy`, new rows are not indexed by trigger but in batches by fts-index.ts, up to the
 * watermark kept in fts_state: indexing one row per commit costs more than everything else a
 * captured event writes. Updates and deletes then touch the index only for rows under the mark.
 */
function ftsTriggers(table: string, fts: string, cols: string, lazy: boolean): string {
  const values = (r: 'new' | 'old') => `${r}.id, ${cols.split(', ').map((c) => `${r}.${c}`).join(', ')}`;
  const indexed = lazy ? ` WHEN old.id <= (SELECT upto FROM fts_state WHERE name = '${table}')` : '';
  const ai = `
CREATE TRIGGER ${table}_fts_ai AFTER INSERT ON ${table} BEGIN
  INSERT INTO ${fts}(rowid, ${cols}) VALUES (${values('new')});
END;`;
  return `${lazy ? '' : ai}
CREATE TRIGGER ${table}_fts_ad AFTER DELETE ON ${table}${indexed} BEGIN
  INSERT INTO ${fts}(${fts}, rowid, ${cols}) VALUES ('delete', ${values('old')});
END;
CREATE TRIGGER ${table}_fts_au AFTER UPDATE ON ${table}${indexed} BEGIN
  INSERT INTO ${fts}(${fts}, rowid, ${cols}) VALUES ('delete', ${values('old')});
  INSERT INTO ${fts}(rowid, ${cols}) VALUES (${values('new')});
END;`;
}

// Facts, concepts and files are indexed as their JSON text: brackets and quotes are separators
// to the tokenizer, so the words come out the same, and the row is its own FTS content.
const OBS_FTS_COLS = 'title, subtitle, narrative, facts, concepts, files_read, files_modified, tags';
const PROMPT_FTS_COLS = 'text, tags';
const TOKENIZE = `tokenize = 'unicode61 remove_diacritics 2'`;

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    up: `
CREATE TABLE sessions (
  id INTEGER PRIMARY KEY,
  host TEXT NOT NULL,
  host_session_id TEXT NOT NULL,
  project TEXT NOT NULL,
  cwd TEXT NOT NULL,
  parent_session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL,
  is_subagent INTEGER NOT NULL DEFAULT 0,
  agent_id TEXT,
  started_at TEXT NOT NULL,
  ended_at TEXT,
  end_reason TEXT,
  -- 1 while the current turn is private: its tool events are dropped until the next prompt.
  private_turn INTEGER NOT NULL DEFAULT 0,
  prompt_count INTEGER NOT NULL DEFAULT 0,
  last_assistant_message TEXT,
  -- 1 while every event of the session came from a doctor probe.
  probe INTEGER NOT NULL DEFAULT 0,
  UNIQUE (host, host_session_id)
);
CREATE INDEX sessions_project_started ON sessions(project, started_at);
CREATE INDEX sessions_project_ended ON sessions(project, ended_at) WHERE ended_at IS NOT NULL;
CREATE INDEX sessions_parent ON sessions(parent_session_id) WHERE parent_session_id IS NOT NULL;

CREATE TABLE events (
  id INTEGER PRIMARY KEY,
  idem_key TEXT NOT NULL UNIQUE,
  -- No foreign key: a cascade would need an index every event pays for. Probe events are the
  -- only ones ever deleted, and they have an index of their own.
  session_id INTEGER,
  host TEXT NOT NULL,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL, -- the normalized capture after privacy (or a stub when dropped)
  dropped TEXT,          -- why the content was not kept: 'private' | 'privacy'
  probe INTEGER NOT NULL DEFAULT 0,
  at TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX events_probe_session ON events(session_id) WHERE probe = 1;

-- The newest capture time per host (probes excluded), written with the deferred index work
-- rather than kept as an index on events: one page less per captured event.
CREATE TABLE host_activity (host TEXT PRIMARY KEY, last_event_at TEXT NOT NULL) WITHOUT ROWID;

CREATE TABLE prompts (
  id INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  event_id INTEGER, -- the event it came from (no foreign key, see events.session_id)
  host TEXT NOT NULL,
  project TEXT NOT NULL,
  number INTEGER NOT NULL,
  native_id TEXT,
  text TEXT NOT NULL,
  private INTEGER NOT NULL DEFAULT 0,
  tags TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX prompts_native_id ON prompts(session_id, native_id) WHERE native_id IS NOT NULL;
CREATE INDEX prompts_session ON prompts(session_id, number);
CREATE INDEX prompts_created ON prompts(created_at);
CREATE INDEX prompts_project_created ON prompts(project, created_at);

CREATE TABLE observations (
  id INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  event_id INTEGER, -- the first event it came from
  host TEXT NOT NULL,
  project TEXT NOT NULL,
  prompt_number INTEGER,
  type TEXT NOT NULL,
  title TEXT NOT NULL,
  subtitle TEXT,
  narrative TEXT NOT NULL,
  facts TEXT NOT NULL DEFAULT '[]',
  files_read TEXT NOT NULL DEFAULT '[]',
  files_modified TEXT NOT NULL DEFAULT '[]',
  concepts TEXT NOT NULL DEFAULT '[]',
  tool_name TEXT,
  tool_use_id TEXT,
  -- Filter words (host, type, project, file suffixes) for the FTS index; see tags.ts.
  tags TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL
);
CREATE UNIQUE INDEX observations_tool_use ON observations(session_id, tool_use_id) WHERE tool_use_id IS NOT NULL;
CREATE INDEX observations_session ON observations(session_id, created_at);
CREATE INDEX observations_project_created ON observations(project, created_at);
-- Observations are the one table written for nearly every captured event, and every index is one
-- more page per commit. So: host, type and file filters go through the FTS tags (tags.ts), and
-- "newest across all projects" is read in id order (storage order) rather than through a time index.

CREATE TABLE summaries (
  id INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL UNIQUE REFERENCES sessions(id) ON DELETE CASCADE,
  host TEXT NOT NULL,
  project TEXT NOT NULL,
  request TEXT NOT NULL,
  files_read TEXT NOT NULL DEFAULT '[]',
  files_modified TEXT NOT NULL DEFAULT '[]',
  commands TEXT NOT NULL DEFAULT '[]',
  outcome TEXT NOT NULL,
  text TEXT NOT NULL,
  tags TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL
);
CREATE INDEX summaries_created ON summaries(created_at);
CREATE INDEX summaries_project_created ON summaries(project, created_at);

CREATE TABLE transcript_files (
  file_path TEXT PRIMARY KEY,
  watch_name TEXT NOT NULL,
  offset INTEGER NOT NULL CHECK (offset >= 0),
  inode INTEGER,
  fingerprint TEXT,
  pending TEXT NOT NULL DEFAULT '{}',
  context TEXT NOT NULL DEFAULT '{}',
  updated_at TEXT NOT NULL
);

CREATE TABLE dead_letters (
  id INTEGER PRIMARY KEY,
  source TEXT NOT NULL,
  file_path TEXT,
  offset INTEGER,
  reason TEXT NOT NULL,
  raw TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX dead_letters_created ON dead_letters(created_at);

CREATE VIRTUAL TABLE observations_fts USING fts5(${OBS_FTS_COLS},
  content = 'observations', content_rowid = 'id', ${TOKENIZE});
CREATE VIRTUAL TABLE prompts_fts USING fts5(${PROMPT_FTS_COLS}, content = 'prompts', content_rowid = 'id', ${TOKENIZE});
CREATE VIRTUAL TABLE summaries_fts USING fts5(text, tags, content = 'summaries', content_rowid = 'id', ${TOKENIZE});

-- Titles weigh most, then files and concepts, then the narrative; filter tags not at all.
-- (search.ts calls bm25() with the same weights: an explicit call sorts faster than ORDER BY rank.)
INSERT INTO observations_fts(observations_fts, rank) VALUES ('rank', 'bm25(8.0, 3.0, 1.0, 1.5, 3.0, 3.0, 3.0, 0.0)');
INSERT INTO prompts_fts(prompts_fts, rank) VALUES ('rank', 'bm25(1.0, 0.0)');
INSERT INTO summaries_fts(summaries_fts, rank) VALUES ('rank', 'bm25(1.0, 0.0)');

-- Rows of a lazily indexed table with id <= upto are in its FTS index (fts-index.ts).
CREATE TABLE fts_state (name TEXT PRIMARY KEY, upto INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO fts_state (name, upto) VALUES ('observations', 0), ('prompts', 0);

${ftsTriggers('observations', 'observations_fts', OBS_FTS_COLS, true)}
${ftsTriggers('prompts', 'prompts_fts', PROMPT_FTS_COLS, true)}
${ftsTriggers('summaries', 'summaries_fts', 'text, tags', false)}
`,
  },
  {
    version: 2,
    name: 'assistant messages, one stemmed search index, context given per session',
    up: `
-- Every assistant message of a turn (bounded, after privacy), not only the session's last one.
CREATE TABLE assistant_messages (
  id INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  event_id INTEGER,
  host TEXT NOT NULL,
  project TEXT NOT NULL,
  prompt_number INTEGER,
  text TEXT NOT NULL,
  tags TEXT NOT NULL DEFAULT '',
  created_at TEXT NOT NULL
);
CREATE INDEX assistant_messages_session ON assistant_messages(session_id, prompt_number);
INSERT INTO assistant_messages (session_id, host, project, prompt_number, text, tags, created_at)
  SELECT s.id, s.host, s.project, nullif(s.prompt_count, 0), s.last_assistant_message,
    ${ROW_TAGS_FN}(s.host, s.project),
    coalesce(s.ended_at, s.started_at)
  FROM sessions s WHERE s.last_assistant_message IS NOT NULL AND s.last_assistant_message != '';

-- What the context hooks already gave a session (context.ts): not given twice.
CREATE TABLE context_given (
  host TEXT NOT NULL,
  host_session_id TEXT NOT NULL,
  item TEXT NOT NULL, -- 'project' for the project block, else kind:id
  at TEXT NOT NULL,
  PRIMARY KEY (host, host_session_id, item)
) WITHOUT ROWID;
CREATE INDEX context_given_at ON context_given(at);

DROP TRIGGER observations_fts_ad;
DROP TRIGGER observations_fts_au;
DROP TRIGGER prompts_fts_ad;
DROP TRIGGER prompts_fts_au;
DROP TRIGGER summaries_fts_ai;
DROP TRIGGER summaries_fts_ad;
DROP TRIGGER summaries_fts_au;
DROP TABLE observations_fts;
DROP TABLE prompts_fts;
DROP TABLE summaries_fts;

CREATE VIRTUAL TABLE ${FTS_TABLE} USING fts5(${FTS_COLUMNS}, content = '', contentless_delete = 1, ${FTS_TOKENIZE});
INSERT OR IGNORE INTO fts_state (name, upto) VALUES ('assistant_messages', 0), ('summaries', 0);
${INDEXED_SOURCES.map((src) => `${indexInsertSql(src, '1')};
UPDATE fts_state SET upto = (SELECT coalesce(max(id), 0) FROM ${src.table}) WHERE name = '${src.table}';
${indexTriggers(src)}`).join('\n')}
`,
  },
  {
    version: 3,
    name: 'capture activity per host and kind; context handed out once per session',
    up: `
-- The newest real (non-probe) capture time per host and event kind, written with host_activity:
-- what doctor and status report as a host's last prompt, tool result and session end.
CREATE TABLE host_kind_activity (
  host TEXT NOT NULL,
  kind TEXT NOT NULL,
  last_at TEXT NOT NULL,
  PRIMARY KEY (host, kind)
) WITHOUT ROWID;
INSERT INTO host_kind_activity (host, kind, last_at)
  SELECT host, kind, max(at) FROM events WHERE probe = 0 GROUP BY host, kind;

-- When a host that takes memory once per session (Grok: the first tool call) was handed it.
ALTER TABLE sessions ADD COLUMN context_sent_at TEXT;
`,
  },
  {
    version: 4,
    name: 'forgotten content stays forgotten; pinned observations',
    up: `
-- What was forgotten, by identity (memory-keys.ts): an event's idempotency key ('event:'), a
-- session ('session:'), an observation ('obs:'). Ingest and import skip whatever a key names,
-- so the spool, a transcript read again or an import cannot bring it back. No content is kept.
CREATE TABLE tombstones (
  key TEXT PRIMARY KEY,
  kind TEXT NOT NULL, -- 'event' | 'session' | 'observation'
  project TEXT,
  created_at TEXT NOT NULL
) WITHOUT ROWID;

-- Observations always given in their project's session-start context. obs_key is the
-- observation's identity across machines (export, import, sync). An unpin keeps the row with its
-- time, so that it travels too: the later of pinned_at and unpinned_at is the state.
CREATE TABLE pins (
  observation_id INTEGER PRIMARY KEY REFERENCES observations(id) ON DELETE CASCADE,
  obs_key TEXT NOT NULL UNIQUE,
  project TEXT NOT NULL,
  pinned_at TEXT NOT NULL,
  unpinned_at TEXT -- set while unpinned
);
CREATE INDEX pins_project ON pins(project, pinned_at);
`,
  },
  {
    version: 5,
    name: 'history import: a second capture path\'s key for an event already stored',
    up: `
-- An event seen by a hook and again in the host's own log, where the host gives no id to tell
-- them apart (twins.ts): stored once, under the first key; the other key points here, so every
-- later delivery of it is a duplicate.
CREATE TABLE event_aliases (
  idem_key TEXT PRIMARY KEY,
  event_id INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX event_aliases_event ON event_aliases(event_id);
`,
  },
  {
    version: 6,
    name: 'sync: rows remember the device they came from; sync cursors',
    up: `
-- NULL: captured on this device. Otherwise the id of the device (sync_devices) it was pulled from.
ALTER TABLE events ADD COLUMN origin TEXT;
ALTER TABLE sessions ADD COLUMN origin TEXT;
-- Devices whose rows were pulled: their name and the team member (database role) they belong to.
CREATE TABLE sync_devices (
  device_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  member TEXT NOT NULL
) WITHOUT ROWID;
-- This device's id, the push and pull cursors, the last error (sync/engine.ts).
CREATE TABLE sync_state (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
-- 1 once the tombstone is on the sync database (pushed from here, or pulled from there).
ALTER TABLE tombstones ADD COLUMN synced INTEGER NOT NULL DEFAULT 0;

-- The last pin or unpin of each observation (by its cross-machine key), stamped with a hybrid
-- logical clock: milliseconds, never less than one more than any stamp seen here (pulled ones
-- included), then '@' and the device id. The greatest stamp wins on every machine (docs/sync.md).
CREATE TABLE pin_versions (
  obs_key TEXT PRIMARY KEY,
  project TEXT NOT NULL,
  pinned INTEGER NOT NULL,
  hlc TEXT NOT NULL,
  synced INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;
-- Pins made here are stamped; pins sync applies (sync_state 'applying_pins' set) carry their own stamp.
CREATE TRIGGER pins_version_ai AFTER INSERT ON pins
  WHEN new.unpinned_at IS NULL AND (SELECT 1 FROM sync_state WHERE key = 'applying_pins') IS NULL BEGIN
  INSERT INTO pin_versions (obs_key, project, pinned, hlc, synced) VALUES (new.obs_key, new.project, 1, printf('%015d', max(CAST(unixepoch('subsec') * 1000 AS INTEGER),
      coalesce((SELECT max(CAST(substr(hlc, 1, 15) AS INTEGER)) FROM pin_versions), 0) + 1))
      || '@' || coalesce((SELECT value FROM sync_state WHERE key = 'device_id'), ''), 0)
    ON CONFLICT (obs_key) DO UPDATE SET pinned = 1, hlc = excluded.hlc, project = excluded.project, synced = 0;
END;
-- An unpin keeps the pin row with its time (pins.ts), and a pin again clears it: both are updates.
CREATE TRIGGER pins_version_au AFTER UPDATE OF unpinned_at ON pins
  WHEN (SELECT 1 FROM sync_state WHERE key = 'applying_pins') IS NULL BEGIN
  INSERT INTO pin_versions (obs_key, project, pinned, hlc, synced) VALUES (new.obs_key, new.project, new.unpinned_at IS NULL, printf('%015d', max(CAST(unixepoch('subsec') * 1000 AS INTEGER),
      coalesce((SELECT max(CAST(substr(hlc, 1, 15) AS INTEGER)) FROM pin_versions), 0) + 1))
      || '@' || coalesce((SELECT value FROM sync_state WHERE key = 'device_id'), ''), 0)
    ON CONFLICT (obs_key) DO UPDATE SET pinned = excluded.pinned, hlc = excluded.hlc, project = excluded.project, synced = 0;
END;
CREATE TRIGGER pins_version_ad AFTER DELETE ON pins
  WHEN (SELECT 1 FROM sync_state WHERE key = 'applying_pins') IS NULL BEGIN
  INSERT INTO pin_versions (obs_key, project, pinned, hlc, synced) VALUES (old.obs_key, old.project, 0, printf('%015d', max(CAST(unixepoch('subsec') * 1000 AS INTEGER),
      coalesce((SELECT max(CAST(substr(hlc, 1, 15) AS INTEGER)) FROM pin_versions), 0) + 1))
      || '@' || coalesce((SELECT value FROM sync_state WHERE key = 'device_id'), ''), 0)
    ON CONFLICT (obs_key) DO UPDATE SET pinned = 0, hlc = excluded.hlc, synced = 0;
END;
`,
  },
];

export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1].version;

export function currentVersion(db: Database.Database): number {
  const table = db
    .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`)
    .get();
  if (!table) return 0;
  const row = db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null };
  return row.v ?? 0;
}

/**
 * Brings the database to SCHEMA_VERSION. Returns the versions applied (empty when up to date).
 * A database written by a newer claude-mem is refused rather than guessed at.
 */
export function migrate(db: Database.Database): number[] {
  const applied: number[] = [];
  if (MIGRATIONS.every((m) => hasVersion(db, m.version))) {
    checkNotNewer(db);
    return applied;
  }
  for (const m of MIGRATIONS) {
    const step = db.transaction(() => {
      db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
      // Re-read inside the write lock: another process may have migrated meanwhile. Each version
      // is looked up on its own, so one missing below the newest (branches merged in another
      // order) is still applied.
      if (hasVersion(db, m.version)) return false;
      db.exec(m.up);
      db.prepare('INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version, m.name, new Date().toISOString());
      return true;
    });
    if (step.immediate()) applied.push(m.version);
  }
  return applied;
}

function hasVersion(db: Database.Database, version: number): boolean {
  const table = db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'`).get();
  return !!table && !!db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(version);
}

function checkNotNewer(db: Database.Database): void {
  const v = currentVersion(db);
  if (v > SCHEMA_VERSION) {
    throw new StoreError(
      'store_newer_schema',
      `The database has schema version ${v}, newer than this claude-mem understands (${SCHEMA_VERSION}). Upgrade claude-mem.`,
      db.name,
    );
  }
}
