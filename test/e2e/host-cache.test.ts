/** The real-host package cache installs with a home of its own: install scripts never write a real or test HOME. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';
import { npmInstallEnv } from './support/host-cache.js';

/** A package whose postinstall writes where OpenCode's does: ~/.cache/<name> and ~/.local/state/<name>. */
function packageWithPostinstall(dir: string): string {
  mkdirSync(dir, { recursive: true });
  const script = [
    "const fs = require('fs'); const path = require('path'); const os = require('os');",
    "const home = os.homedir();",
    "for (const d of [path.join(process.env.XDG_CACHE_HOME || path.join(home, '.cache'), 'probe'), path.join(home, '.local', 'state', 'probe')]) {",
    "  fs.mkdirSync(d, { recursive: true }); fs.writeFileSync(path.join(d, 'written'), 'x');",
    "}",
    "fs.writeFileSync(path.join(process.env.INIT_CWD || '.', 'seen.json'), JSON.stringify({ home, cache: process.env.npm_config_cache }));",
  ].join('\n');
  writeFileSync(join(dir, 'postinstall.js'), script);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'probe', version: '1.0.0', scripts: { postinstall: 'node postinstall.js' } }));
  return dir;
}

describe('host package cache', () => {
  it('npm and the install scripts get a home inside the cache, not the test HOME nor the real one', () => {
    const root = tempDir('cache');
    const testHome = process.env.HOME!;
    // What `npm test` exports, and a registry setting that must still reach npm.
    const env = npmInstallEnv(root, { ...process.env, npm_config_cache: join(testHome, '.npm'), npm_config_registry: 'http://127.0.0.1:9/' });
    expect(env.npm_config_registry).toBe('http://127.0.0.1:9/');
    for (const k of ['HOME', 'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'npm_config_cache']) {
      expect(env[k]!.startsWith(`${root}/`), `${k}=${env[k]}`).toBe(true);
    }

    const pkg = packageWithPostinstall(join(root, 'src', 'probe'));
    const prefix = join(root, 'probe-1.0.0');
    mkdirSync(prefix, { recursive: true });
    const r = spawnSync('npm', ['install', '--prefix', prefix, '--no-save', '--no-package-lock', '--offline', pkg], { env: { ...env, INIT_CWD: prefix }, cwd: prefix, encoding: 'utf8', timeout: 120_000 });
    expect(r.status, r.stderr).toBe(0);
    const seen = JSON.parse(readFileSync(join(prefix, 'seen.json'), 'utf8')) as { home: string; cache: string };
    expect(seen.home).toBe(join(root, 'npm-home'));
    expect(seen.cache.startsWith(`${root}/`)).toBe(true);
    expect(existsSync(join(root, 'npm-home', '.cache', 'probe', 'written'))).toBe(true);
    expect(existsSync(join(root, 'npm-home', '.local', 'state', 'probe', 'written'))).toBe(true);
    expect(existsSync(join(testHome, '.cache', 'probe'))).toBe(false);
    expect(existsSync(join(testHome, '.local', 'state', 'probe'))).toBe(false);
  }, 120_000);
});
