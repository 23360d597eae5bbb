import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { applyPlan, planChanges, revertFromManifest, type Change } from '../../src/npx-cli/engine/index.js';
import { tempDir } from '../helpers/temp.js';

export interface Ctx {
  /** A directory whose name has a space and an apostrophe, like many real home paths. */
  dir: string;
  manifestPath: string;
  backupsDir: string;
}

export function setup(): Ctx {
  const root = tempDir('engine');
  const dir = join(root, "Jane O'Neil", 'My Config');
  mkdirSync(dir, { recursive: true });
  const data = join(root, '.claude-mem');
  return { dir, manifestPath: join(data, 'install-manifest.json'), backupsDir: join(data, 'backups') };
}

export function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return path;
}

export const read = (path: string) => readFileSync(path, 'utf8');

/** Inode, mtime and size: a rename-based write always changes the inode. */
export function stamp(path: string): string {
  const s = statSync(path);
  return `${s.ino}:${s.mtimeMs}:${s.size}`;
}

export async function install(ctx: Ctx, changes: Change[]) {
  const plan = await planChanges(changes);
  const summary = await applyPlan(plan, ctx);
  return { plan, summary };
}

export const uninstall = (ctx: Ctx, hosts?: string[]) => revertFromManifest(ctx.manifestPath, { hosts });

/** Hash of every file (path, mode, bytes) under `root`. */
export function treeHash(root: string): string {
  const h = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else h.update(`${p}\0${s.mode}\0`).update(readFileSync(p));
      h.update('\0');
    }
  };
  walk(root);
  return h.digest('hex');
}

/**
 * The standard life cycle for one file: install gives exactly `expected`; a second install writes
 * nothing; uninstall gives back the original bytes.
 */
export async function lifeCycle(ctx: Ctx, path: string, original: string | null, changes: Change[], expected: string) {
  const first = await install(ctx, changes);
  expect(first.summary.failed).toEqual([]);
  expect(read(path)).toBe(expected);
  const before = stamp(path);
  const manifestBefore = stamp(ctx.manifestPath);
  const second = await install(ctx, changes);
  expect(second.summary.written).toEqual([]);
  expect(second.plan.every((f) => !f.changed)).toBe(true);
  expect(stamp(path)).toBe(before);
  expect(stamp(ctx.manifestPath)).toBe(manifestBefore);
  expect(read(path)).toBe(expected);
  const reverted = await uninstall(ctx);
  expect(reverted.failed).toEqual([]);
  if (original === null) expect(() => statSync(path)).toThrow();
  else expect(read(path)).toBe(original);
  return { first, reverted };
}
