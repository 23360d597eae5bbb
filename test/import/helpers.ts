/** Row counts of what capture derives, for the import tests. */
import Database from 'better-sqlite3';

export function counts(dbPath: string) {
  const db = new Database(dbPath, { readonly: true });
  try {
    const n = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    return {
      sessions: n('SELECT count(*) AS n FROM sessions'),
      prompts: n('SELECT count(*) AS n FROM prompts'),
      observations: n('SELECT count(*) AS n FROM observations'),
      assistant: n('SELECT count(*) AS n FROM assistant_messages'),
      summaries: n('SELECT count(*) AS n FROM summaries'),
      promptIds: db.prepare('SELECT native_id AS id FROM prompts').all().map((r) => (r as { id: string | null }).id),
    };
  } finally { db.close(); }
}

