/**
 * Two checkouts (or install locations) of claude-mem, installed one after the other into one HOME,
 * over an entry an older install left from a third path: one registration per host and event,
 * and an event is stored once.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from '../helpers/temp.js';
import { cleanupWorker, countRows, runBin, waitFor } from '../hook-runtime/helpers.js';
import { cliEnv, ensureBuiltNow, tempHome, write } from './helpers.js';


/** A copy of the built package at a path without "claude-mem" in it, as a second clone would be. */
function checkout(name: string): string {
  const dir = join(tempDir('src'), name);
  mkdirSync(dir, { recursive: true });
  for (const p of ['package.json', 'dist', 'templates']) cpSync(join(REPO_ROOT, p), join(dir, p), { recursive: true });
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  return join(dir, 'dist', 'bin.js');
}

const t = tempHome();
const env = cliEnv(t.env, { PATH: '/usr/bin:/bin' });
const settings = join(t.home, '.claude', 'settings.json');
const OLD = "'/usr/bin/node' '/srv/old-checkout/dist/bin.js' hook claude-code UserPromptSubmit";

beforeAll(() => ensureBuiltNow(), 180_000);
afterAll(() => cleanupWorker(env, t.dataDir));

describe('a second copy of claude-mem', () => {
  it('replaces the entries of the first (and an older install\'s) instead of adding its own', async () => {
    write(settings, `${JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: OLD }] }] } }, null, 2)}\n`);
    for (const bin of [checkout('work'), checkout('elsewhere')]) {
      const r = spawnSync(process.execPath, [bin, 'install', '--yes', '--ide', 'claude-code'], { env, cwd: t.home, encoding: 'utf8', timeout: 120_000 });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/✓ Claude Code +ok/);
    }
    const doc = JSON.parse(readFileSync(settings, 'utf8')) as { hooks: Record<string, Array<{ hooks: Array<{ command: string }> }>> };
    for (const [event, groups] of Object.entries(doc.hooks)) {
      expect(groups.flatMap((g) => g.hooks).map((x) => x.command), event).toEqual([expect.stringContaining(`/runtime/claude-mem.cjs' hook claude-code ${event}`)]);
    }
    // One prompt through the registered command is one stored prompt.
    const command = doc.hooks.UserPromptSubmit[0].hooks[0].command;
    const payload = { hook_event_name: 'UserPromptSubmit', session_id: 'second-copy', cwd: t.home, transcript_path: join(t.home, 't.jsonl'), prompt: 'stored once' };
    const hook = await runBin({ env, command: ['/bin/sh', '-c', command], args: [], stdin: JSON.stringify(payload), cwd: t.home });
    expect([hook.code, hook.stderr]).toEqual([0, '']);
    await waitFor(() => countRows(t.dataDir, "SELECT count(*) AS n FROM prompts WHERE text = 'stored once'") > 0, 15_000);
    expect(countRows(t.dataDir, "SELECT count(*) AS n FROM prompts WHERE text = 'stored once'")).toBe(1);
  }, 240_000);
});
