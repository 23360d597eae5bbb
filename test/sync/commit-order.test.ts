// Pulling by a server-side cursor never passes over a row that commits late: a transaction that
// took a lower sequence number and commits after a higher one is picked up by a later pull. Three
// devices push concurrently (with transactions held open a random while) while a fourth pulls.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pullAll, pushAll } from '../../src/worker/sync/engine.js';
import { describePostgres, usePostgres } from '../helpers/postgres.js';
import { captured, closeDevice, ingestAll, keys, sleep, storeDevice, type StoreDevice } from './engine-helpers.js';

describePostgres('pull in commit order', () => {
  const pg = usePostgres();
  let url: string;
  const open: StoreDevice[] = [];
  const dev = async (name: string) => {
    const d = await storeDevice(name, url);
    open.push(d);
    return d;
  };

  beforeAll(async () => {
    const alice = await pg().createRole('alice');
    await pg().createDatabase('order', alice);
    url = pg().url(alice, 'order');
  });
  afterAll(async () => {
    for (const d of open.splice(0)) await closeDevice(d);
  });

  it('a lower sequence committed after a higher one is not missed', async () => {
    const [a, b, reader] = [await dev('a'), await dev('b'), await dev('reader')];
    ingestAll(a.store, captured('a', 20));
    ingestAll(b.store, captured('b', 20));
    // a takes the lower sequence numbers and holds its transaction open; b commits after it.
    await a.remote.client.query('BEGIN');
    await a.remote.push(a.id, a.store.syncOutbox(0, 1000));
    await pushAll(b.store, b.remote, b.id);
    const aSeq = await a.remote.client.query<{ max: string }>(
      'SELECT max(seq) AS max FROM claude_mem.events WHERE device_id = $1', [a.id]);
    const bSeq = await pg().query<{ min: string }>('SELECT min(seq) AS min FROM claude_mem.events WHERE device_id = $1', [b.id], 'order');
    expect(Number(aSeq.rows[0]!.max)).toBeLessThan(Number(bSeq.rows[0]!.min));

    // b's rows are committed, but a's earlier ones may still come: nothing is taken past them.
    const early = await pullAll(reader.store, reader.remote, reader.id);
    expect(early.pulled).toBe(0);
    await a.remote.client.query('COMMIT');
    const late = await pullAll(reader.store, reader.remote, reader.id);
    expect(late.pulled).toBe(40);
    expect(keys(reader.store)).toEqual([...keys(a.store), ...keys(b.store)].sort());
  }, 60_000);

  it('three devices pushing concurrently while a fourth pulls: no row missed, none twice', async () => {
    const pushers = [await dev('p1'), await dev('p2'), await dev('p3')];
    const reader = await dev('reader2');
    const per = 3000;
    for (const p of pushers) ingestAll(p.store, captured(p.name, per));
    let pushing = true;
    let pulls = 0;
    const slowPush = async (d: StoreDevice) => {
      for (let after = 0; ;) {
        const batch = d.store.syncOutbox(after, 150);
        if (!batch.length) return;
        await d.remote.client.query('BEGIN');
        await d.remote.push(d.id, batch);
        await sleep(Math.random() * 25); // held open: others commit higher sequences meanwhile
        await d.remote.client.query('COMMIT');
        after = batch[batch.length - 1].id;
      }
    };
    const reading = (async () => {
      while (pushing) {
        await pullAll(reader.store, reader.remote, reader.id);
        pulls++;
        await sleep(5);
      }
    })();
    await Promise.all(pushers.map(slowPush));
    pushing = false;
    await reading;
    await pullAll(reader.store, reader.remote, reader.id);
    expect(pulls).toBeGreaterThan(5);

    const expected = pushers.flatMap((p) => keys(p.store)).sort();
    expect(expected).toHaveLength(3 * per);
    const got = new Set(keys(reader.store));
    expect(expected.filter((k) => !got.has(k))).toEqual([]);
    const server = await pg().query<{ n: number; late: number }>(`SELECT count(*)::int AS n,
      count(*) FILTER (WHERE EXISTS (SELECT 1 FROM claude_mem.events f WHERE f.seq > e.seq AND f.txid < e.txid))::int AS late
      FROM claude_mem.events e JOIN claude_mem.devices d USING (device_id) WHERE d.name LIKE 'p%'`, [], 'order');
    expect(server.rows[0]!.n).toBe(3 * per);
    // The interleaving really happened: some rows have a lower sequence than rows committed before them.
    expect(server.rows[0]!.late).toBeGreaterThan(0);
    // The reader derived the same rows as each pusher: per device, one observation per tool result.
    const obs = (d: StoreDevice) => d.store.stats().observations;
    expect(reader.store.stats().observations).toBeGreaterThanOrEqual(pushers.reduce((n, p) => n + obs(p), 0));
  }, 240_000);

  it('a device offline for 10,000 events catches up in one round, and its peers get all of them', async () => {
    const away = await dev('away');
    const peer = await dev('peer');
    ingestAll(away.store, captured('away', 10_000));
    const pushed = await pushAll(away.store, away.remote, away.id);
    expect(pushed).toEqual({ pushed: 10_000, stored: 10_000 });
    expect(away.store.syncPending(Number(away.store.getSyncState().push_after))).toBe(0);
    const pulled = await pullAll(peer.store, peer.remote, peer.id);
    expect(pulled.stored).toBeGreaterThanOrEqual(10_000);
    expect(keys(peer.store, "idem_key LIKE '%away%'")).toEqual(keys(away.store));
    expect(peer.store.stats().observations).toBeGreaterThanOrEqual(away.store.stats().observations);
    // Pushing again sends nothing; a repeat of the last batch (a crash before the cursor was saved) stores nothing.
    expect(await pushAll(away.store, away.remote, away.id)).toEqual({ pushed: 0, stored: 0 });
    const again = await away.remote.push(away.id, away.store.syncOutbox(9_000, 2000));
    expect(again.stored).toBe(0);
  }, 240_000);

  it('a malformed row on the server is skipped and counted; the rest of its page is stored', async () => {
    const writer = await dev('writer');
    const reader = await dev('reader3');
    ingestAll(writer.store, captured('writer', 30));
    await pushAll(writer.store, writer.remote, writer.id);
    await writer.remote.client.query(`INSERT INTO claude_mem.events (device_id, project, idem_key, host, kind, payload, at)
      VALUES ($1, 'github.com/acme/app', 'bad-1', 'claude-code', 'prompt', 'not json', 'x'),
             ($1, 'github.com/acme/app', 'bad-2', 'no-such-host', 'prompt', '{"host":"no-such-host","kind":"prompt"}', 'x')`, [writer.id]);
    ingestAll(writer.store, captured('writer', 10, 50, 30));
    await pushAll(writer.store, writer.remote, writer.id);
    const r = await pullAll(reader.store, reader.remote, reader.id);
    expect(r.skipped).toBe(2);
    const got = new Set(keys(reader.store));
    expect(keys(writer.store).filter((k) => !got.has(k))).toEqual([]);
  }, 60_000);
});
