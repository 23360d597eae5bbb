/**
 * What is ours in a host file, at the finest grain: our entries are recognised by what they are
 * (any install path, any older matcher), a second copy of ours is never kept, and a hook the user
 * put inside our group stays theirs through re-install and uninstall.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadManifest, type Change } from '../../src/npx-cli/engine/index.js';
import { claudeHookUpserts } from '../../src/npx-cli/hosts/common/changes.js';
import { hookCommand } from '../../src/npx-cli/hosts/common/command.js';
import { install, read, setup, uninstall, write } from './helpers.js';

const LAUNCHER = { nodePath: '/usr/bin/node', entryPath: "/home/Jane O'Neil/.claude-mem/runtime/claude-mem.cjs" };
const CHECKOUT = { nodePath: '/usr/bin/node', entryPath: '/work/main/dist/bin.js' };
const OTHER = { nodePath: '/opt/node', entryPath: '/srv/checkouts/two/dist/bin.js' };
const SPEC = [{ event: 'Stop', timeout: 10 }];
const group = (rt: typeof LAUNCHER, extra: object[] = []) => ({ hooks: [{ type: 'command', command: hookCommand(rt, 'claude-code', 'Stop'), timeout: 10 }, ...extra] });
const userHook = { type: 'command', command: '~/bin/notify.sh' };
const settings = (stop: unknown[]) => `${JSON.stringify({ model: 'opus', hooks: { Stop: stop } }, null, 2)}\n`;

describe('our entries, by what they are', () => {
  it('an older checkout\'s and a second copy\'s groups become one of ours; the user\'s group stays in place', async () => {
    const ctx = setup();
    const mine = { matcher: 'x', hooks: [userHook] };
    const file = write(join(ctx.dir, 'settings.json'), settings([group(CHECKOUT), mine, group(OTHER)]));
    const { summary } = await install(ctx, claudeHookUpserts(file, 'claude-code', LAUNCHER, SPEC));
    expect(summary.failed).toEqual([]);
    expect(JSON.parse(read(file)).hooks.Stop).toEqual([group(LAUNCHER), mine]);
    // Installing again finds it in place.
    const again = await install(ctx, claudeHookUpserts(file, 'claude-code', LAUNCHER, SPEC));
    expect(again.summary.written).toEqual([]);
    await uninstall(ctx);
    expect(JSON.parse(read(file)).hooks.Stop).toEqual([mine]);
  });

  it('a record written with an older matcher gives way to the new one, keeping what the first install replaced', async () => {
    const ctx = setup();
    const original = settings([{ hooks: [userHook] }]);
    const file = write(join(ctx.dir, 'settings.json'), original);
    // How an earlier version matched a checkout: by its exact quoted path.
    const old: Change = { kind: 'json-array-upsert', file, host: 'claude-code', path: ['hooks', 'Stop'], match: [{ contains: "'/work/main/dist/bin.js'" }, { contains: ' hook claude-code Stop' }], entry: group(CHECKOUT) };
    await install(ctx, [old]);
    await install(ctx, claudeHookUpserts(file, 'claude-code', LAUNCHER, SPEC));
    const records = loadManifest(ctx.manifestPath).hosts['claude-code'].files[file].changes;
    expect(records).toHaveLength(1);
    expect(records[0].change).toMatchObject({ match: [{ pattern: expect.any(String) }] });
    expect(JSON.parse(read(file)).hooks.Stop).toEqual([{ hooks: [userHook] }, group(LAUNCHER)]);
    await uninstall(ctx);
    expect(read(file)).toBe(original);
  });
});

describe('a group that is partly the user\'s', () => {
  it('re-install updates only our handler in it; uninstall removes only ours, keeps the group and says so', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'settings.json'), settings([]));
    await install(ctx, claudeHookUpserts(file, 'claude-code', CHECKOUT, SPEC));
    // The user adds their own hook inside the group install created.
    const doc = JSON.parse(read(file));
    doc.hooks.Stop[0].hooks.push(userHook);
    write(file, `${JSON.stringify(doc, null, 2)}\n`);

    await install(ctx, claudeHookUpserts(file, 'claude-code', LAUNCHER, SPEC));
    expect(JSON.parse(read(file)).hooks.Stop).toEqual([group(LAUNCHER, [userHook])]);

    const summary = await uninstall(ctx);
    expect(JSON.parse(read(file)).hooks.Stop).toEqual([{ hooks: [userHook] }]);
    expect(summary.files[0].notes).toEqual(["hooks.Stop: kept the group you added your own hooks entries to; removed only claude-mem's"]);
  });

  it('an old manifest record (no `inner`) still removes only our handler', async () => {
    const ctx = setup();
    const file = write(join(ctx.dir, 'settings.json'), settings([]));
    const [c] = claudeHookUpserts(file, 'claude-code', LAUNCHER, SPEC);
    const { inner: _inner, ...legacy } = c;
    await install(ctx, [legacy as Change]);
    const doc = JSON.parse(read(file));
    doc.hooks.Stop[0].hooks.unshift(userHook);
    write(file, `${JSON.stringify(doc, null, 2)}\n`);
    await uninstall(ctx);
    expect(JSON.parse(read(file)).hooks.Stop).toEqual([{ hooks: [userHook] }]);
  });
});
