import { appendFileSync, copyFileSync, readFileSync, renameSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import type { MemoryStore, TranscriptCheckpoint } from '../../src/store/types.js';
import { compileSchema } from '../../src/transcripts/engine.js';
import { processFile, type FileMemory } from '../../src/transcripts/processor.js';
import { codexLog } from '../../bench/transcripts.js';
import { tempDir } from '../helpers/temp.js';
import { drain, FIXTURE_DIR, jsonl, rows, shipped, testStore } from './helpers.js';

const codex = () => shipped('codex');
const meta = (id = 'sess-1') => ({ timestamp: '2026-01-01T00:00:00.000Z', type: 'session_meta', payload: { id, cwd: '/home/dev/p', source: 'cli' } });
const prompt = (turn: string, text: string, sec = 1) => ({ timestamp: `2026-01-01T00:00:${String(sec).padStart(2, '0')}.000Z`, type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }], internal_chat_message_metadata_passthrough: { turn_id: turn } } });

/** A store whose ingestWithCheckpoint throws on chosen calls (or events), like a busy or failing database. */
class FlakyStore {
  calls = 0;
  /** The stored checkpoint when the last failure happened, and the one that was refused. */
  atFailure?: { stored: TranscriptCheckpoint | undefined; refused: TranscriptCheckpoint };
  constructor(readonly inner: MemoryStore, readonly failOn: (call: number, events: CaptureEvent[]) => boolean) {}
  ingestWithCheckpoint(events: CaptureEvent[], cp: TranscriptCheckpoint) {
    const n = ++this.calls;
    if (this.failOn(n, events)) {
      this.atFailure = { stored: this.inner.getCheckpoint(cp.filePath), refused: structuredClone(cp) };
      throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    }
    return this.inner.ingestWithCheckpoint(events, cp);
  }
  getCheckpoint(p: string) { return this.inner.getCheckpoint(p); }
  addDeadLetter(l: Parameters<MemoryStore['addDeadLetter']>[0]) { return this.inner.addDeadLetter(l); }
  asStore() { return this as unknown as MemoryStore; }
}

describe('reading lines', () => {
  it('leaves a partial last line for later and reads it once its newline arrives', async () => {
    const file = join(tempDir('partial'), 'r.jsonl');
    const full = JSON.stringify(prompt('t2', 'second prompt', 2));
    writeFileSync(file, jsonl([meta(), prompt('t1', 'first prompt')]) + full.slice(0, 40));
    const store = testStore();
    const mem: FileMemory = {};
    const a = await drain(store, { path: file, schema: codex() }, mem);
    expect(a.offset).toBe(Buffer.byteLength(jsonl([meta(), prompt('t1', 'first prompt')])));
    expect(rows(store.dbPath).prompts.map((p) => p.text)).toEqual(['first prompt']);
    appendFileSync(file, full.slice(40));
    await drain(store, { path: file, schema: codex() }, mem);
    expect(rows(store.dbPath).prompts.map((p) => p.text)).toEqual(['first prompt']); // still no newline
    appendFileSync(file, '\n');
    const c = await drain(store, { path: file, schema: codex() }, mem);
    expect(c.offset).toBe(readFileSync(file).length);
    expect(rows(store.dbPath).prompts.map((p) => p.text)).toEqual(['first prompt', 'second prompt']);
    expect(store.listDeadLetters()).toEqual([]);
    store.close();
  });

  it('dead-letters an oversize line without reading it whole, and the file moves on', async () => {
    const file = join(tempDir('big'), 'r.jsonl');
    const huge = JSON.stringify(prompt('t2', 'x'.repeat(3 * 1024 * 1024)));
    writeFileSync(file, jsonl([meta(), prompt('t1', 'before')]) + huge + '\n' + jsonl([prompt('t3', 'after', 3)]));
    const store = testStore();
    const r = await drain(store, { path: file, schema: codex(), maxLineBytes: 1024 * 1024 });
    expect(r).toMatchObject({ status: 'idle', deadLetters: 1, offset: readFileSync(file).length });
    expect(rows(store.dbPath).prompts.map((p) => p.text)).toEqual(['before', 'after']);
    const [letter] = store.listDeadLetters();
    expect(letter).toMatchObject({ source: 'transcript', filePath: file, offset: Buffer.byteLength(jsonl([meta(), prompt('t1', 'before')])) });
    expect(letter.reason).toMatch(/line of 3145\d+ bytes exceeds the 1048576-byte limit/);
    expect(letter.raw.length).toBeLessThanOrEqual(64 * 1024);
    store.close();
  });

  it('skips an oversize line that is still being written, once, when its newline arrives', async () => {
    const file = join(tempDir('growing'), 'r.jsonl');
    writeFileSync(file, jsonl([meta()]));
    const store = testStore();
    const mem: FileMemory = {};
    const task = { path: file, schema: codex(), maxLineBytes: 64 * 1024 };
    await drain(store, task, mem);
    appendFileSync(file, '{"type":"response_item","payload":{"text":"' + 'y'.repeat(200 * 1024));
    const a = await drain(store, task, mem);
    expect(a.deadLetters).toBe(0);
    expect(mem.skip?.scannedTo).toBeGreaterThan(200 * 1024);
    appendFileSync(file, 'y'.repeat(100 * 1024) + '"}}\n' + jsonl([prompt('t9', 'next one', 9)]));
    const b = await drain(store, task, mem);
    expect(b.deadLetters).toBe(1);
    expect(rows(store.dbPath).prompts.map((p) => p.text)).toEqual(['next one']);
    store.close();
  });

  it('reads a valid line longer than the read chunk', async () => {
    const file = join(tempDir('long'), 'r.jsonl');
    writeFileSync(file, jsonl([meta(), prompt('t1', 'z'.repeat(2_500_000)), prompt('t2', 'short', 2)]));
    const store = testStore();
    const r = await drain(store, { path: file, schema: codex() });
    expect(r.deadLetters).toBe(0);
    expect(rows(store.dbPath).prompts.map((p) => p.text.length)).toEqual([64 * 1024, 5]); // stored text is bounded
    store.close();
  });

  it('dead-letters unparseable lines, non-objects and records without a session, and continues', async () => {
    const file = join(tempDir('bad'), 'r.jsonl');
    writeFileSync(file, [JSON.stringify(prompt('t0', 'no session yet')), '{"type":"respo', '[1,2]', JSON.stringify(meta()), JSON.stringify(prompt('t1', 'kept'))].join('\n') + '\n');
    const store = testStore();
    const r = await drain(store, { path: file, schema: codex() });
    expect(r).toMatchObject({ status: 'idle', deadLetters: 3 });
    const reasons = store.listDeadLetters().map((l) => l.reason).sort();
    expect(reasons[0]).toMatch(/^invalid for schema codex: no session id known/);
    expect(reasons[1]).toBe('line is not a JSON object');
    expect(reasons[2]).toMatch(/^unparseable JSON/);
    expect(rows(store.dbPath).prompts.map((p) => p.text)).toEqual(['kept']);
    store.close();
  });

  it('dead-letters an event the store rejects, and the file moves on', async () => {
    const schema = compileSchema('t', { host: 'codex', events: [
      { match: { path: 'k', equals: 's' }, action: 'session_init', fields: { sessionId: 'id', cwd: 'cwd' } },
      { match: { path: 'k', equals: 'p' }, action: 'user_message', fields: { prompt: 'text', promptId: 'turn' } },
    ] });
    const file = join(tempDir('rej'), 'r.jsonl');
    writeFileSync(file, jsonl([{ k: 's', id: 'S', cwd: '/p' }, { k: 'p', text: 'bad id', turn: 'x'.repeat(300) }, { k: 'p', text: 'good', turn: 't2' }]));
    const store = testStore();
    const r = await drain(store, { path: file, schema });
    expect(r.deadLetters).toBe(1);
    expect(store.listDeadLetters()[0].reason).toMatch(/^rejected by the store \(invalid_event\): promptId/);
    expect(rows(store.dbPath).prompts.map((p) => p.text)).toEqual(['good']);
    store.close();
  });
});

describe('store failures', () => {
  it('advances nothing when the store throws, and a recovered run equals an uninterrupted one', async () => {
    const dir = tempDir('crash');
    const file = join(dir, 'rollout.jsonl');
    writeFileSync(file, codexLog({ sessionId: 'crash-1', turns: 40, seed: 7 }));
    const schema = codex();

    const clean = testStore();
    await drain(clean, { path: file, schema });
    const expected = rows(clean.dbPath);
    clean.close();
    expect(expected.prompts.length).toBe(40);

    const base = testStore();
    const flaky = new FlakyStore(base, (n) => n === 4 || n === 9 || n === 10 || n === 23);
    const mem: FileMemory = {};
    let failures = 0;
    for (let i = 0; i < 1000; i++) {
      const r = await processFile({ path: file, watchName: 'w', schema }, flaky.asStore(), mem, { batchBytes: 8 * 1024 });
      if (r.status === 'retry') {
        failures++;
        expect(r.error).toMatch(/database is locked/);
        // Offset, pending calls and session context all stayed where the last commit left them.
        const { stored, refused } = flaky.atFailure!;
        expect(base.getCheckpoint(file)).toEqual(stored);
        expect(refused.offset).toBeGreaterThan(stored?.offset ?? 0);
        continue;
      }
      if (r.status === 'idle') break;
    }
    expect(failures).toBe(4);
    const got = rows(base.dbPath);
    expect(got).toEqual(expected); // no loss, no duplicates
    expect(base.getCheckpoint(file)?.offset).toBe(readFileSync(file).length);
    base.close();
  });

  it('in isolation mode dead-letters only the record a healthy store keeps failing on', async () => {
    const file = join(tempDir('poison'), 'r.jsonl');
    writeFileSync(file, jsonl([meta(), prompt('t1', 'one'), prompt('t2', 'POISON'), prompt('t3', 'three', 3)]));
    const base = testStore();
    const flaky = new FlakyStore(base, (_n, events) => events.some((e) => e.prompt === 'POISON'));
    const mem: FileMemory = {};
    for (let i = 0; i < 20; i++) {
      const r = await processFile({ path: file, watchName: 'w', schema: codex() }, flaky.asStore(), mem, { isolate: true });
      if (r.status === 'idle') break;
    }
    expect(rows(base.dbPath).prompts.map((p) => p.text)).toEqual(['one', 'three']);
    const letters = base.listDeadLetters();
    expect(letters).toHaveLength(1);
    expect(letters[0].reason).toMatch(/the store fails on this record/);
    expect(letters[0].raw).toContain('POISON');
    base.close();
  });
});

describe('rotation, truncation and replacement', () => {
  const setup = async () => {
    const dir = tempDir('rot');
    const file = join(dir, 'rollout.jsonl');
    writeFileSync(file, jsonl([meta(), prompt('t1', 'one'), prompt('t2', 'two', 2)]));
    const store = testStore();
    const mem: FileMemory = {};
    await drain(store, { path: file, schema: codex() }, mem);
    return { dir, file, store, mem };
  };

  it('atomic replacement (write temp, rename) restarts from 0 without duplicates', async () => {
    const { dir, file, store, mem } = await setup();
    const tmp = join(dir, '.rollout.tmp');
    writeFileSync(tmp, jsonl([meta(), prompt('t1', 'one'), prompt('t2', 'two', 2), prompt('t3', 'three', 3)]));
    renameSync(tmp, file);
    const r = await drain(store, { path: file, schema: codex() }, mem);
    expect(r.reset).toBe('replaced (new inode)');
    expect(r.stored).toBe(1);
    expect(r.duplicates).toBe(3);
    expect(rows(store.dbPath).prompts.map((p) => p.text)).toEqual(['one', 'two', 'three']);
    store.close();
  });

  it('truncation restarts from 0', async () => {
    const { file, store, mem } = await setup();
    truncateSync(file, 0);
    writeFileSync(file, jsonl([meta('sess-2'), prompt('n1', 'new session')]));
    const r = await drain(store, { path: file, schema: codex() }, mem);
    expect(r.reset).toBe('truncated');
    expect(rows(store.dbPath).prompts.map((p) => `${p.session}:${p.text}`)).toEqual(['sess-1:one', 'sess-1:two', 'sess-2:new session']);
    store.close();
  });

  it('a rewrite in place (same inode, changed bytes before the offset) restarts from 0', async () => {
    const { file, store, mem } = await setup();
    const size = readFileSync(file).length;
    writeFileSync(file, jsonl([meta('sess-3'), prompt('x1', 'rewritten'.padEnd(40, '.')), prompt('x2', 'more', 2), prompt('x3', 'and more', 3)]));
    expect(readFileSync(file).length).toBeGreaterThan(size);
    const r = await drain(store, { path: file, schema: codex() }, mem);
    expect(r.reset).toMatch(/rewritten/);
    expect(rows(store.dbPath).prompts.filter((p) => p.session === 'sess-3').map((p) => p.text)).toEqual(['rewritten'.padEnd(40, '.'), 'more', 'and more']);
    store.close();
  });

  it('log rotation (rename away, new file at the path) reads the new file from 0', async () => {
    const { dir, file, store, mem } = await setup();
    renameSync(file, join(dir, 'rollout.jsonl.1'));
    writeFileSync(file, jsonl([meta('sess-4'), prompt('r1', 'rotated')]));
    const r = await drain(store, { path: file, schema: codex() }, mem);
    expect(r.reset).toBe('replaced (new inode)');
    expect(rows(store.dbPath).prompts.map((p) => p.text)).toEqual(['one', 'two', 'rotated']);
    store.close();
  });
});

describe('zstd', () => {
  const DSH = join(FIXTURE_DIR, 'dsh/--home-dev-projects-demo--/dsh-sess-1/session.jsonl.zstd');

  it('waits for an incomplete frame and checkpoints at frame boundaries', async () => {
    const bytes = readFileSync(DSH);
    const file = join(tempDir('z'), 'session.jsonl.zstd');
    const cut = bytes.length - 40; // the middle of the last frame
    writeFileSync(file, bytes.subarray(0, cut));
    const store = testStore();
    const mem: FileMemory = {};
    const a = await drain(store, { path: file, schema: shipped('dsh') }, mem);
    expect(a.compressed).toBe(true);
    expect(a.offset).toBeLessThan(cut);
    expect(a.deadLetters).toBe(0);
    expect(rows(store.dbPath).prompts).toHaveLength(1);
    appendFileSync(file, bytes.subarray(cut));
    const b = await drain(store, { path: file, schema: shipped('dsh') }, mem);
    expect(b.offset).toBe(bytes.length);
    expect(rows(store.dbPath).prompts).toHaveLength(2);
    store.close();
  });

  it('dead-letters a corrupt frame and goes on with the next one', async () => {
    const bytes = Buffer.from(readFileSync(DSH));
    const file = join(tempDir('zc'), 'session.jsonl.zstd');
    const copy = Buffer.concat([bytes.subarray(0, 30), Buffer.from('garbage that is no frame'), bytes.subarray(30)]);
    writeFileSync(file, copy);
    const store = testStore();
    const r = await drain(store, { path: file, schema: shipped('dsh') });
    expect(r.offset).toBe(copy.length);
    expect(r.deadLetters).toBeGreaterThanOrEqual(1);
    expect(store.listDeadLetters().some((l) => /zstd|frame/.test(l.reason))).toBe(true);
    store.close();
  });

  it('copies of the plain log and the compressed log store the same prompts', async () => {
    const dir = tempDir('zz');
    copyFileSync(DSH, join(dir, 'a.jsonl.zstd'));
    const store = testStore();
    await drain(store, { path: join(dir, 'a.jsonl.zstd'), schema: shipped('dsh') });
    expect(rows(store.dbPath).prompts.map((p) => p.nativeId)).toEqual(['1', '2']);
    store.close();
  });
});
