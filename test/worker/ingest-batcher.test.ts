import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { IngestBatcher } from '../../src/worker/ingest-batcher.js';
import { openStore } from '../../src/store/sqlite-store.js';
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

  it('acknowledges a request only after its transaction committed: a full database answers an error and stores nothing of it', async () => {
    const path = join(tempDir(), 'db.sqlite');
    const store = openStore(path);
    // SQLite's own limit makes the file full for real: its writes fail with SQLITE_FULL.
    const db = (store as unknown as { db: Database.Database }).db;
    db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 40}`);
    const batcher = new IngestBatcher(store);
    const big = (i: number) => ({ ...tool(i, `s${i % 3}`), toolResponse: { stdout: `${i} `.repeat(2000) } });
    const acked: number[] = [];
    const refused: number[] = [];
    for (let round = 0; round < 40 && refused.length === 0; round++) {
      const ids = [round * 3, round * 3 + 1, round * 3 + 2];
      const outcomes = await Promise.allSettled(ids.map((i) => batcher.submit([big(i)])));
      outcomes.forEach((o, k) => {
        if (o.status === 'fulfilled') acked.push(ids[k]);
        else {
          expect((o.reason as { code?: string }).code).toMatch(/^SQLITE_FULL/);
          refused.push(ids[k]);
        }
      });
    }
    expect(acked.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    // What another connection reads: every acknowledged event, none of the refused ones.
    const reader = new Database(path, { readonly: true });
    const stored = new Set((reader.prepare("SELECT json_extract(payload, '$.toolUseId') AS id FROM events").all() as { id: string }[]).map((r) => r.id));
    reader.close();
    for (const i of acked) expect(stored.has(`t${i}`), `acknowledged t${i}`).toBe(true);
    for (const i of refused) expect(stored.has(`t${i}`), `refused t${i}`).toBe(false);
    db.pragma('max_page_count = 1073741823');
    store.close();
  });
});
