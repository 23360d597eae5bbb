// A live watch that began at a log's end and an import of the same log keep separate positions.
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { historySourcesFor, ingestHistoryLog } from '../../src/transcripts/history.js';
import { FIXTURES, tempDir } from '../helpers/temp.js';
import { drain, shipped, testStore } from '../transcripts/helpers.js';
import { counts } from './helpers.js';

describe('codex: subagent watch started at the end, then import-history', () => {
  it('the import still reads the whole past, and the watch keeps its own position', async () => {
    const home = tempDir('home');
    const dir = join(home, '.codex', 'sessions', '2026', '11', '30');
    mkdirSync(dir, { recursive: true });
    const src = join(FIXTURES, 'codex', 'sessions');
    const name = readdirSync(src).find((f) => f.startsWith('rollout-'))!;
    copyFileSync(join(src, name), join(dir, name));
    const store = testStore();
    await drain(store, { path: join(dir, name), watchName: 'codex', schema: shipped('codex'), startAtEnd: true, subagentOnly: true });
    const watchAt = store.getCheckpoint(join(dir, name))!.offset;
    expect(watchAt).toBeGreaterThan(0);
    expect(counts(store.dbPath).prompts).toBe(0);
    const [source] = historySourcesFor(['codex']);
    const [log] = await source.findLogs({ HOME: home });
    const r = await ingestHistoryLog({ store, source, log });
    expect(r.status).toBe('done');
    expect(counts(store.dbPath)).toMatchObject({ sessions: 1, prompts: 1, observations: 1 });
    expect(store.getCheckpoint(join(dir, name))!.offset).toBe(watchAt);
    store.close();
  });
});
