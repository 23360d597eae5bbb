/**
 * The interactive install in a real pseudo-terminal (util-linux `script`), keys typed as a user
 * would: Enter through the defaults installs the detected hosts; Ctrl-C or Esc at a prompt
 * changes nothing and exits 130.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DIST_BIN } from '../helpers/temp.js';
import { ensureBuiltNow, tempHome, treeHash } from './helpers.js';

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
if (!hasScript) console.warn('\n⚠ PTY TESTS SKIPPED: util-linux `script` is not installed; the injected-prompt tests still cover the flow\n');

// eslint-disable-next-line no-control-regex
const plain = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');

/** Runs `claude-mem <args>` on a 120×50 pty; each step waits for a text, then types keys. */
function onPty(home: string, args: string, steps: Array<[string, string]>): Promise<{ code: number | null; screen: string }> {
  const cmd = `stty cols 120 rows 50; exec '${process.execPath}' '${DIST_BIN}' ${args}`;
  const env = {
    HOME: home, PATH: '/usr/bin:/bin', TERM: 'xterm-256color', LANG: 'C.UTF-8',
    XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), CLAUDE_MEM_DATA_DIR: join(home, '.claude-mem'),
  };
  return new Promise((resolve) => {
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const kill = setTimeout(() => child.kill('SIGKILL'), 40_000);
    void (async () => {
      // Each step waits for its text to appear after the previous step's match (prompts repeat).
      let from = 0;
      for (const [wait, keys] of steps) {
        const until = Date.now() + 20_000;
        let at = -1;
        while ((at = plain(out).indexOf(wait, from)) < 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
        from = at < 0 ? from : at + wait.length;
        await new Promise((r) => setTimeout(r, 200)); // let the prompt finish drawing
        child.stdin.write(keys);
      }
    })();
    child.on('close', (code) => {
      clearTimeout(kill);
      resolve({ code, screen: plain(out) });
    });
  });
}

function home(): string {
  const t = tempHome();
  mkdirSync(join(t.home, '.claude'), { recursive: true });
  writeFileSync(join(t.home, '.claude', 'settings.json'), '{\n  // mine\n  "model": "opus"\n}\n');
  return t.home;
}

beforeAll(() => ensureBuiltNow(), 180_000);

describe.skipIf(!hasScript)('interactive install on a pseudo-terminal', () => {
  it('Enter, Enter: installs the detected host, shows the plan and an honest summary', async () => {
    const h = home();
    const r = await onPty(h, 'install --no-start', [['Which hosts should share memory?', '\r'], ['Go ahead?', '\r']]);
    expect(r.code, r.screen).toBe(0);
    expect(r.screen).toMatch(/claude-mem \d+\.\d+\.\d+/);
    expect(r.screen).toMatch(/1 of 18 hosts found on this machine/);
    expect(r.screen).toMatch(/The plan[\s\S]*Claude Code \(native hooks\)[\s\S]*modify ~\/\.claude\/settings\.json/);
    expect(r.screen).toMatch(/Summary[\s\S]*✓ Claude Code +ok/);
    expect(readFileSync(join(h, '.claude', 'settings.json'), 'utf8')).toContain(' hook claude-code ');
    expect(readFileSync(join(h, '.claude', 'settings.json'), 'utf8')).toContain('// mine');
  }, 60_000);

  it('Ctrl-C at the host question: nothing changed, exit 130', async () => {
    const h = home();
    const before = treeHash(h);
    const r = await onPty(h, 'install', [['Which hosts should share memory?', '\x03']]);
    expect(r.code, r.screen).toBe(130);
    expect(r.screen).toContain('Cancelled. Nothing was changed.');
    expect(treeHash(h)).toBe(before);
    expect(existsSync(join(h, '.claude-mem'))).toBe(false);
  }, 60_000);

  it('Esc at the go-ahead question, after viewing the diffs: nothing changed, exit 130', async () => {
    const h = home();
    const before = treeHash(h);
    const r = await onPty(h, 'install', [['Which hosts should share memory?', '\r'], ['Go ahead?', '\x1b[B\r'], ['+++ ', ''], ['Go ahead?', '\x1b']]);
    expect(r.code, r.screen).toBe(130);
    expect(r.screen).toMatch(/^\+.* hook claude-code /m);
    expect(treeHash(h)).toBe(before);
  }, 60_000);
});
