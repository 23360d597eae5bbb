import { describe, expect, it } from 'vitest';
import type { TranscriptCheckpoint } from '../../src/store/types.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { bash, ev, openTemp, query, useTempStore } from './fixtures.js';

const { store } = useTempStore();

const cp = (over: Partial<TranscriptCheckpoint> = {}): TranscriptCheckpoint => ({
  filePath: '/home/dev/.codex/sessions/rollout-1.jsonl',
  watchName: 'codex',
  offset: 4096,
  inode: 1234567,
  fingerprint: 'abc123',
  pending: { call_1: { name: 'shell', args: { command: 'ls' } } },
  context: { sessionId: 'sess-1', cwd: '/home/dev/app', model: 'gpt-5' },
  ...over,
});

describe('checkpoints', () => {
  it('writes events and the checkpoint together, and reads the checkpoint back', () => {
    const s = store();
    const r = s.ingestWithCheckpoint([bash('ls', 'a', { source: 'transcript' })], cp());
    expect(r.stored).toBe(1);
    expect(s.getCheckpoint(cp().filePath)).toEqual({ ...cp(), updatedAt: expect.any(String) });
    s.ingestWithCheckpoint([], cp({ offset: 8192, pending: {} }));
    expect(s.getCheckpoint(cp().filePath)).toMatchObject({ offset: 8192, pending: {} });
    s.deleteCheckpoint(cp().filePath);
    expect(s.getCheckpoint(cp().filePath)).toBeUndefined();
  });

  it('writes neither events nor checkpoint when the checkpoint cannot be written', () => {
    const s = store();
    s.ingestWithCheckpoint([], cp({ offset: 100 }));
    const bad = cp({ offset: -5 });
    expect(() => s.ingestWithCheckpoint([bash('make all', 'built', { toolUseId: 'mk' }), ev({ kind: 'session_start', sessionId: 'new-s' })], bad)).toThrow();
    expect(query(s, 'SELECT * FROM events')).toEqual([]);
    expect(query(s, 'SELECT * FROM observations')).toEqual([]);
    expect(query(s, 'SELECT * FROM sessions')).toEqual([]);
    expect(s.getCheckpoint(cp().filePath)?.offset).toBe(100);

    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => s.ingestWithCheckpoint([bash('make all', 'built')], cp({ pending: circular }))).toThrow();
    expect(s.stats().events).toBe(0);
    expect(s.getCheckpoint(cp().filePath)?.offset).toBe(100);
  });

  it('still advances the checkpoint past rejected lines (the watcher dead-letters them)', () => {
    const s = store();
    const r = s.ingestWithCheckpoint([{ ...bash('ls', 'x'), cwd: 'nope' }], cp({ offset: 10 }));
    expect(r.rejected[0].code).toBe('invalid_cwd');
    expect(s.getCheckpoint(cp().filePath)?.offset).toBe(10);
  });
});

describe('dead letters', () => {
  it('keeps the reason and at most 64 KiB of the raw input, newest first', () => {
    const s = store();
    const first = s.addDeadLetter({ source: 'transcript', filePath: '/x.jsonl', offset: 10, reason: 'unparseable JSON', raw: '{"a":' });
    const big = 'é'.repeat(100_000);
    const second = s.addDeadLetter({ source: 'spool', filePath: null, offset: null, reason: 'too large', raw: big });
    expect(second).toBeGreaterThan(first);
    const list = s.listDeadLetters();
    expect(list.map((d) => d.id)).toEqual([second, first]);
    expect(list[1]).toMatchObject({ source: 'transcript', filePath: '/x.jsonl', offset: 10, reason: 'unparseable JSON', raw: '{"a":' });
    expect(Buffer.byteLength(list[0].raw, 'utf8')).toBeLessThanOrEqual(64 * 1024);
    expect(list[0].raw.length).toBeGreaterThan(1000);
    expect(s.listDeadLetters(1)).toHaveLength(1);
    expect(s.stats().deadLetters).toBe(2);
  });
});
