/** The hook bundle's code cache: used only for the exact source it was made from and only intact, never in the way. */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../../src/code-cache.js';
import { REPO_ROOT, tempDir, tempHome } from '../helpers/temp.js';
import { ensureBuilt, hookEnv, NO_AUTOSTART } from './helpers.js';

interface Probe {
  value(): string;
  file: string;
}

function bundle(text: string): { file: string; cache: string } {
  const dir = tempDir('code-cache');
  const file = join(dir, 'bundle.js');
  writeFileSync(file, `module.exports = { value: () => ${JSON.stringify(text)}, file: __filename };\n`);
  return { file, cache: join(dir, 'bundle.cache') };
}

/**
 * Flips bytes between 3/8 and 5/8 of the file, keeping its length: in the hook's cache that is the
 * first copy of the code, enough damage to make V8 abort if it were used.
 */
function damage(file: string): void {
  const data = readFileSync(file);
  for (let i = Math.floor((data.length * 3) / 8); i < Math.floor((data.length * 5) / 8); i += 97) data[i] ^= 0x5a;
  writeFileSync(file, data);
}

describe('loadBundle', () => {
  it('compiles without a cache, writes one, then runs from it', () => {
    const { file, cache } = bundle('first');
    const cold = loadBundle<Probe>(file, cache);
    expect(cold.fromCache).toBe(false);
    expect(cold.exports.value()).toBe('first');
    expect(cold.exports.file).toBe(file);
    cold.save();
    expect(existsSync(cache)).toBe(true);
    const warm = loadBundle<Probe>(file, cache);
    expect(warm.fromCache).toBe(true);
    expect(warm.exports.value()).toBe('first');
  });

  /** The cache is not used, the bundle still runs, and its save() leaves a cache the next run uses. */
  function expectRecompiledAndRecached(file: string, cache: string, value: string): void {
    const next = loadBundle<Probe>(file, cache);
    expect(next.fromCache).toBe(false);
    expect(next.exports.value()).toBe(value);
    next.save();
    expect(loadBundle<Probe>(file, cache).fromCache).toBe(true);
  }

  it('ignores a cache made from another source, even of the same length', () => {
    const { file, cache } = bundle('AAAA');
    loadBundle<Probe>(file, cache).save();
    writeFileSync(file, readFileSync(file, 'utf8').replace('AAAA', 'BBBB'));
    expectRecompiledAndRecached(file, cache, 'BBBB');
  });

  it('ignores a damaged, cut short or foreign cache, and replaces it', () => {
    const { file, cache } = bundle('damaged');
    loadBundle<Probe>(file, cache).save();
    const good = readFileSync(cache);
    for (const bad of [() => damage(cache), () => writeFileSync(cache, good.subarray(0, good.length - 200)), () => writeFileSync(cache, 'x')]) {
      bad();
      expectRecompiledAndRecached(file, cache, 'damaged');
    }
  });

  it('runs without a cache where none can be written', () => {
    const { file } = bundle('read-only');
    const cache = join(tempDir('gone'), 'missing-dir', 'bundle.cache');
    const b = loadBundle<Probe>(file, cache);
    expect(() => b.save()).not.toThrow();
    expect(existsSync(cache)).toBe(false);
    expect(b.exports.value()).toBe('read-only');
  });
});

describe('the hook with its cache', () => {
  beforeAll(() => ensureBuilt(), 180_000);

  /** A copy of the built entry and hook bundle, so this test owns its cache file. */
  function installCopy(): string {
    const dir = tempDir('dist-copy');
    for (const f of ['bin.js', 'hook.js', 'package.json']) copyFileSync(join(REPO_ROOT, 'dist', f), join(dir, f));
    return dir;
  }

  const run = (dir: string, env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, [join(dir, 'bin.js'), 'hook', 'claude-code', 'PostToolUse'], { env, input: '{}', encoding: 'utf8', timeout: 20_000 });

  it('writes the cache on its first run and is unharmed by a damaged one', () => {
    const dir = installCopy();
    const env = hookEnv(tempHome().env, NO_AUTOSTART);
    const first = run(dir, env);
    expect(first.status).toBe(0);
    expect(first.stderr).toBe('');
    const caches = readdirSync(dir).filter((f) => /^hook\..+\.cache$/.test(f));
    expect(caches).toHaveLength(1);
    const cache = join(dir, caches[0]);
    expect(statSync(cache).size).toBeGreaterThan(statSync(join(dir, 'hook.js')).size);
    damage(cache);
    const damaged = run(dir, env);
    expect(damaged.status).toBe(0);
    expect(damaged.stderr).toBe('');
    const again = run(dir, env);
    expect(again.status).toBe(0);
    expect(again.stderr).toBe('');
  });
});
