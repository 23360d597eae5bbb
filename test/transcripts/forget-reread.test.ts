// A transcript read again from its start (checkpoint gone, file rotated) after a forget: the
// forgotten prompts do not come back, the others are not duplicated.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';
import { drain, jsonl, rows, shipped, testStore } from './helpers.js';

const meta = { timestamp: '2026-01-01T00:00:00.000Z', type: 'session_meta', payload: { id: 'sess-f', cwd: '/home/dev/p', source: 'cli' } };
const prompt = (turn: string, text: string, sec: number) => ({
  timestamp: `2026-01-01T00:00:${String(sec).padStart(2, '0')}.000Z`, type: 'response_item',
  payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }], internal_chat_message_metadata_passthrough: { turn_id: turn } },
});

describe('forget, then the transcript is read again', () => {
  it('does not bring the forgotten rows back', async () => {
    const file = join(tempDir('t'), 'rollout.jsonl');
    writeFileSync(file, jsonl([meta, prompt('t1', 'keep the parser change', 1), prompt('t2', 'the password is glimmerwort', 2)]));
    const store = testStore();
    await drain(store, { path: file, schema: shipped('codex') });
    expect(rows(store.dbPath).prompts.map((p) => p.text)).toEqual(['keep the parser change', 'the password is glimmerwort']);
    const r = store.forget({ query: { q: 'glimmerwort' } });
    expect(r.counts.prompts).toBe(1);
    store.deleteCheckpoint(file);
    const again = await drain(store, { path: file, schema: shipped('codex') });
    expect(again.stored).toBe(0);
    expect(rows(store.dbPath).prompts.map((p) => p.text)).toEqual(['keep the parser change']);
    expect(rows(store.dbPath).events.some((e) => JSON.stringify(e.payload).includes('glimmerwort'))).toBe(false);
    store.close();
  });
});
