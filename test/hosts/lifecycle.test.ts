/**
 * Each host on its own fixture HOME: install gives exactly the expected files, a second install
 * writes nothing, uninstall gives back every original byte and removes every file it created.
 */
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedFiles, install, makeHome, MY_HOSTS, planFor, read, snapshot, uninstall, writeExpected } from './helpers.js';

function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after].filter(([k, v]) => !k.endsWith('/') && before.get(k) !== v).map(([k]) => k).sort();
}

describe.each(MY_HOSTS)('%s on its fixture HOME', (id) => {
  it('installs the expected files, reinstalls as a no-op and uninstalls byte for byte', async () => {
    const h = makeHome([id]);
    const before = snapshot(h.home);

    const first = await install(h, (await planFor([id], h)).changes);
    expect(first.summary.failed).toEqual([]);
    expect(first.plan.filter((f) => f.error)).toEqual([]);
    if (process.env.UPDATE_EXPECTED) writeExpected(id, h, first.summary.written.map((p) => relative(h.home, p)));

    const after = snapshot(h.home);
    const expected = expectedFiles(id);
    expect(changedFiles(before, after)).toEqual([...expected.keys()].sort());
    for (const [rel, text] of expected) expect(read(join(h.home, rel)), rel).toBe(text);
    for (const key of before.keys()) expect(after.has(key), key).toBe(true);

    const second = await install(h, (await planFor([id], h)).changes);
    expect(second.summary.written).toEqual([]);
    expect(second.plan.every((f) => !f.changed)).toBe(true);
    expect(snapshot(h.home)).toEqual(after);

    const reverted = await uninstall(h);
    expect(reverted.failed).toEqual([]);
    expect(snapshot(h.home)).toEqual(before);
  });
});
