// Forgotten rows stay forgotten when the host's log is imported afterwards (tombstones).
import Database from 'better-sqlite3';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sanitizeEvent } from '../../src/shared/privacy.js';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import { hookFixtures, runFixture } from '../hook-adapters/fixtures.js';
import { FIXTURES, tempDir } from '../helpers/temp.js';
import { drain, shipped, testStore } from '../transcripts/helpers.js';
import { counts } from './helpers.js';

const live = () => hookFixtures(join('claude-code', 'hooks')).flatMap((f) => runFixture('claude-code', f).events)
  .map((e) => sanitizeEvent(e)).filter((e): e is CaptureEvent => e !== null);

function claudeLog(): string {
  const src = join(FIXTURES, 'claude-code', 'sessions');
  const name = readdirSync(src).find((f) => f.endsWith('.jsonl'))!;
  const dir = join(tempDir('claude'), '.claude', 'projects', '-home-dev-projects-demo');
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(src, name), join(dir, name));
  return join(dir, name);
}

const ids = (dbPath: string, table: string) => {
  const db = new Database(dbPath, { readonly: true });
  try { return db.prepare(`SELECT id FROM ${table}`).pluck().all() as number[]; } finally { db.close(); }
};

describe('claude code: forgotten, then the log imported', () => {
  it('a forgotten prompt, answer and tool call are not stored again', async () => {
    const store = testStore();
    store.ingest(live());
    expect(counts(store.dbPath)).toMatchObject({ prompts: 1, observations: 1, assistant: 1 });
    store.forget({ promptIds: ids(store.dbPath, 'prompts'), assistantIds: ids(store.dbPath, 'assistant_messages'), observationIds: ids(store.dbPath, 'observations') });
    expect(counts(store.dbPath)).toMatchObject({ prompts: 0, observations: 0, assistant: 0 });
    await drain(store, { path: claudeLog(), watchName: 'history:claude-code', schema: shipped('claude-code') });
    expect(counts(store.dbPath)).toMatchObject({ prompts: 0, observations: 0, assistant: 0 });
    store.close();
  });

  it('a forgotten session is not stored again', async () => {
    const store = testStore();
    const file = claudeLog();
    await drain(store, { path: file, watchName: 'history:claude-code', schema: shipped('claude-code') });
    store.forget({ sessions: [{ host: 'claude-code', hostSessionId: '3a198a8b-7eab-4cb5-a69e-e6477faacf11' }] });
    await drain(store, { path: claudeLog(), watchName: 'history:claude-code', schema: shipped('claude-code') });
    expect(counts(store.dbPath)).toMatchObject({ sessions: 0, prompts: 0, observations: 0, assistant: 0, summaries: 0 });
    store.close();
  });
});
