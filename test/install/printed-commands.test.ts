/**
 * Every command the product prints works as printed. `npm run quickstart` (node dist/bin.js
 * install --yes) does not put claude-mem on PATH, so the messages of install, doctor, status and
 * uninstall name the shim install wrote; with the shim's folder on PATH they say `claude-mem`.
 * Each printed command is run, as printed, through sh in the same HOME.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli, cliEnv, ensureBuiltNow, tempHome, write } from './helpers.js';

const SUBCOMMAND = '(?:install|uninstall|doctor|status|start|stop|restart|search|mcp|transcript|forget|export|import)';
/** A printed command: the shim (~/… or absolute), `node` + an entry, or claude-mem itself, then a subcommand. */
const PRINTED = new RegExp(`('[^'\\n]+' '[^'\\n]+/dist/bin\\.js'|~?[\\w./-]*/claude-mem|(?<![\\w./-])claude-mem) (${SUBCOMMAND})\\b`, 'g');

function printed(text: string): Array<{ prefix: string; sub: string }> {
  return [...text.matchAll(PRINTED)].map((m) => ({ prefix: m[1], sub: m[2] }));
}

/** Runs `<prefix> <sub> --help` through sh, as a person pasting it would. */
function works(prefix: string, sub: string, env: NodeJS.ProcessEnv): boolean {
  return spawnSync('/bin/sh', ['-c', `${prefix} ${sub} --help`], { env, cwd: env.HOME, encoding: 'utf8', timeout: 30_000 }).status === 0;
}

beforeAll(() => ensureBuiltNow(), 180_000);

describe('printed commands', () => {
  it('off PATH: install, doctor, status and uninstall name the shim, and each printed command runs', () => {
    const t = tempHome();
    const env = cliEnv(t.env, { PATH: '/usr/bin:/bin' });
    const out: string[] = [];
    const run = (args: string[]) => {
      const r = cli(env, args);
      out.push(r.stdout, r.stderr);
      return r;
    };
    run(['install', '--dry-run']);
    run(['install', '--yes', '--no-start']); // no host here: "To add one later: …"
    write(join(t.home, '.claude', 'settings.json'), '{ "disableAllHooks": true }\n');
    run(['install', '--yes', '--ide', 'claude-code', '--no-start']);
    run(['status']);
    run(['doctor']);
    run(['uninstall', '--yes', '--ide', 'claude-code']);
    const all = out.join('\n');
    const commands = printed(all);
    expect(commands.length).toBeGreaterThan(5);
    expect(commands.map((c) => c.sub)).toEqual(expect.arrayContaining(['install', 'start', 'uninstall']));
    // Never the bare name here: it is not on this PATH.
    expect(commands.filter((c) => c.prefix === 'claude-mem')).toEqual([]);
    expect(all).toContain('~/.claude-mem/bin/claude-mem install --ide <host>');
    expect(all).toMatch(/add this line to your shell profile: export PATH="\$HOME\/\.claude-mem\/bin:\$PATH"/);
    if (process.env.SHOW) console.log([...new Set(commands.map((c) => `${c.prefix} ${c.sub}`))].join("\n"));
    const seen = new Set<string>();
    for (const c of commands) {
      const key = `${c.prefix} ${c.sub}`;
      if (seen.has(key)) continue;
      seen.add(key);
      expect(works(c.prefix, c.sub, env), key).toBe(true);
    }
  }, 180_000);

  it('with the shim on PATH: the bare name, which runs', () => {
    const t = tempHome();
    const env = cliEnv(t.env, { PATH: '/usr/bin:/bin' });
    expect(cli(env, ['install', '--yes', '--no-start']).code).toBe(0);
    const onPath = { ...env, PATH: `${join(t.dataDir, 'bin')}:/usr/bin:/bin` };
    const r = cli(onPath, ['install', '--yes', '--no-start']);
    expect(r.stdout).toContain('To add one later: claude-mem install --ide <host>');
    expect(r.stdout).not.toMatch(/not on your PATH/);
    expect(works('claude-mem', 'install', onPath)).toBe(true);
  }, 60_000);
});
