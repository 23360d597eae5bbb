/** Which `claude-mem …` in a message is a command, and the form it is printed in. */
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandForm, onPath, runnable } from '../../src/npx-cli/command-form.js';
import { tempHome } from '../helpers/temp.js';

/** A data directory with the shim, the launcher and a program in place. */
function installed(dataDir: string): void {
  mkdirSync(join(dataDir, 'bin'), { recursive: true });
  mkdirSync(join(dataDir, 'runtime', 'copy', 'dist'), { recursive: true });
  writeFileSync(join(dataDir, 'runtime', 'copy', 'dist', 'bin.js'), '');
  writeFileSync(join(dataDir, 'runtime', 'claude-mem.cjs'), '');
  symlinkSync('copy', join(dataDir, 'runtime', 'current'));
  writeFileSync(join(dataDir, 'bin', 'claude-mem'), '#!/bin/sh\n');
  chmodSync(join(dataDir, 'bin', 'claude-mem'), 0o755);
}

describe('printed commands', () => {
  it('rewrites commands, not prose, paths or the hook hosts run', () => {
    const t = tempHome();
    installed(t.dataDir);
    const env = { ...t.env, PATH: '/usr/bin:/bin' };
    expect(runnable('run `claude-mem install --ide codex` (or claude-mem doctor)', false, env)).toBe('run `~/.claude-mem/bin/claude-mem install --ide codex` (or ~/.claude-mem/bin/claude-mem doctor)');
    expect(runnable('fix: claude-mem start', true, env)).toBe(`fix: ${t.dataDir}/bin/claude-mem start`);
    for (const prose of ['one claude-mem hook per event', 'claude-mem hooks are trusted', 'claude-mem 0.1.0', 'see ~/.claude-mem install-manifest.json', "claude-mem's MCP server"]) {
      expect(runnable(prose, false, env)).toBe(prose);
    }
  });

  it('claude-mem on PATH (here: the shim) is printed bare; npm\'s node_modules/.bin does not count', () => {
    const t = tempHome();
    installed(t.dataDir);
    expect(onPath({ ...t.env, PATH: `${join(t.dataDir, 'bin')}:/usr/bin` })).toBe(true);
    expect(runnable('claude-mem doctor', false, { ...t.env, PATH: `${join(t.dataDir, 'bin')}:/usr/bin` })).toBe('claude-mem doctor');
    const npx = join(t.home, '.npm', '_npx', 'abc', 'node_modules', '.bin');
    mkdirSync(npx, { recursive: true });
    symlinkSync(join(t.dataDir, 'bin', 'claude-mem'), join(npx, 'claude-mem'));
    expect(onPath({ ...t.env, PATH: `${npx}:/usr/bin` })).toBe(false);
  });

  it('before anything is installed: exactly what runs now', () => {
    const t = tempHome();
    const form = commandForm({ ...t.env, PATH: '/usr/bin:/bin' });
    expect(form.shown).toBe(form.exact);
    expect(form.shown).toMatch(/^'[^']+node[^']*' '[^']+'$/);
  });
});
