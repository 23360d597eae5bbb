/**
 * A host is installed whole or not at all. Claude Code's settings.json made immutable (`chattr +i`:
 * the rename over it fails with EPERM) while ~/.claude.json is writable: nothing of Claude Code
 * stays, the summary says exactly what happened to each file, the other host is installed, exit 1.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadManifest } from '../../src/npx-cli/engine/index.js';
import { cli, cliEnv, ensureBuiltNow, tempHome, write } from './helpers.js';

const immutable: string[] = [];

/** chattr +i, or undefined where the file system or the account does not allow it. */
function makeImmutable(path: string): boolean {
  const ok = spawnSync('chattr', ['+i', path]).status === 0;
  if (ok) immutable.push(path);
  return ok;
}

afterEach(() => {
  for (const p of immutable.splice(0)) spawnSync('chattr', ['-i', p]);
});

beforeAll(() => ensureBuiltNow(), 180_000);

interface Doc { ok: boolean; hosts: Array<{ id: string; status: string; reason?: string; files: Array<{ path: string; action: string; notes?: string[] }> }> }

describe('all or nothing per host', () => {
  it('an immutable settings.json rolls Claude Code back entirely; Codex is installed; exit 1', () => {
    const t = tempHome();
    const env = cliEnv(t.env, { PATH: '/usr/bin:/bin' });
    const settings = write(join(t.home, '.claude', 'settings.json'), '{\n  "model": "opus"\n}\n');
    const claudeJson = write(join(t.home, '.claude.json'), '{"theme":"dark"}\n');
    write(join(t.home, '.codex', 'config.toml'), 'model = "o4"\n');
    if (!makeImmutable(settings)) {
      console.warn('\n⚠ SKIPPED: chattr +i is not available here (needs root on a file system with attributes)\n');
      return;
    }
    const r = cli(env, ['install', '--yes', '--ide', 'claude-code', 'codex', '--no-start', '--json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as Doc;
    const claude = doc.hosts.find((h) => h.id === 'claude-code')!;
    expect(claude.status).toBe('failed');
    expect(claude.reason).toMatch(/EPERM|operation not permitted/i);
    expect(claude.reason).toMatch(/nothing of Claude Code was changed/);
    expect(claude.files).toHaveLength(2);
    expect(claude.files).toEqual(expect.arrayContaining([
      { path: settings, action: 'not-written', notes: [expect.stringMatching(/EPERM|not permitted/i)] },
      { path: claudeJson, action: 'rolled-back', notes: ['written, then put back as it was'] },
    ]));
    expect(readFileSync(claudeJson, 'utf8')).toBe('{"theme":"dark"}\n');
    expect(readFileSync(settings, 'utf8')).toBe('{\n  "model": "opus"\n}\n');
    expect(doc.hosts.find((h) => h.id === 'codex')!.status).toBe('ok');
    // The manifest records nothing of Claude Code: uninstall will not look for what is not there.
    expect(Object.keys(loadManifest(join(t.dataDir, 'install-manifest.json')).hosts)).toEqual(['codex']);

    // In words, on stderr: the host failed, each file's fate.
    const human = cli(env, ['install', '--yes', '--ide', 'claude-code', '--no-start']);
    expect(human.code).toBe(1);
    expect(human.stderr).toMatch(/✗ Claude Code +failed .*nothing of Claude Code was changed/);
    expect(human.stderr).toMatch(/not written ~\/\.claude\/settings\.json/);
    expect(human.stderr).toMatch(/put back +~\/\.claude\.json/);
    expect(readFileSync(claudeJson, 'utf8')).toBe('{"theme":"dark"}\n');
  }, 90_000);
});
