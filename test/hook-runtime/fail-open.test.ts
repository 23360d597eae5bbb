/**
 * Whatever the host sends and whatever state the machine is in, the hook exits 0, prints nothing
 * on stderr, and prints only what the host accepts on stdout.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TRUNCATION_MARKER } from '../../src/shared/capture-event.js';
import { REPO_ROOT, tempDir, tempHome } from '../helpers/temp.js';
import { claudePayload, ensureBuilt, hookEnv, NO_AUTOSTART, runBin, runHook } from './helpers.js';

/** Empty, or JSON that neither blocks nor stops the host. */
function expectValidClaudeOutput(stdout: string): void {
  const text = stdout.trim();
  if (!text) return;
  const out = JSON.parse(text) as Record<string, unknown>;
  expect(out.decision).not.toBe('block');
  expect(out.continue).not.toBe(false);
}

function spoolText(dataDir: string): string {
  const dir = join(dataDir, 'spool');
  if (!existsSync(dir)) return '';
  return readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => readFileSync(join(dir, f), 'utf8')).join('');
}

function setup(extra: NodeJS.ProcessEnv = {}) {
  const h = tempHome();
  return { ...h, env: hookEnv(h.env, { ...NO_AUTOSTART, ...extra }) };
}

const post = (id: string) => JSON.stringify(claudePayload('005-PostToolUse.json', { session_id: `sess-${id}`, tool_use_id: `toolu_${id}`, cwd: '/tmp' }));

beforeAll(() => ensureBuilt(), 180_000);

describe('hook fails open', () => {
  const inputs: [string, string[], string | null][] = [
    ['bad JSON', ['claude-code', 'PostToolUse'], '{"session_id": "abc", "tool_name": oops'],
    ['empty stdin', ['claude-code', 'PostToolUse'], ''],
    ['no stdin at all', ['claude-code', 'PostToolUse'], null],
    ['binary garbage', ['claude-code', 'UserPromptSubmit'], '\u0000\u00ff\ufffd\u0001{{{'],
    ['a JSON array', ['claude-code', 'PostToolUse'], '[1,2,3]'],
    ['JSON null', ['claude-code', 'SessionStart'], 'null'],
    ['bad JSON on a context event', ['claude-code', 'SessionStart'], '{"session_id":'],
    ['an unknown event', ['claude-code', 'NoSuchEvent'], post('unknown-event')],
    ['an unknown host', ['no-such-host', 'PostToolUse'], post('unknown-host')],
    ['no host and no event', [], ''],
    ['a hostile session id', ['claude-code', 'PostToolUse'], JSON.stringify(claudePayload('005-PostToolUse.json', { session_id: '../../etc/passwd', cwd: '/tmp' }))],
    ['a relative cwd', ['claude-code', 'UserPromptSubmit'], JSON.stringify(claudePayload('003-UserPromptSubmit.json', { cwd: 'relative/dir' }))],
  ];
  for (const [name, args, stdin] of inputs) {
    it(`exits 0 with nothing on stderr on ${name}`, async () => {
      const { env } = setup();
      const r = await runBin({ env, args: ['hook', ...args], stdin });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expectValidClaudeOutput(r.stdout);
    });
  }

  it('does not wait for a host that never closes stdin', async () => {
    const { env } = setup();
    const r = await runBin({ env, args: ['hook', 'claude-code', 'PostToolUse'], stdin: 'keep-open' });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('');
    expect(r.ms).toBeLessThan(4000);
  });

  it.runIf(existsSync('/usr/bin/script') && process.platform === 'linux')('does not wait for input on a terminal', async () => {
    const { env, dataDir } = setup({ CLAUDE_MEM_DEBUG: '1' });
    // script(1) gives the hook a pseudo-terminal as stdin; its own stdin stays open and silent.
    const cmd = `${JSON.stringify(process.execPath)} ${JSON.stringify(join(REPO_ROOT, 'dist', 'bin.js'))} hook claude-code PostToolUse`;
    const r = await runBin({ env, args: [], stdin: 'keep-open', command: ['/usr/bin/script', '-qec', cmd, '/dev/null'] });
    expect(r.code).toBe(0);
    const log = readFileSync(join(dataDir, 'logs', 'hook.log'), 'utf8');
    expect(log).toMatch(/empty stdin/);
    expect(log).not.toMatch(/deadline/);
  });

  it('spools the event when no worker runs (and none can start)', async () => {
    const { env, dataDir } = setup();
    const r = await runHook(env, 'claude-code', 'PostToolUse', post('down-1'));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('');
    const spooled = spoolText(dataDir).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(spooled).toHaveLength(1);
    expect(spooled[0]).toMatchObject({ host: 'claude-code', kind: 'tool_result', sessionId: 'sess-down-1', toolUseId: 'toolu_down-1', toolName: 'Bash' });
  });

  it("does not store an event that another host's writer owns (caller check)", async () => {
    const { env, dataDir } = setup();
    // Cursor runs Claude Code's hooks with its own payload dialect; Cursor's own hook stores it.
    const cursorish = JSON.stringify({ ...claudePayload('005-PostToolUse.json', { session_id: 'sess-cursor', cwd: '/tmp' }), conversation_id: 'c1', cursor_version: '1.7.0' });
    const r = await runHook(env, 'claude-code', 'PostToolUse', cursorish);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(spoolText(dataDir)).toBe('');
  });

  it('answers a context event with valid empty output when no worker runs', async () => {
    const { env } = setup();
    const payload = JSON.stringify(claudePayload('001-SessionStart.json', { session_id: 'sess-ctx-down', cwd: '/tmp' }));
    const r = await runHook(env, 'claude-code', 'SessionStart', payload);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expectValidClaudeOutput(r.stdout);
  });

  it('exits 0 silently when the data directory is read-only (chmod 0500)', async () => {
    const { env, dataDir } = setup();
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    chmodSync(dataDir, 0o500);
    try {
      for (const [event, file] of [['PostToolUse', '005-PostToolUse.json'], ['SessionStart', '001-SessionStart.json']]) {
        const r = await runHook(env, 'claude-code', event, JSON.stringify(claudePayload(file, { session_id: 'sess-ro', cwd: '/tmp' })));
        expect(r.code).toBe(0);
        expect(r.stderr).toBe('');
        expectValidClaudeOutput(r.stdout);
      }
    } finally {
      chmodSync(dataDir, 0o700);
    }
  });

  it('exits 0 silently when the data directory cannot exist (a file is in the way, even for root)', async () => {
    const blocker = join(tempDir('blocker'), 'file');
    writeFileSync(blocker, 'not a directory');
    const { env } = setup({ CLAUDE_MEM_DATA_DIR: join(blocker, 'data') });
    const r = await runHook(env, 'claude-code', 'PostToolUse', post('enotdir'));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('');
  });

  it('writes its debug log, and stderr only when CLAUDE_MEM_DEBUG=1', async () => {
    const { env, dataDir } = setup({ CLAUDE_MEM_DEBUG: '1' });
    const r = await runHook(env, 'claude-code', 'PostToolUse', post('debug'));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/spool/);
    expect(readFileSync(join(dataDir, 'logs', 'hook.log'), 'utf8')).toMatch(/1 event\(s\) spooled/);
  });

  it('keeps an oversized payload, truncated and marked', async () => {
    const { env, dataDir } = setup();
    const big = 'x'.repeat(17 * 1024 * 1024);
    const payload = JSON.stringify(claudePayload('005-PostToolUse.json', {
      session_id: 'sess-big', tool_use_id: 'toolu_big', cwd: '/tmp', tool_response: { stdout: big, stderr: '' },
    }));
    const r = await runBin({ env, args: ['hook', 'claude-code', 'PostToolUse'], stdin: payload, timeoutMs: 30_000 });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const text = spoolText(dataDir);
    expect(text.length).toBeLessThan(1024 * 1024);
    const ev = JSON.parse(text.trim()) as { sessionId: string; toolUseId: string; toolResponse: { stdout: string } };
    expect(ev.sessionId).toBe('sess-big');
    expect(ev.toolUseId).toBe('toolu_big');
    expect(ev.toolResponse.stdout.endsWith(TRUNCATION_MARKER)).toBe(true);
  }, 60_000);
});
