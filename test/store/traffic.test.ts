/**
 * What real traffic left per host (doctor and status read it), a turn end that summarizes a
 * session without ending it, and memory handed out once per session.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../src/store/migrations.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { at, bash, dbPath, ev, openTemp, prompt, query, useTempStore } from './fixtures.js';

const temp = useTempStore();
const store = (path?: string) => temp.store({}, path);

describe('turn_end', () => {
  it("writes the session's summary from what it holds so far; the session stays open, a later turn replaces it", () => {
    const s = store();
    const k = { host: 'kimi' as const, sessionId: 'session_k1' };
    s.ingest([ev({ kind: 'session_start', ...k }), prompt('first turn', k), bash('echo one-7', 'one-7', { ...k, toolUseId: 'c1' }),
      ev({ kind: 'assistant_message', message: 'Did one.', ...k }), ev({ kind: 'turn_end', ...k })]);
    const first = query<{ text: string }>(s, 'SELECT text FROM summaries');
    expect(first).toHaveLength(1);
    expect(first[0].text).toContain('one-7');
    expect(query(s, "SELECT ended_at FROM sessions WHERE host_session_id = 'session_k1'")).toEqual([{ ended_at: null }]);

    s.ingest([prompt('second turn', k), bash('echo two-8', 'two-8', { ...k, toolUseId: 'c2' }), ev({ kind: 'turn_end', ...k })]);
    const second = query<{ text: string }>(s, 'SELECT text FROM summaries');
    expect(second).toHaveLength(1);
    expect(second[0].text).toContain('two-8');
  });
});

describe('claimContext', () => {
  it('is true once per stored session, then false; a session not stored yet cannot be marked', () => {
    const s = store();
    s.ingest([ev({ kind: 'session_start', host: 'grok', sessionId: 'g1' })]);
    expect(s.claimContext('grok', 'g1')).toBe(true);
    expect(s.claimContext('grok', 'g1')).toBe(false);
    expect(s.claimContext('grok', 'g2')).toBe(true);
    expect(s.claimContext('grok', 'g2')).toBe(true);
    expect(s.claimContext('claude-code', 'g1')).toBe(true);
  });
});

describe('captureByHost', () => {
  it("reports each host's last real prompt, tool result, turn and session end, probes left out", () => {
    const s = store();
    s.ingest([
      ev({ kind: 'session_start', host: 'kimi', sessionId: 'k1', at: at(100) }), prompt('p', { host: 'kimi', sessionId: 'k1', at: at(101) }),
      bash('ls', 'a', { host: 'kimi', sessionId: 'k1', toolUseId: 't1', at: at(102) }), ev({ kind: 'turn_end', host: 'kimi', sessionId: 'k1', at: at(103) }),
      prompt('probe', { host: 'grok', sessionId: 'probe-1', at: at(200), probe: true }),
      ev({ kind: 'session_start', host: 'grok', sessionId: 'g1', at: at(110) }),
    ]);
    const before = s.stats().captureByHost;
    s.flushSearchIndex();
    const after = s.stats().captureByHost;
    expect(after).toEqual(before); // written or still pending, the same figures
    expect(after.kimi).toMatchObject({
      lastSessionStartAt: at(100), lastPromptAt: at(101), lastToolResultAt: at(102), lastTurnEndAt: at(103), lastSessionEndAt: null,
      recent: { sessions: 1, withoutPrompt: 0, withoutToolResult: 0, notEnded: 0 },
    });
    // Only a session start, as Kimi Code stored before its prompts were read: a session without prompt or tool result.
    expect(after.grok).toMatchObject({ lastPromptAt: null, recent: { sessions: 1, withoutPrompt: 1, withoutToolResult: 1, notEnded: 1 } });
    expect(after['claude-code']).toBeUndefined();
  });

  it('migration 3 fills the activity from the events already stored', () => {
    const path = dbPath();
    const s = openTemp({}, path); // closed here, before the file is changed
    s.ingest([prompt('old', { host: 'gemini', sessionId: 'x1', at: at(5) })]);
    s.close();
    const raw = new Database(path);
    raw.exec('DROP TABLE host_kind_activity');
    // Only 3 is rewound: a missing version below the newest is applied on its own.
    raw.prepare('DELETE FROM schema_migrations WHERE version = 3').run();
    raw.exec('ALTER TABLE sessions DROP COLUMN context_sent_at');
    raw.close();
    const reopened = store(path);
    expect(reopened.stats().captureByHost.gemini?.lastPromptAt).toBe(at(5));
    expect(MIGRATIONS.map((m) => m.version)).toContain(3);
  });
});
