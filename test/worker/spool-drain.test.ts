import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { listSpool, writeSpool } from '../../src/shared/spool.js';
import { SpoolDrain } from '../../src/worker/spool-drain.js';
import { memoryLogger } from '../../src/worker/logger.js';
import { StorageHealth } from '../../src/worker/storage-health.js';
import { tempDir } from '../helpers/temp.js';
import { busyError, FakeStore, sampleEvent } from './fake-store.js';

function setup(opts: Partial<ConstructorParameters<typeof SpoolDrain>[0]> = {}) {
  const spoolDir = tempDir('spool');
  const store = new FakeStore();
  const drain = new SpoolDrain({ store, spoolDir, logger: memoryLogger(), ...opts });
  return { spoolDir, store, drain };
}

describe('spool drain', () => {
  it('ingests spool files oldest first and removes them', async () => {
    const { spoolDir, store, drain } = setup();
    writeSpool(spoolDir, [sampleEvent(1), sampleEvent(2)]);
    writeSpool(spoolDir, [sampleEvent(3)]);
    const stats = await drain.tick();
    expect(stats).toMatchObject({ files: 2, stored: 3, deadLettered: 0, deferred: 0 });
    expect(store.events.map((e) => e.promptId)).toEqual(['p1', 'p2', 'p3']);
    expect(listSpool(spoolDir)).toEqual([]);
  });

  it('keeps one process\'s write order within a millisecond and across a clock step back', async () => {
    const { spoolDir, store, drain } = setup();
    const clock = vi.spyOn(Date, 'now');
    try {
      for (let i = 1; i <= 60; i++) {
        // Twenty writes in one millisecond, then the clock goes back a second, then on.
        clock.mockReturnValue(i <= 20 ? 1_700_000_000_000 : i <= 40 ? 1_699_999_999_000 : 1_700_000_000_000 + i);
        writeSpool(spoolDir, [sampleEvent(i)]);
      }
    } finally {
      clock.mockRestore();
    }
    // A pass stops after its time slice; on a loaded machine the 60 files take several passes.
    for (let pass = 0; pass < 60 && listSpool(spoolDir).length > 0; pass++) await drain.tick();
    expect(store.events.map((e) => e.promptId)).toEqual(Array.from({ length: 60 }, (_, i) => `p${i + 1}`));
  });

  it('dead-letters bad lines, invalid and rejected events, and still stores the good ones', async () => {
    const { spoolDir, store, drain } = setup();
    const file = join(spoolDir, '000000001-1-abcd.jsonl');
    const lines = [
      JSON.stringify(sampleEvent(1)),
      '{not json',
      '[1,2]',
      JSON.stringify({ ...sampleEvent(2), cwd: 7 }),
      JSON.stringify({ ...sampleEvent(3), sessionId: 'has space' }),
    ];
    writeFileSync(file, lines.join('\n') + '\n');
    const stats = await drain.tick();
    expect(stats).toMatchObject({ files: 1, stored: 1, deadLettered: 4 });
    expect(store.deadLetters.map((d) => d.source)).toEqual(['spool', 'spool', 'spool', 'spool']);
    expect(store.deadLetters.map((d) => d.raw)).toEqual(expect.arrayContaining(['{not json', '[1,2]']));
    expect(store.deadLetters.some((d) => /cwd/.test(d.reason))).toBe(true);
    expect(store.deadLetters.some((d) => /invalid_session_id/.test(d.reason))).toBe(true);
    expect(listSpool(spoolDir)).toEqual([]);
  });

  it('leaves files in place while the store is busy, then drains them', async () => {
    const { spoolDir, store, drain } = setup();
    writeSpool(spoolDir, [sampleEvent(1)]);
    store.failWith = busyError();
    const busy = await drain.tick();
    expect(busy).toMatchObject({ files: 0, deferred: 1 });
    expect(listSpool(spoolDir)).toHaveLength(1);
    store.failWith = undefined;
    expect(await drain.tick()).toMatchObject({ files: 1, stored: 1 });
  });

  it('waits for a database it cannot write (full, read-only) however long it takes: the files are fine, nothing is dead-lettered', async () => {
    const storage = new StorageHealth(memoryLogger());
    const { spoolDir, store, drain } = setup({ poisonAfter: 2, storage });
    writeSpool(spoolDir, [sampleEvent(1)]);
    for (const code of ['SQLITE_FULL', 'SQLITE_READONLY', 'SQLITE_FULL']) {
      store.failWith = Object.assign(new Error(code), { code });
      for (let i = 0; i < 3; i++) expect(await drain.tick()).toMatchObject({ files: 0, deferred: 1 });
    }
    expect(storage.state()).toMatchObject({ problem: 'full', code: 'SQLITE_FULL', failures: 3 });
    expect(listSpool(spoolDir)).toHaveLength(1);
    expect(store.deadLetters).toEqual([]);
    store.failWith = undefined;
    expect(await drain.tick()).toMatchObject({ files: 1, stored: 1, deadLettered: 0 });
    expect(storage.state()).toBeNull();
  });

  it('dead-letters a file whose ingest keeps failing, so it cannot block the spool', async () => {
    const { spoolDir, store, drain } = setup({ poisonAfter: 3 });
    writeSpool(spoolDir, [sampleEvent(1)]);
    const real = store.ingest.bind(store);
    store.ingest = () => {
      throw new Error('bug in the store');
    };
    for (let i = 0; i < 2; i++) await drain.tick();
    expect(listSpool(spoolDir)).toHaveLength(1);
    await drain.tick();
    expect(listSpool(spoolDir)).toHaveLength(0);
    expect(store.deadLetters).toHaveLength(1);
    expect(store.deadLetters[0].reason).toContain('bug in the store');
    store.ingest = real;
  });

  it('bounds the work of one pass', async () => {
    const { spoolDir, drain } = setup({ maxFilesPerTick: 2 });
    for (let i = 0; i < 5; i++) writeSpool(spoolDir, [sampleEvent(i)]);
    expect(await drain.tick()).toMatchObject({ files: 2, deferred: 3 });
    expect(listSpool(spoolDir)).toHaveLength(3);
  });

  it('re-reading a file after a crash stores nothing new (idempotency)', async () => {
    const { spoolDir, store, drain } = setup();
    writeSpool(spoolDir, [sampleEvent(1)]);
    writeSpool(spoolDir, [sampleEvent(1)]);
    expect(await drain.tick()).toMatchObject({ files: 2, stored: 1, duplicates: 1 });
    expect(store.events).toHaveLength(1);
  });
});
