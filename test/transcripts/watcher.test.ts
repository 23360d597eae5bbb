import { appendFileSync, copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { memoryLogger } from '../../src/worker/logger.js';
import type { MemoryStore } from '../../src/store/types.js';
import { startTranscriptWatcher, type TranscriptWatcher } from '../../src/transcripts/watcher.js';
import { FIXTURES, tempDir } from '../helpers/temp.js';
import { FIXTURE_DIR, jsonl, rows, testStore } from './helpers.js';

const meta = (id: string, extra: Record<string, unknown> = {}) => ({ timestamp: '2026-01-01T00:00:00.000Z', type: 'session_meta', payload: { id, cwd: '/home/dev/p', source: 'cli', ...extra } });
const prompt = (turn: string, text: string) => ({ timestamp: '2026-01-01T00:00:01.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }], internal_chat_message_metadata_passthrough: { turn_id: turn } } });

const running: TranscriptWatcher[] = [];
afterEach(async () => { await Promise.all(running.splice(0).map((w) => w.stop())); });

function setup(watches: unknown[], extra: Record<string, unknown> = {}) {
  const data = tempDir('data');
  const configPath = join(data, 'transcript-watch.json');
  writeFileSync(configPath, JSON.stringify({ watches, ...extra }));
  const store = testStore(data);
  return { data, configPath, store };
}

function start(store: MemoryStore, configPath: string, log = memoryLogger()) {
  const w = startTranscriptWatcher({ store, paths: { transcriptWatch: configPath }, log, options: { useFsWatch: false, pollIntervalMs: 40, discoveryIntervalMs: 80 } });
  running.push(w);
  return w;
}

async function waitFor<T>(fn: () => T | undefined | false, ms = 10_000): Promise<T> {
  const t0 = Date.now();
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() - t0 > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const texts = (dbPath: string) => rows(dbPath).prompts.map((p) => p.text);

describe('transcript watcher', () => {
  it('finds new files in nested folders by polling alone', async () => {
    const root = tempDir('sessions');
    const { configPath, store } = setup([{ name: 'codex', path: `${root}/**/rollout-*.jsonl`, schema: 'codex' }]);
    const w = start(store, configPath);
    expect(await w.whenIdle()).toBe(true);
    const deep = join(root, '2026', '11', '30');
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'rollout-a.jsonl'), jsonl([meta('nested-1'), prompt('t1', 'found me')]));
    writeFileSync(join(deep, 'not-a-rollout.jsonl'), jsonl([meta('other'), prompt('t1', 'ignored')]));
    await waitFor(() => texts(store.dbPath).includes('found me'));
    appendFileSync(join(deep, 'rollout-a.jsonl'), jsonl([prompt('t2', 'and the next line')]));
    await waitFor(() => texts(store.dbPath).includes('and the next line'));
    expect(texts(store.dbPath)).toEqual(['found me', 'and the next line']);
    expect(w.status().files.map((f) => f.path)).toEqual([join(deep, 'rollout-a.jsonl')]);
    store.close();
  });

  it('startAtEnd skips what existed when the watch was created, never a new session\'s first lines', async () => {
    const root = tempDir('sessions');
    writeFileSync(join(root, 'rollout-old.jsonl'), jsonl([meta('old'), prompt('o1', 'history before the watch')]));
    const { configPath, store } = setup([{ name: 'codex', path: `${root}/*.jsonl`, schema: 'codex', startAtEnd: true }]);
    let w = start(store, configPath);
    expect(await w.whenIdle()).toBe(true);
    expect(texts(store.dbPath)).toEqual([]);
    appendFileSync(join(root, 'rollout-old.jsonl'), jsonl([prompt('o2', 'appended after')]));
    writeFileSync(join(root, 'rollout-new.jsonl'), jsonl([meta('new'), prompt('n1', 'first line of a new session')]));
    await waitFor(() => texts(store.dbPath).length === 2);
    expect(texts(store.dbPath).sort()).toEqual(['appended after', 'first line of a new session']);
    // The old file's session was learned from its first line, though that line was not stored.
    expect(rows(store.dbPath).prompts.find((p) => p.text === 'appended after')?.session).toBe('old');

    // A restart is not a new watch: a file created while the worker was down is read from 0.
    await w.stop();
    writeFileSync(join(root, 'rollout-while-down.jsonl'), jsonl([meta('down'), prompt('d1', 'written while stopped')]));
    w = start(store, configPath);
    await waitFor(() => texts(store.dbPath).includes('written while stopped'));
    expect(texts(store.dbPath)).not.toContain('history before the watch');
    store.close();
  });

  it('subagentOnly records subagent sessions only; other sessions only update context', async () => {
    const root = tempDir('sessions');
    const rollouts = join(FIXTURES, 'codex', 'sessions');
    copyFileSync(join(rollouts, readdirSync(rollouts).find((f) => f.startsWith('rollout-'))!), join(root, 'rollout-top.jsonl'));
    copyFileSync(join(FIXTURE_DIR, 'codex', 'subagent-rollout.jsonl'), join(root, 'rollout-child.jsonl'));
    const { configPath, store } = setup([{ name: 'codex-subagents', path: `${root}/rollout-*.jsonl`, schema: 'codex', subagentOnly: true, managedBy: 'installer' }]);
    const w = start(store, configPath);
    expect(await w.whenIdle()).toBe(true);
    const got = rows(store.dbPath);
    // The parent appears only as the row the child links to (the store creates it); nothing of its own is stored.
    expect(got.sessions.map((s) => [s.id, s.isSubagent])).toEqual([['01a22c17-4ed4-7561-9d59-b934c4f76f3a', 0], ['codex-child-1', 1]]);
    expect(got.events.every((e) => (e.payload as { sessionId: string }).sessionId === 'codex-child-1')).toBe(true);
    expect(got.prompts.map((p) => p.text)).toEqual(['find TODOs in src']);
    expect(got.observations.map((o) => o.toolName)).toEqual(['Bash']);
    const child = got.events.find((e) => e.kind === 'prompt')!.payload as Record<string, unknown>;
    expect(child).toMatchObject({ isSubagent: true, parentSessionId: '01a22c17-4ed4-7561-9d59-b934c4f76f3a', agentId: 'Euler' });
    // The top-level rollout was read (its checkpoint is at the end) but stored nothing.
    const top = store.getCheckpoint(join(root, 'rollout-top.jsonl'))!;
    expect(top.context).toMatchObject({ sessionId: '01a22c17-4ed4-7561-9d59-b934c4f76f3a', isSubagent: false });
    expect(w.status().files.every((f) => f.offset === f.size)).toBe(true);
    store.close();
  });

  it('refuses an invalid config with every error and keeps running the last valid one', async () => {
    const root = tempDir('sessions');
    writeFileSync(join(root, 'rollout-1.jsonl'), jsonl([meta('cfg'), prompt('c1', 'before the bad edit')]));
    const { configPath, store } = setup([{ name: 'codex', path: `${root}/*.jsonl`, schema: 'codex' }]);
    const log = memoryLogger();
    const w = start(store, configPath, log);
    await waitFor(() => texts(store.dbPath).length === 1);
    writeFileSync(configPath, JSON.stringify({ watches: [{ name: 'codex', path: `${root}/*.jsonl`, schema: 'codx' }, { name: 'x', schema: 'dsh' }] }));
    w.reload();
    const err = await waitFor(() => w.status().configError);
    expect(err).toContain('watches[0].schema: unknown schema "codx"');
    expect(err).toContain('watches[1].path');
    expect(log.lines.some((l) => l.startsWith('error transcript-watch.json rejected'))).toBe(true);
    appendFileSync(join(root, 'rollout-1.jsonl'), jsonl([prompt('c2', 'still watched')]));
    await waitFor(() => texts(store.dbPath).includes('still watched'));
    // A fixed config is picked up when the file changes (no reload call needed).
    const other = tempDir('other');
    writeFileSync(join(other, 'chat_history.jsonl'), '');
    writeFileSync(configPath, JSON.stringify({ watches: [{ name: 'codex', path: `${root}/*.jsonl`, schema: 'codex' }, { name: 'dsh', path: `${FIXTURE_DIR}dsh/--home-dev-projects-demo--/*/session.jsonl`, schema: 'dsh' }] }));
    await waitFor(() => !w.status().configError && w.status().watches.length === 2);
    await waitFor(() => rows(store.dbPath).prompts.some((p) => p.session === 'dsh-sess-1'));
    store.close();
  });

  it('retries a busy store with backoff and loses nothing', async () => {
    const root = tempDir('sessions');
    writeFileSync(join(root, 'rollout-1.jsonl'), jsonl([meta('busy'), prompt('b1', 'eventually stored')]));
    const { configPath, store } = setup([{ name: 'codex', path: `${root}/*.jsonl`, schema: 'codex' }]);
    let calls = 0;
    const flaky = Object.create(store) as MemoryStore;
    flaky.ingestWithCheckpoint = (events, cp) => {
      if (cp.filePath.endsWith('.jsonl') && ++calls <= 3) throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      return store.ingestWithCheckpoint(events, cp);
    };
    const log = memoryLogger();
    const w = start(flaky, configPath, log);
    const err = await waitFor(() => w.status().files[0]?.lastError);
    expect(err).toMatch(/database is locked/);
    await waitFor(() => texts(store.dbPath).includes('eventually stored'));
    // The row is committed before the watcher records the step's outcome.
    await waitFor(() => w.status().files[0].lastError === undefined);
    expect(w.status().totals.retries).toBe(3);
    expect(log.lines.some((l) => l.includes('transcript file will be retried'))).toBe(true);
    store.close();
  });
});
