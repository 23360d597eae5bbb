// Pins across machines: each observation's last pin or unpin wins everywhere, by a hybrid logical
// clock (docs/sync.md), whichever machine syncs first; edits made on two machines before either
// syncs resolve the same way on both.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pullAll, pushAll } from '../../src/worker/sync/engine.js';
import { describePostgres, usePostgres } from '../helpers/postgres.js';
import { captured, closeDevice, ingestAll, sleep, storeDevice, type StoreDevice } from './engine-helpers.js';

describePostgres('pins across machines', () => {
  const pg = usePostgres();
  let a: StoreDevice;
  let b: StoreDevice;
  let obsA: number;
  let obsB: number;

  beforeAll(async () => {
    const alice = await pg().createRole('alice');
    await pg().createDatabase('pins', alice);
    const url = pg().url(alice, 'pins');
    a = await storeDevice('a', url);
    b = await storeDevice('b', url);
    ingestAll(a.store, captured('a', 10));
    await round(a);
    await round(b);
    obsA = firstObservation(a);
    obsB = firstObservation(b);
  });
  afterAll(async () => {
    await closeDevice(a);
    await closeDevice(b);
  });

  function firstObservation(d: StoreDevice): number {
    return (d.store as unknown as { db: { prepare(s: string): { pluck(): { get(): number } } } }).db
      .prepare(`SELECT o.id FROM observations o WHERE o.tool_use_id = 'toolu_a_3'`).pluck().get();
  }
  const pinned = (d: StoreDevice) => d.store.listPins().map((p) => p.obsKey);
  async function round(d: StoreDevice) {
    await pushAll(d.store, d.remote, d.id);
    await pullAll(d.store, d.remote, d.id);
  }

  it('a pin made on one machine reaches the other', async () => {
    expect(obsB).toBeGreaterThan(0);
    a.store.pin(obsA);
    await round(a);
    await round(b);
    expect(pinned(b)).toEqual(pinned(a));
    expect(pinned(b)).toHaveLength(1);
  });

  it('concurrent edits: the later one wins on both, whichever syncs first (pin wins here)', async () => {
    a.store.unpin(obsA); // earlier
    await sleep(5);
    b.store.unpin(obsB);
    await sleep(5);
    b.store.pin(obsB); // latest
    await round(b);
    await round(a);
    await round(b);
    expect(pinned(a)).toHaveLength(1);
    expect(pinned(b)).toEqual(pinned(a));
  });

  it('concurrent edits: the later one wins on both, whichever syncs first (unpin wins here)', async () => {
    b.store.unpin(obsB);
    await sleep(5);
    b.store.pin(obsB);
    await sleep(5);
    a.store.unpin(obsA); // latest
    await round(b); // the earlier edit reaches the server first
    await round(a);
    await round(b);
    expect(pinned(a)).toEqual([]);
    expect(pinned(b)).toEqual([]);
  });

  it('the clock never runs backwards past what a machine has seen', async () => {
    const versions = (d: StoreDevice) => (d.store as unknown as { db: { prepare(s: string): { all(): { hlc: string }[] } } }).db
      .prepare('SELECT hlc FROM pin_versions').all();
    const seen = versions(b)[0]!.hlc;
    // b pins again: its stamp is above the one it pulled from a, whatever b's own clock says.
    b.store.pin(obsB);
    const next = versions(b)[0]!.hlc;
    expect(next > seen).toBe(true);
    expect(next.endsWith(`@${b.id}`)).toBe(true);
    await round(b);
    await round(a);
    expect(pinned(a)).toHaveLength(1);
  });
});
