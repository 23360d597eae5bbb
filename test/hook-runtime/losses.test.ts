/** The loss record: counts what could be kept nowhere, rewritten in place so it works on a full disk. */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { clearLosses, ensureLossRecord, LOSS_SLOT_BYTES, LOSS_SLOTS, lossReason, lossRecordPath, readLosses, recordLoss } from '../../src/shared/losses.js';
import { tempDir } from '../helpers/temp.js';

const enospc = () => Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
const realPid = process.pid;
const asPid = (pid: number) => Object.defineProperty(process, 'pid', { value: pid, configurable: true, writable: true });

afterEach(() => asPid(realPid));

describe('loss record', () => {
  it('is made ahead of time at a fixed size and only ever rewritten in place', () => {
    const root = tempDir('data');
    expect(readLosses(root)).toBeUndefined();
    expect(ensureLossRecord(root)).toBe(true);
    const before = statSync(lossRecordPath(root));
    expect(before.size).toBe(LOSS_SLOTS * LOSS_SLOT_BYTES);
    expect(readLosses(root)).toBeUndefined();
    expect(recordLoss(root, 2, enospc(), new Date('2026-01-01T00:00:00Z'))).toBe(true);
    expect(recordLoss(root, 1, enospc(), new Date('2026-01-01T00:00:05Z'))).toBe(true);
    const after = statSync(lossRecordPath(root));
    // Same file, same size: nothing allocated, so this works where a new file's content could not be written.
    expect([after.ino, after.size]).toEqual([before.ino, before.size]);
    expect(readLosses(root)).toEqual({
      lost: 3, firstAt: '2026-01-01T00:00:00.000Z', lastAt: '2026-01-01T00:00:05.000Z', code: 'ENOSPC',
      reason: 'ENOSPC: no space left on device, write', file: lossRecordPath(root),
    });
  });

  it('gives each process a slot of its own and sums them; the newest failure names the cause', () => {
    const root = tempDir('data');
    ensureLossRecord(root);
    asPid(1000);
    recordLoss(root, 4, enospc(), new Date('2026-01-01T00:00:00Z'));
    asPid(1001);
    recordLoss(root, 1, Object.assign(new Error('read-only file system'), { code: 'EROFS' }), new Date('2026-01-02T00:00:00Z'));
    asPid(1000 + LOSS_SLOTS); // shares 1000's slot, one after the other
    recordLoss(root, 2, enospc(), new Date('2026-01-01T12:00:00Z'));
    const l = readLosses(root)!;
    expect(l).toMatchObject({ lost: 7, firstAt: '2026-01-01T00:00:00.000Z', lastAt: '2026-01-02T00:00:00.000Z', code: 'EROFS' });
    expect(lossReason(l)).toBe('EROFS: read-only file system');
  });

  it('keeps a slot readable whatever the message length, and ignores a damaged slot', () => {
    const root = tempDir('data');
    ensureLossRecord(root);
    asPid(1);
    recordLoss(root, 1, Object.assign(new Error(`EACCES: ${'é'.repeat(400)}`), { code: 'EACCES' }));
    const file = readFileSync(lossRecordPath(root));
    file.write('{"n":', 0); // slot 0 torn by hand
    writeFileSync(lossRecordPath(root), file);
    expect(readLosses(root)?.lost).toBe(1);
  });

  it('is created on first use when missing, and cleared in place', () => {
    const root = tempDir('data');
    expect(recordLoss(root, 5, enospc())).toBe(true);
    expect(readLosses(root)?.lost).toBe(5);
    const ino = statSync(lossRecordPath(root)).ino;
    expect(clearLosses(root)).toBe(true);
    expect(readLosses(root)).toBeUndefined();
    expect(statSync(lossRecordPath(root)).ino).toBe(ino);
  });

  it('says so when it cannot be written at all', () => {
    expect(recordLoss('/proc/definitely-not-writable', 1, enospc())).toBe(false);
  });
});
