import { appendFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { historySources, historySourcesFor, ingestHistoryLog, type HistorySource } from '../../src/transcripts/history.js';
import { tempDir } from '../helpers/temp.js';
import { rows, testStore } from './helpers.js';
import { HOST_CASES, type HostCase } from './history-hosts.js';

const envOf = (home: string) => ({ HOME: home, XDG_CONFIG_HOME: `${home}/.config`, XDG_DATA_HOME: `${home}/.local/share` });

function sourceOf(c: HostCase): HistorySource {
  const s = historySources().find((x) => x.schema === c.schema);
  if (!s) throw new Error(`no history source for schema ${c.schema}`);
  return s;
}

async function importAll(store: ReturnType<typeof testStore>, source: HistorySource, home: string) {
  const logs = await source.findLogs(envOf(home));
  const results = [];
  for (const log of logs) results.push(await ingestHistoryLog({ store, source, log }));
  return { logs, results };
}

describe('history sources', () => {
  it('lists one source per importable shipped schema, in host order, each validated', () => {
    const schemas = historySources().map((s) => s.schema);
    for (const c of HOST_CASES) expect(schemas).toContain(c.schema);
    expect(historySourcesFor(['codex']).every((s) => s.host === 'codex')).toBe(true);
  });

  it('finds nothing (and does not throw) in an empty home', async () => {
    const home = tempDir('home');
    for (const s of historySources()) expect(await s.findLogs(envOf(home))).toEqual([]);
  });
});

describe.each(HOST_CASES)('import of $host history', (c) => {
  it('finds the log where the host keeps it and stores session, prompt with its id, tool results and outcome', async () => {
    const home = tempDir('home');
    const placed = c.place(home);
    const store = testStore();
    const source = sourceOf(c);
    const { logs, results } = await importAll(store, source, home);
    expect(logs.map((l) => l.path).sort()).toEqual([...new Set(placed)].sort());
    expect(logs.every((l) => l.bytes > 0 && l.mtimeMs > 0)).toBe(true);
    // Where a log names its session or directory without being read, it is the right one.
    if (['gemini', 'kimi', 'grok', 'opencode'].includes(c.host)) expect(logs.map((l) => l.cwd)).toEqual([c.cwd]);
    expect(logs.every((l) => (l.cwd === undefined || l.cwd === c.cwd) && (l.sessionId === undefined || l.sessionId === c.sessionId))).toBe(true);
    expect(results.every((r) => r.status === 'done' && r.deadLetters === 0)).toBe(true);
    const r = rows(store.dbPath);
    expect(r.sessions).toEqual([expect.objectContaining({ host: c.host, id: c.sessionId, isSubagent: 0 })]);
    expect(r.prompts).toEqual([{ session: c.sessionId, nativeId: c.promptId ?? null, text: c.prompt }]);
    for (const id of c.toolUseIds) expect(r.observations.filter((o) => o.toolUseId === id)).toHaveLength(1);
    const outcomes = r.events.filter((e) => e.kind === 'assistant_message').map((e) => (e.payload as { message?: string }).message);
    expect(outcomes).toContain(c.outcome);
    expect(new Set(r.events.map((e) => (e.payload as { cwd?: string }).cwd))).toEqual(new Set([c.cwd]));
    store.close();
  });

  it('stores nothing new when imported twice, and resumes a log that grew', async () => {
    const home = tempDir('home');
    const placed = c.place(home);
    const store = testStore();
    const source = sourceOf(c);
    const first = await importAll(store, source, home);
    const before = rows(store.dbPath);
    const second = await importAll(store, source, home);
    expect(second.results.reduce((n, x) => n + x.stored, 0)).toBe(0);
    expect(rows(store.dbPath)).toEqual(before);
    expect(first.results.reduce((n, x) => n + x.stored, 0)).toBeGreaterThan(0);
    // A truncated (partial) last line waits; a malformed line is dead-lettered and the log moves on.
    if (!placed[0].endsWith('.jsonl')) { store.close(); return; }
    appendFileSync(placed[0], '{"not json\n{"type":"user","message":{"content":"x"');
    const third = await importAll(store, source, home);
    expect(third.results.every((x) => x.status === 'done')).toBe(true);
    expect(third.results.reduce((n, x) => n + x.deadLetters, 0)).toBe(1);
    expect(rows(store.dbPath).prompts).toEqual(before.prompts);
    store.close();
  });
});

describe('malformed logs', () => {
  it('dead-letters every bad line of a garbage log and finishes', async () => {
    const home = tempDir('home');
    const c = HOST_CASES[0];
    const [file] = c.place(home);
    writeFileSync(file, 'garbage\n[1,2]\n{"type":"user"}\n\u0000\u0001\n');
    const store = testStore();
    const { results } = await importAll(store, sourceOf(c), home);
    expect(results[0].status).toBe('done');
    expect(results[0].deadLetters).toBeGreaterThanOrEqual(3);
    expect(rows(store.dbPath).prompts).toEqual([]);
    store.close();
  });
});

describe('log offsets', () => {
  it('marks the logs a reader makes, whose offsets are not file offsets', async () => {
    for (const c of HOST_CASES) {
      const home = tempDir('home');
      c.place(home);
      const source = sourceOf(c);
      const logs = await source.findLogs(envOf(home));
      const made = ['gemini', 'grok-build', 'kimi', 'opencode', 'openclaw'].includes(c.schema);
      expect(logs.every((l) => (l.madeLines === true) === made), c.schema).toBe(true);
    }
  });
});
