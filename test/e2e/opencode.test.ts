/**
 * The real OpenCode CLI (opencode-ai 1.18.33 from the npm registry, plugin API V1) after
 * `claude-mem install --yes --ide opencode`, driven offline against a scripted OpenAI-compatible
 * model server the way ../shared/fixtures/hosts/opencode was captured: the same config, flags and
 * minimal environment, stdin closed, a one-commit git project. No worker runs beforehand: the
 * plugin spools and starts one itself.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST_BIN, tempDir } from '../helpers/temp.js';
import { cleanupWorker, ensureBuilt, queryDb, waitFor } from '../hook-runtime/helpers.js';
import { ensurePluginsBuilt } from '../plugins/opencode-harness.js';
import { startFakeOpenAI, systemTexts, toolResults, type FakeOpenAI } from './support/fake-openai.js';
import { ensureHostPackage, warnSkip, type HostInstall } from './support/host-cache.js';

const OPENCODE = { id: 'opencode', pkg: 'opencode-ai', version: '1.18.33', bin: 'opencode' };

interface World {
  home: string;
  project: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
}

/** HOME, project, OpenCode config and environment as in the fixture README. */
function makeWorld(fake: FakeOpenAI, binDir: string): World {
  const home = tempDir('oc-home');
  const project = join(home, 'projects', 'demo');
  mkdirSync(project, { recursive: true });
  const notes = '# Project notes\nThis is a scratch project used for the demo.\n';
  writeFileSync(join(project, 'README.md'), '# demo\n');
  writeFileSync(join(project, 'CLAUDE.md'), notes);
  writeFileSync(join(project, 'AGENTS.md'), notes);
  const git = { ...process.env, HOME: home, GIT_AUTHOR_NAME: 'dev', GIT_AUTHOR_EMAIL: 'dev@example.invalid', GIT_COMMITTER_NAME: 'dev', GIT_COMMITTER_EMAIL: 'dev@example.invalid' };
  for (const args of [['init', '-q'], ['add', '.'], ['commit', '-qm', 'init']]) execFileSync('git', args, { cwd: project, env: git });

  const cfg = join(home, '.config', 'opencode');
  mkdirSync(join(cfg, 'node_modules'), { recursive: true });
  writeFileSync(join(cfg, 'opencode.json'), `${JSON.stringify({
    $schema: 'https://opencode.ai/config.json', model: 'local/mock-model', small_model: 'local/mock-model', autoupdate: false, share: 'disabled',
    provider: { local: { npm: '@ai-sdk/openai-compatible', name: 'local mock', options: { baseURL: fake.baseUrl, apiKey: 'sk-test' },
      models: { 'mock-model': { name: 'Mock model', tool_call: true, limit: { context: 128000, output: 4096 } } } } },
  }, null, 2)}\n`);
  // Offline, OpenCode's background install of @opencode-ai/plugin into the config dir stalls startup
  // ~70 s unless it is already listed as installed (fixture README, Caveats).
  const dep = { '@opencode-ai/plugin': OPENCODE.version };
  writeFileSync(join(cfg, 'package.json'), JSON.stringify({ dependencies: dep }));
  writeFileSync(join(cfg, 'package-lock.json'), JSON.stringify({
    name: 'opencode', lockfileVersion: 3, requires: true,
    packages: { '': { dependencies: dep }, 'node_modules/@opencode-ai/plugin': { version: OPENCODE.version } },
  }));

  const env: NodeJS.ProcessEnv = {
    HOME: home, USER: 'dev', LOGNAME: 'dev', SHELL: '/bin/bash', TERM: 'dumb', LANG: 'C.UTF-8',
    PATH: `${binDir}:${dirname(process.execPath)}:${process.env.PATH ?? ''}`, NO_UPDATE_NOTIFIER: '1', NO_COLOR: '1', CI: '1',
    XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_STATE_HOME: join(home, '.local', 'state'), XDG_CACHE_HOME: join(home, '.cache'),
    OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_DEFAULT_PLUGINS: '1', OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1', OPENCODE_DISABLE_SHARE: '1',
  };
  return { home, project, dataDir: join(home, '.claude-mem'), env };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  sessionId: string;
  callIds: string[];
}

function runOpencode(bin: string, w: World, prompt: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['run', '--format', 'json', '--model', 'local/mock-model', prompt], { cwd: w.project, env: w.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const lines = stdout.split('\n').filter(Boolean).flatMap((l) => {
        try {
          return [JSON.parse(l) as { type?: string; sessionID?: string; part?: { callID?: string } }];
        } catch {
          return [];
        }
      });
      resolve({
        code, stdout, stderr, sessionId: lines.find((l) => l.sessionID)?.sessionID ?? '',
        callIds: lines.filter((l) => l.type === 'tool_use').map((l) => l.part?.callID ?? ''),
      });
    });
  });
}

/** OpenCode's own user message ids of a session, from its database. */
function userMessageIds(w: World, sessionId: string): string[] {
  const db = new Database(join(w.home, '.local', 'share', 'opencode', 'opencode.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created').all(sessionId) as { id: string; data: string }[];
    return rows.filter((r) => (JSON.parse(r.data) as { role?: string }).role === 'user').map((r) => r.id);
  } finally {
    db.close();
  }
}

interface Stored {
  kinds: Record<string, number>;
  prompts: { text: string; native_id: string | null }[];
  toolResults: string[];
  observations: { title: string; tool_use_id: string | null }[];
  ended: string | null;
  endReason: string | null;
}

function stored(dataDir: string, sessionId: string): Stored {
  return queryDb(dataDir, (db) => {
    const s = db.prepare("SELECT id, ended_at, end_reason FROM sessions WHERE host = 'opencode' AND host_session_id = ?").get(sessionId) as { id: number; ended_at: string | null; end_reason: string | null } | undefined;
    if (!s) return { kinds: {}, prompts: [], toolResults: [], observations: [], ended: null, endReason: null };
    return {
      kinds: Object.fromEntries((db.prepare('SELECT kind, count(*) AS n FROM events WHERE session_id = ? GROUP BY kind').all(s.id) as { kind: string; n: number }[]).map((r) => [r.kind, r.n])),
      prompts: db.prepare('SELECT text, native_id FROM prompts WHERE session_id = ?').all(s.id) as Stored['prompts'],
      toolResults: (db.prepare("SELECT payload FROM events WHERE session_id = ? AND kind = 'tool_result'").all(s.id) as { payload: string }[]).map((r) => r.payload),
      observations: db.prepare('SELECT title, tool_use_id FROM observations WHERE session_id = ?').all(s.id) as Stored['observations'],
      ended: s.ended_at,
      endReason: s.end_reason,
    };
  });
}

describe(`OpenCode ${OPENCODE.version} (real CLI) with the claude-mem plugin`, () => {
  let install: HostInstall = { ok: false, reason: 'not installed yet' };
  let fake: FakeOpenAI | undefined;
  let world: World | undefined;

  beforeAll(async () => {
    ensureBuilt();
    ensurePluginsBuilt();
    install = await ensureHostPackage(OPENCODE);
    if (!install.ok) warnSkip(`OpenCode ${OPENCODE.version} end-to-end`, install.reason);
  }, 15 * 60_000);

  afterAll(async () => {
    if (world) await cleanupWorker({ ...process.env, HOME: world.home, CLAUDE_MEM_DATA_DIR: world.dataDir }, world.dataDir);
    await fake?.close();
  });

  it('stores the prompt, the shell call and the session end once, answers a recall tool, and gives the next session its context', async (ctx) => {
    if (!install.ok) return ctx.skip();
    fake = await startFakeOpenAI();
    const w = (world = makeWorld(fake, dirname(install.binPath)));

    // The real installer: detection reads the version from the opencode-ai package (1.18.33 → V1).
    const inst = spawnSync(process.execPath, [DIST_BIN, 'install', '--yes', '--ide', 'opencode', '--no-start', '--json'], {
      env: { ...w.env, CLAUDE_MEM_DATA_DIR: w.dataDir }, encoding: 'utf8', timeout: 60_000,
    });
    expect(inst.status, inst.stderr).toBe(0);
    const doc = JSON.parse(inst.stdout) as { hosts: { id: string; status: string; detected: { version?: string } }[] };
    expect(doc.hosts.find((h) => h.id === 'opencode')).toMatchObject({ status: 'ok', detected: { version: OPENCODE.version } });
    expect(existsSync(join(w.home, '.config', 'opencode', 'plugins', 'claude-mem.js'))).toBe(true);
    expect(existsSync(join(w.dataDir, 'worker.json'))).toBe(false);

    // Session 1: one prompt, one shell call, "All done.".
    const first = await runOpencode(install.binPath, w, 'say hello using bash');
    expect(first.code, first.stderr).toBe(0);
    expect(first.sessionId).toMatch(/^ses_/);
    expect(first.callIds).toHaveLength(1);
    const s1 = await waitFor(() => {
      if (!existsSync(join(w.dataDir, 'claude-mem.db'))) return undefined;
      const s = stored(w.dataDir, first.sessionId);
      return s.ended && s.observations.length >= 1 ? s : undefined;
    }, 30_000).catch(() => stored(w.dataDir, first.sessionId));
    expect(existsSync(join(w.dataDir, 'worker.json')), 'the plugin did not start the worker').toBe(true);
    expect(s1.kinds).toEqual({ session_start: 1, prompt: 1, tool_use: 1, tool_result: 1, assistant_message: 1, session_end: 1 });
    // `opencode run` hands the prompt over in quotes; the id is OpenCode's own user message id.
    expect(s1.prompts).toEqual([{ text: '"say hello using bash"', native_id: userMessageIds(w, first.sessionId)[0] }]);
    expect(s1.toolResults).toHaveLength(1);
    const tool = JSON.parse(s1.toolResults[0]) as { toolName: string; toolUseId: string; source: string; toolInput: { command: string }; toolResponse: { output: string; metadata: { exit: number } } };
    expect(tool).toMatchObject({ source: 'plugin', toolName: 'Bash', toolUseId: first.callIds[0], toolInput: { command: 'echo hello-from-mock' }, toolResponse: { metadata: { exit: 0 } } });
    expect(tool.toolResponse.output).toContain('hello-from-mock');
    expect(s1.observations.filter((o) => o.tool_use_id === first.callIds[0])).toHaveLength(1);
    expect(s1.endReason).toBe('idle');

    // Session 2: the model calls the native mem_search tool, then answers.
    const before = fake.chatRequests().length;
    fake.call = { name: 'mem_search', args: { query: 'hello-from-mock' } };
    const second = await runOpencode(install.binPath, w, 'what did we do last time?');
    expect(second.code, second.stderr).toBe(0);
    expect(second.sessionId).not.toBe(first.sessionId);
    const requests = fake.chatRequests().slice(before).filter((r) => (r.body.tools ?? []).length > 0);
    expect(requests.length, 'session 2 sent no agent request').toBeGreaterThanOrEqual(2);
    const context = systemTexts(requests[0].body).find((t) => t.startsWith('# claude-mem'));
    expect(context, 'no claude-mem context in the first agent request of session 2').toBeTruthy();
    expect(context).toContain('hello-from-mock');
    const answer = toolResults(requests[requests.length - 1].body).join('\n');
    expect(answer).toMatch(/result\(s\) for "hello-from-mock"/);
    expect(answer).toContain('Ran `echo hello-from-mock`');
    const s2 = await waitFor(() => {
      const s = stored(w.dataDir, second.sessionId);
      return s.ended ? s : undefined;
    }, 30_000).catch(() => stored(w.dataDir, second.sessionId));
    // The recall call itself is not captured as work.
    expect(s2.kinds).toEqual({ session_start: 1, prompt: 1, assistant_message: 1, session_end: 1 });
  }, 10 * 60_000);
});
