/**
 * The real Claude Code CLI (pinned version, from the npm registry) driven offline against a
 * scripted model server, with claude-mem's hooks registered in ~/.claude/settings.json. It runs
 * the way the fixtures in ../shared/fixtures/hosts/claude-code were captured (README there):
 * the same flags, a minimal environment, stdin closed, a one-commit git project.
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST_BIN, tempDir } from '../helpers/temp.js';
import { cleanupWorker, ensureBuilt, queryDb, startWorker, waitFor } from '../hook-runtime/helpers.js';
import { startFakeAnthropic, type FakeAnthropic } from './support/fake-anthropic.js';
import { ensureHostPackage, warnSkip, type HostInstall } from './support/host-cache.js';

const CLAUDE_CODE = { id: 'claude-code', pkg: '@anthropic-ai/claude-code', version: '2.1.197', bin: 'claude' };
const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'SessionEnd'];

interface World {
  home: string;
  project: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
}

/** HOME, project and environment as in the fixture README. */
function makeWorld(fake: FakeAnthropic): World {
  const home = tempDir('cc-home');
  const project = join(home, 'projects', 'demo');
  mkdirSync(project, { recursive: true });
  const notes = '# Project notes\nThis is a scratch project used for the demo.\n';
  writeFileSync(join(project, 'README.md'), '# demo\n');
  writeFileSync(join(project, 'CLAUDE.md'), notes);
  writeFileSync(join(project, 'AGENTS.md'), notes);
  const git = { ...process.env, HOME: home, GIT_AUTHOR_NAME: 'dev', GIT_AUTHOR_EMAIL: 'dev@example.invalid', GIT_COMMITTER_NAME: 'dev', GIT_COMMITTER_EMAIL: 'dev@example.invalid' };
  for (const args of [['init', '-q'], ['add', '.'], ['commit', '-qm', 'init']]) execFileSync('git', args, { cwd: project, env: git });

  writeFileSync(join(home, '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true, theme: 'dark' }));
  mkdirSync(join(home, '.claude'), { recursive: true });
  const q = (s: string) => `"${s.replace(/(["\\$`])/g, '\\$1')}"`;
  const hooks = Object.fromEntries(EVENTS.map((ev) => [ev, [{
    matcher: '*',
    hooks: [{ type: 'command', command: `${q(process.execPath)} ${q(DIST_BIN)} hook claude-code ${ev}` }],
  }]]));
  writeFileSync(join(home, '.claude', 'settings.json'), `${JSON.stringify({ hooks }, null, 2)}\n`);

  const env: NodeJS.ProcessEnv = {
    HOME: home, USER: 'dev', LOGNAME: 'dev', SHELL: '/bin/bash', TERM: 'dumb', LANG: 'C.UTF-8', PATH: process.env.PATH,
    NO_UPDATE_NOTIFIER: '1', NO_COLOR: '1', CI: '1',
    XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'), XDG_CACHE_HOME: join(home, '.cache'),
    ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'sk-test', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1',
  };
  return { home, project, dataDir: join(home, '.claude-mem'), env };
}

interface ClaudeRun {
  code: number | null;
  stdout: string;
  stderr: string;
  sessionId: string;
}

/** `claude -p` with stdin closed; async, because the fake model server lives in this process. */
function runClaude(bin: string, w: World, prompt: string): Promise<ClaudeRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['-p', prompt, '--allowedTools', 'Bash', '--output-format', 'stream-json', '--verbose'], {
      cwd: w.project, env: w.env, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const init = stdout.split('\n').filter(Boolean).map((l) => {
        try {
          return JSON.parse(l) as { type?: string; subtype?: string; session_id?: string };
        } catch {
          return {};
        }
      }).find((r) => r.type === 'system' && r.subtype === 'init');
      resolve({ code, stdout, stderr, sessionId: init?.session_id ?? '' });
    });
  });
}

/** The host's own prompt id, from its transcript (what the hook payload carried as prompt_id). */
function transcriptPromptIds(w: World, sessionId: string): string[] {
  const slug = w.project.replace(/[^A-Za-z0-9]/g, '-');
  const text = readFileSync(join(w.home, '.claude', 'projects', slug, `${sessionId}.jsonl`), 'utf8');
  const ids = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { type?: string; promptId?: string; message?: { content?: unknown } };
    if (r.type === 'user' && r.promptId && typeof r.message?.content === 'string') ids.add(r.promptId);
  }
  return [...ids];
}

interface Stored {
  kinds: Record<string, number>;
  prompts: { text: string; native_id: string | null }[];
  toolEvents: string[];
  observations: { title: string; tool_use_id: string | null }[];
  ended: string | null;
}

function stored(dataDir: string, sessionId: string): Stored {
  return queryDb(dataDir, (db) => {
    const s = db.prepare("SELECT id, ended_at FROM sessions WHERE host = 'claude-code' AND host_session_id = ?").get(sessionId) as { id: number; ended_at: string | null } | undefined;
    if (!s) return { kinds: {}, prompts: [], toolEvents: [], observations: [], ended: null };
    const kinds = Object.fromEntries((db.prepare('SELECT kind, count(*) AS n FROM events WHERE session_id = ? GROUP BY kind').all(s.id) as { kind: string; n: number }[]).map((r) => [r.kind, r.n]));
    return {
      kinds,
      prompts: db.prepare('SELECT text, native_id FROM prompts WHERE session_id = ?').all(s.id) as Stored['prompts'],
      toolEvents: (db.prepare("SELECT payload FROM events WHERE session_id = ? AND kind = 'tool_result'").all(s.id) as { payload: string }[]).map((r) => r.payload),
      observations: db.prepare('SELECT title, tool_use_id FROM observations WHERE session_id = ?').all(s.id) as Stored['observations'],
      ended: s.ended_at,
    };
  });
}

describe(`Claude Code ${CLAUDE_CODE.version} (real CLI) with claude-mem hooks`, () => {
  let install: HostInstall = { ok: false, reason: 'not installed yet' };
  let fake: FakeAnthropic | undefined;
  let world: World | undefined;

  beforeAll(async () => {
    ensureBuilt();
    install = await ensureHostPackage(CLAUDE_CODE);
    if (!install.ok) warnSkip(`Claude Code ${CLAUDE_CODE.version} end-to-end`, install.reason);
  }, 15 * 60_000);

  afterAll(async () => {
    if (world) await cleanupWorker({ ...process.env, HOME: world.home, CLAUDE_MEM_DATA_DIR: world.dataDir }, world.dataDir);
    await fake?.close();
  });

  it('stores the prompt, the tool use and the session end once, and gives the next session its context', async (ctx) => {
    if (!install.ok) return ctx.skip();
    fake = await startFakeAnthropic();
    const w = (world = makeWorld(fake));
    startWorker({ ...w.env, CLAUDE_MEM_DATA_DIR: w.dataDir });

    // Session 1: one prompt, one Bash call, "All done.".
    const first = await runClaude(install.binPath, w, 'say hello using bash');
    expect(first.code, first.stderr).toBe(0);
    expect(first.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(first.stdout).toContain('All done.');
    const toolUseId = fake.messageRequests().flatMap((r) => [...r.text.matchAll(/"tool_use_id":"(toolu_[0-9a-f]+)"/g)].map((m) => m[1]))[0];
    expect(toolUseId).toBeTruthy();

    const s1 = await waitFor(() => {
      const s = stored(w.dataDir, first.sessionId);
      return s.ended && s.observations.length >= 1 ? s : undefined;
    }, 20_000).catch(() => stored(w.dataDir, first.sessionId));
    expect(s1.kinds).toMatchObject({ session_start: 1, prompt: 1, tool_result: 1, session_end: 1 });
    expect(s1.prompts).toHaveLength(1);
    expect(s1.prompts[0].text).toBe('say hello using bash');
    // This version sends prompt_id with UserPromptSubmit (and writes it to its transcript as promptId).
    const promptIds = transcriptPromptIds(w, first.sessionId);
    expect(promptIds).toHaveLength(1);
    expect(s1.prompts[0].native_id).toBe(promptIds[0]);
    expect(s1.toolEvents).toHaveLength(1);
    const tool = JSON.parse(s1.toolEvents[0]) as { toolName: string; toolUseId: string; toolInput: { command: string }; toolResponse: { stdout: string } };
    expect(tool).toMatchObject({ toolName: 'Bash', toolUseId, toolInput: { command: 'echo hello-from-mock' } });
    expect(tool.toolResponse.stdout).toContain('hello-from-mock');
    expect(s1.observations.filter((o) => o.tool_use_id === toolUseId)).toHaveLength(1);
    expect(s1.ended).toBeTruthy();

    // Session 2: its first model request carries what session 1 did, through the SessionStart hook.
    const before = fake.messageRequests().length;
    fake.useTool = false;
    const second = await runClaude(install.binPath, w, 'what is next?');
    expect(second.code, second.stderr).toBe(0);
    expect(second.sessionId).not.toBe(first.sessionId);
    const firstRequest = fake.messageRequests()[before];
    expect(firstRequest, 'session 2 sent no model request').toBeTruthy();
    const injected = /SessionStart hook additional context:((?:[^"\\]|\\.)*)/.exec(firstRequest.text)?.[1] ?? '';
    expect(injected, 'no SessionStart context in the first request of session 2').not.toBe('');
    expect(injected).toContain('hello-from-mock');
  }, 10 * 60_000);
});
