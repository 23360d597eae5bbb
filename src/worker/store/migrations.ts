/**
 * Numbered schema migrations. Each runs in its own IMMEDIATE transaction and is recorded in
 * `schema_migrations`, so two processes opening the same file never apply one twice.
 * Append new migrations at the end; never edit one that has shipped.
 */
import type Database from 'better-sqlite3';
import { StoreError } from './errors.js';

export interface Migration {
  version: number;
  name: string;
  up: string;
}

// Observation text as the FTS index sees it: JSON arrays flattened to words, so snippets read well.
// The view below and the triggers must compute exactly the same values (FTS5 'delete' needs them).
const flat = (col: string): string => `COALESCE((SELECT group_concat(value, ' ') FROM json_each(${col})), '')`;
const obsFtsExprs = (r: string): string =>
  `${r}.title, COALESCE(${r}.subtitle, ''), ${r}.narrative, ${flat(`${r}.facts`)}, ${flat(`${r}.concepts`)}, ` +
  `${flat(`${r}.files_read`)} || ' ' || ${flat(`${r}.files_modified`)}, ${r}.tags`;
const obsFtsValues = (r: 'new' | 'old'): string => `${r}.id, ${obsFtsExprs(r)}`;

/** Triggers keeping an external-content FTS5 table in step with its source table. */
function ftsTriggers(table: string, fts: string, cols: string, newValues: string, oldValues: string): string {
  return `
CREATE TRIGGER ${table}_fts_ai AFTER INSERT ON ${table} BEGIN
  INSERT INTO ${fts}(rowid, ${cols}) VALUES (${newValues});
END;
CREATE TRIGGER ${table}_fts_ad AFTER DELETE ON ${table} BEGIN
  INSERT INTO ${fts}(${fts}, rowid, ${cols}) VALUES ('delete', ${oldValues});
END;
CREATE TRIGGER ${table}_fts_au AFTER UPDATE ON ${table} BEGIN
  INSERT INTO ${fts}(${fts}, rowid, ${cols}) VALUES ('delete', ${oldValues});
  INSERT INTO ${fts}(rowid, ${cols}) VALUES (${newValues});
END;`;
}

const OBS_FTS_COLS = 'title, subtitle, narrative, facts, concepts, files, tags';
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
  session_id INTEGER REFERENCES sessions(id) ON DELETE CASCADE,
  host TEXT NOT NULL,
  kind TEXT NOT NULL,
  payload TEXT NOT NULL, -- the normalized capture after privacy (or a stub when dropped)
  dropped TEXT,          -- why the content was not kept: 'private' | 'privacy'
  probe INTEGER NOT NULL DEFAULT 0,
  at TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX events_session ON events(session_id);
CREATE INDEX events_host_probe_at ON events(host, probe, at);

CREATE TABLE prompts (
  id INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  event_id INTEGER REFERENCES events(id) ON DELETE SET NULL,
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
CREATE INDEX prompts_event ON prompts(event_id) WHERE event_id IS NOT NULL;

CREATE TABLE observations (
  id INTEGER PRIMARY KEY,
  session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
  event_id INTEGER REFERENCES events(id) ON DELETE SET NULL,
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
CREATE INDEX observations_created ON observations(created_at);
CREATE INDEX observations_project_created ON observations(project, created_at);
CREATE INDEX observations_host_created ON observations(host, created_at);
CREATE INDEX observations_type_created ON observations(type, created_at);
CREATE INDEX observations_event ON observations(event_id) WHERE event_id IS NOT NULL;

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

-- Observation search reads its text through this view (external content), so facts, concepts
-- and files are indexed as words rather than JSON.
CREATE VIEW observations_fts_content AS
  SELECT o.id AS id, o.title AS title, COALESCE(o.subtitle, '') AS subtitle, o.narrative AS narrative,
    ${flat('o.facts')} AS facts, ${flat('o.concepts')} AS concepts,
    ${flat('o.files_read')} || ' ' || ${flat('o.files_modified')} AS files, o.tags AS tags
  FROM observations o;

CREATE VIRTUAL TABLE observations_fts USING fts5(${OBS_FTS_COLS},
  content = 'observations_fts_content', content_rowid = 'id', ${TOKENIZE});
CREATE VIRTUAL TABLE prompts_fts USING fts5(text, tags, content = 'prompts', content_rowid = 'id', ${TOKENIZE});
CREATE VIRTUAL TABLE summaries_fts USING fts5(text, tags, content = 'summaries', content_rowid = 'id', ${TOKENIZE});

-- Titles weigh most, then files and concepts, then the narrative; filter tags not at all.
-- (search.ts calls bm25() with the same weights: an explicit call sorts faster than ORDER BY rank.)
INSERT INTO observations_fts(observations_fts, rank) VALUES ('rank', 'bm25(8.0, 3.0, 1.0, 1.5, 3.0, 3.0, 0.0)');
INSERT INTO prompts_fts(prompts_fts, rank) VALUES ('rank', 'bm25(1.0, 0.0)');
INSERT INTO summaries_fts(summaries_fts, rank) VALUES ('rank', 'bm25(1.0, 0.0)');

${ftsTriggers('observations', 'observations_fts', OBS_FTS_COLS, obsFtsValues('new'), obsFtsValues('old'))}
${ftsTriggers('prompts', 'prompts_fts', 'text, tags', 'new.id, new.text, new.tags', 'old.id, old.text, old.tags')}
${ftsTriggers('summaries', 'summaries_fts', 'text, tags', 'new.id, new.text, new.tags', 'old.id, old.text, old.tags')}
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
  if (currentVersion(db) >= SCHEMA_VERSION) {
    checkNotNewer(db);
    return applied;
  }
  for (const m of MIGRATIONS) {
    const step = db.transaction(() => {
      db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
        version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
      // Re-read inside the write lock: another process may have migrated meanwhile.
      if (currentVersion(db) >= m.version) return false;
      db.exec(m.up);
      db.prepare('INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)').run(
        m.version, m.name, new Date().toISOString());
      return true;
    });
    if (step.immediate()) applied.push(m.version);
  }
  return applied;
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
