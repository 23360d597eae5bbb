// What an import stores, pinned: every table capture derives and the search index's every token,
// digested. A change made for speed must leave these digests as they are.
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HOST_IDS } from '../../src/shared/hosts.js';
import { openStore } from '../../src/store/sqlite-store.js';
import { planImport } from '../../src/worker/import/plan.js';
import { runImport } from '../../src/worker/import/run.js';
import { tempDir } from '../helpers/temp.js';
import { HOST_CASES } from '../transcripts/history-hosts.js';

const NOW = new Date('2026-12-01T12:00:00.000Z');
const CWD = '/home/dev/projects/demo';
const SECRET = 'sk-ant-' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6';

/** A Claude Code session exercising privacy, secrets, compound words and a tool call. */
function claudeSession(id: string, turns: number): string {
  const lines: unknown[] = [];
  let t = Date.UTC(2026, 10, 30, 9, 0, 0);
  const at = () => new Date((t += 1500)).toISOString();
  const base = { cwd: CWD, sessionId: id, version: '2.1.197', gitBranch: 'main', userType: 'external', isSidechain: false };
  for (let n = 0; n < turns; n++) {
    const promptId = `${id}-p${n}`;
    const prompt = n % 3 === 1 ? `keep <private>my password is hunter2</private> parseConfig read-only turn ${n}`
      : n % 3 === 2 ? `use key ${SECRET} for the HTTPServer v2beta call` : `fix the parse_config loader in src/config/loader.ts turn ${n}`;
    lines.push({ ...base, type: 'user', promptId, uuid: `${promptId}-u`, timestamp: at(), message: { role: 'user', content: prompt } });
    const tool = `toolu_${id.slice(0, 8)}_${n}`;
    lines.push({ ...base, type: 'assistant', uuid: `${promptId}-a`, timestamp: at(), message: { role: 'assistant', content: [{ type: 'tool_use', id: tool, name: 'Bash', input: { command: `rg -n "readFileSync" src --max-count ${n}` } }] } });
    lines.push({ ...base, type: 'user', uuid: `${promptId}-r`, timestamp: at(), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: tool, content: `src/store/sqliteStore.ts:${n}: const dbPath = readFileSync(x)\nAPI_TOKEN=${SECRET}` }] } });
    lines.push({ ...base, type: 'assistant', uuid: `${promptId}-b`, timestamp: at(), message: { role: 'assistant', content: [{ type: 'text', text: `Done: the getUserName helper and the dry-run flag, turn ${n}.` }] } });
  }
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

function seed(home: string): void {
  for (const c of HOST_CASES) c.place(home);
  const dir = join(home, '.claude', 'projects', '-home-dev-projects-demo');
  mkdirSync(dir, { recursive: true });
  for (const id of ['5b0c1d2e-0000-4000-8000-000000000001', '5b0c1d2e-0000-4000-8000-000000000002']) {
    writeFileSync(join(dir, `${id}.jsonl`), claudeSession(id, 7));
  }
}

const TABLES: Record<string, string> = {
  sessions: 'SELECT * FROM sessions ORDER BY id',
  events: 'SELECT * FROM events ORDER BY id',
  prompts: 'SELECT * FROM prompts ORDER BY id',
  observations: 'SELECT * FROM observations ORDER BY id',
  assistant: 'SELECT * FROM assistant_messages ORDER BY id',
  summaries: 'SELECT * FROM summaries ORDER BY session_id',
  checkpoints: 'SELECT file_path, watch_name, "offset", pending, context FROM transcript_files ORDER BY file_path',
  deadLetters: 'SELECT file_path, "offset", reason, raw FROM dead_letters ORDER BY id',
  searchIndex: 'SELECT term, doc, col, "offset" FROM temp.vocab ORDER BY term, doc, col, "offset"',
  ftsState: 'SELECT * FROM fts_state ORDER BY name',
};

/**
 * Row count and digest of every table. What depends on where the temp HOME is goes: its path, the
 * files' creation times, and content keys hashed over the log's path.
 */
const placeFree = (text: string, home: string) => text.split(home).join('~')
  .replace(/\\"fileAt\\":\\"[^"\\]+\\"/g, '"fileAt"').replace(/\|h:[0-9a-f]{32}"/g, '|h:"');

function digest(dbPath: string, home: string): Record<string, string> {
  const db = new Database(dbPath);
  try {
    db.exec(`CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, memory_fts, 'instance')`);
    const out: Record<string, string> = {};
    for (const [name, sql] of Object.entries(TABLES)) {
      const rows = db.prepare(sql).all();
      const text = placeFree(JSON.stringify(rows), home);
      if (text.includes(SECRET) || text.includes('hunter2')) throw new Error(`${name} holds a secret or private text`);
      // DUMP_ROWS=<path prefix>: each table's rows as JSON, to see what a changed digest changed.
      if (process.env.DUMP_ROWS) writeFileSync(`${process.env.DUMP_ROWS}.${name}.json`, placeFree(JSON.stringify(rows, null, 1), home));
      out[name] = `${rows.length}:${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
    }
    return out;
  } finally { db.close(); }
}

async function importAll(home: string, dbPath: string) {
  const store = openStore(dbPath, { now: () => NOW });
  try {
    const plan = await planImport({ hosts: HOST_IDS, env: { HOME: home, XDG_DATA_HOME: join(home, '.local', 'share'), XDG_CONFIG_HOME: join(home, '.config') } });
    return await runImport({ store, plan });
  } finally { store.close(); }
}

describe('import-history: the rows it stores', () => {
  it('are the pinned ones, and a second run adds none', async () => {
    const home = tempDir('home');
    seed(home);
    const dbPath = join(tempDir('db'), 'claude-mem.db');
    const first = await importAll(home, dbPath);
    expect(first.stored).toBeGreaterThan(50);
    const rows = digest(dbPath, home);
    expect(rows).toMatchInlineSnapshot(`
      {
        "assistant": "24:17dc41b5f8e644ab",
        "checkpoints": "12:3bb378c8e0ea0600",
        "deadLetters": "0:4f53cda18c2baa0c",
        "events": "116:8917f7674b280a38",
        "ftsState": "4:650dff7e5beba705",
        "observations": "24:5dd2afd38815b339",
        "prompts": "24:a7ea58d73826f804",
        "searchIndex": "1525:24bc032a28f99f91",
        "sessions": "12:876c749d920919ed",
        "summaries": "10:a43241b8c9b54be0",
      }
    `);
    const again = await importAll(home, dbPath);
    expect(again.stored).toBe(0);
    expect(digest(dbPath, home)).toEqual(rows);
  });
});
