/** `claude-mem … | head`: when the reader of stdout goes away, the command ends quietly. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIST_BIN } from '../helpers/temp.js';
import { cli, cliEnv, ensureBuiltNow, tempHome, write } from './helpers.js';

/** Runs the CLI with its stdout pipe closed on our side before it writes anything, as `| head -0` would. */
function withClosedStdout(env: NodeJS.ProcessEnv, args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DIST_BIN, ...args], { env, cwd: env.HOME, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

beforeAll(() => ensureBuiltNow(), 180_000);

describe('a reader that goes away', () => {
  it('install --dry-run, uninstall and search end with their own exit code and nothing on stderr', async () => {
    const t = tempHome();
    const env = cliEnv(t.env, { PATH: '/usr/bin:/bin' });
    write(join(t.home, '.claude', 'settings.json'), '{}\n');
    expect(cli(env, ['install', '--yes', '--ide', 'claude-code', '--no-start']).code).toBe(0);
    for (const args of [['install', '--dry-run', '--ide', 'all'], ['search', 'anything'], ['uninstall', '--yes'], ['uninstall', '--yes']]) {
      const r = await withClosedStdout(env, args);
      expect(r.stderr, args.join(' ')).not.toMatch(/EPIPE|Error/);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    // The uninstall really ran although nobody read what it said.
    expect(cli(env, ['uninstall', '--yes']).stdout).toMatch(/Nothing to uninstall/);
  }, 120_000);
});
