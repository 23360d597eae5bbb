import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { IngestBatcher } from '../../src/worker/ingest-batcher.js';
import { openStore } from '../../src/worker/store/sqlite-store.js';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import { tempDir } from '../helpers/temp.js';

function tool(i: number, session = 's1'): CaptureEvent {
  return {
    host: 'claude-code', source: 'hook', kind: 'tool_result', sessionId: session, toolUseId: `t${i}`, cwd: '/tmp/proj',
    toolName: 'Bash', toolInput: { command: `echo ${i}` }, toolResponse: { stdout: `${i}\n` }, at: new Date(1_700_000_000_000 + i).toISOString(),
  };
}

describe('IngestBatcher', () => {
  it('stores concurrent requests of one tick in one transaction, each with its own result', async () => {
    const store = openStore(join(tempDir(), 'db.sqlite'));
    let calls = 0;
    const original = store.ingestMany!.bind(store);
    store.ingestMany = (batches) => {
      calls++;
      return original(batches);
    };
    const batcher = new IngestBatcher(store);
    const results = await Promise.all([
      batcher.submit([tool(1)]),
      batcher.submit([tool(2), tool(3)]),
      batcher.submit([tool(1)]), // a redelivery of the first
      batcher.submit([{ ...tool(4), sessionId: 'bad id!' }]),
    ]);
    expect(calls).toBe(1);
    expect(results.map((r) => [r.stored, r.duplicates, r.rejected.length])).toEqual([[1, 0, 0], [2, 0, 0], [0, 1, 0], [0, 0, 1]]);
    expect(results[3].rejected[0]).toMatchObject({ index: 0, code: 'invalid_session_id' });
    expect(store.stats().events).toBe(3);
    store.close();
  });

  it('rejects every request of a group when the store fails, so each caller spools', async () => {
    const failing = { ingest: () => { throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }); } };
    const batcher = new IngestBatcher(failing as never);
    const outcomes = await Promise.allSettled([batcher.submit([tool(1)]), batcher.submit([tool(2)])]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
  });
});
