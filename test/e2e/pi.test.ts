/**
 * The real Pi CLI (the fixture's version, from the npm registry, cached outside the repository)
 * with the claude-mem extension installed by `claude-mem install --yes --ide pi`, run
 * offline with `pi -p --mode json` against a scripted OpenAI Chat Completions server, the way
 * ../shared/fixtures/hosts/pi was captured. Skipped, loudly and counted, only when the registry
 * is unreachable.
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupWorker, ensureBuilt, queryDb, stopWorker, waitFor } from '../hook-runtime/helpers.js';
import { startFakeOpenAI, systemTexts, toolResults, type FakeOpenAI } from './support/fake-openai.js';
import { ensureHostPackage, warnSkip, type HostInstall } from './support/host-cache.js';
import { claudeMemInstall, makeHostWorld, runIn, type HostWorld } from './support/host-world.js';

const PI = { id: 'pi', pkg: '@mariozechner/pi-coding-agent', version: '0.73.1', bin: 'pi' };

function writeModels(w: HostWorld, fake: FakeOpenAI): void {
  const dir = join(w.home, '.pi', 'agent');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'models.json'), JSON.stringify({
    providers: {
      local: {
        baseUrl: fake.baseUrl, api: 'openai-completions', apiKey: 'sk-test',
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: 'mock-model', name: 'Mock model', reasoning: false, contextWindow: 128000, maxTokens: 4096 }],
      },
    },
  }, null, 2));
}

/** The session id from the `--mode json` stream (its first record is the session header). */
function sessionIdOf(stdout: string): string {
  for (const line of stdout.split('\n')) {
    try {
      const r = JSON.parse(line) as { type?: string; id?: string };
      if (r.type === 'session' && r.id) return r.id;
    } catch {
      // not JSON
    }
  }
  return '';
}

interface Stored {
  kinds: Record<string, number>;
  prompts: { text: string; native_id: string | null }[];
  toolResults: Record<string, unknown>[];
  observations: { title: string; tool_use_id: string | null }[];
  ended: string | null;
}

function stored(dataDir: string, sessionId: string): Stored {
  return queryDb(dataDir, (db) => {
    const s = db.prepare("SELECT id, ended_at FROM sessions WHERE host = 'pi' AND host_session_id = ?").get(sessionId) as { id: number; ended_at: string | null } | undefined;
    if (!s) return { kinds: {}, prompts: [], toolResults: [], observations: [], ended: null };
    const kinds = Object.fromEntries((db.prepare('SELECT kind, count(*) AS n FROM events WHERE session_id = ? GROUP BY kind').all(s.id) as { kind: string; n: number }[]).map((r) => [r.kind, r.n]));
    return {
      kinds,
      prompts: db.prepare('SELECT text, native_id FROM prompts WHERE session_id = ?').all(s.id) as Stored['prompts'],
      toolResults: (db.prepare("SELECT payload FROM events WHERE session_id = ? AND kind = 'tool_result'").all(s.id) as { payload: string }[]).map((r) => JSON.parse(r.payload) as Record<string, unknown>),
      observations: db.prepare('SELECT title, tool_use_id FROM observations WHERE session_id = ?').all(s.id) as Stored['observations'],
      ended: s.ended_at,
    };
  });
}

describe(`Pi ${PI.version} (real CLI) with the claude-mem extension`, () => {
  let install: HostInstall = { ok: false, reason: 'not installed yet' };
  let fake: FakeOpenAI | undefined;
  let world: HostWorld | undefined;

  beforeAll(async () => {
    ensureBuilt();
    install = await ensureHostPackage(PI);
    if (!install.ok) warnSkip(`Pi ${PI.version} end-to-end`, install.reason);
  }, 15 * 60_000);

  afterAll(async () => {
    if (world) await cleanupWorker(world.env, world.dataDir);
    await fake?.close();
  });

  it('stores prompt, tool call with output and session end once; recall tools and context answer', async (ctx) => {
    if (!install.ok) return ctx.skip();
    fake = await startFakeOpenAI();
    const binDir = join(install.dir, 'node_modules', '.bin');
    const w = (world = makeHostWorld('pi-home', { PI_OFFLINE: '1' }, `${binDir}:${process.env.PATH}`));
    writeModels(w, fake);
    const result = await claudeMemInstall(w, 'pi');
    const mine = (result.hosts as Array<Record<string, any>>).find((h) => h.id === 'pi')!;
    expect(mine).toMatchObject({ status: 'ok', capture: 'plugin', recall: 'native-tools', detected: { version: PI.version } });
    expect(result.worker.ok).toBe(true);
    const extDir = join(w.home, '.pi', 'agent', 'extensions', 'claude-mem');
    expect(JSON.parse(readFileSync(join(extDir, 'claude-mem.json'), 'utf8'))).toMatchObject({ host: 'pi', dataDir: w.dataDir });

    // Session 1: one prompt, one bash call, "All done.".
    const args = ['-p', '--mode', 'json', '--provider', 'local', '--model', 'mock-model'];
    const first = await runIn(w, install.binPath, [...args, 'say hello using bash']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('All done.');
    expect(first.stderr).not.toContain('capture is off');
    const sessionId = sessionIdOf(first.stdout);
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const callId = /"tool_call_id":"(call_[0-9a-f]+)"/.exec(fake.chatRequests().map((r) => r.text).join('\n'))?.[1];
    expect(callId).toBeTruthy();
    // The recall tools are offered to the model.
    const offered = (fake.chatRequests()[0].body.tools ?? []).map((t) => t.function?.name);
    expect(offered).toEqual(expect.arrayContaining(['mem_search', 'mem_timeline', 'mem_get_observations', 'mem_save', 'mem_context']));

    const s1 = await waitFor(() => {
      const s = stored(w.dataDir, sessionId);
      return s.ended && s.observations.length >= 1 ? s : undefined;
    }, 20_000).catch(() => stored(w.dataDir, sessionId));
    expect(s1.kinds).toMatchObject({ session_start: 1, prompt: 1, tool_use: 1, tool_result: 1, assistant_message: 1, session_end: 1 });
    expect(s1.prompts).toEqual([{ text: 'say hello using bash', native_id: null }]);
    expect(s1.toolResults).toHaveLength(1);
    expect(s1.toolResults[0]).toMatchObject({ source: 'plugin', toolName: 'Bash', rawToolName: 'bash', toolUseId: callId, toolInput: { command: 'echo hello-from-mock' } });
    expect(JSON.stringify(s1.toolResults[0].toolResponse)).toContain('hello-from-mock');
    expect(s1.observations.filter((o) => o.tool_use_id === callId)).toHaveLength(1);
    expect(s1.ended).toBeTruthy();

    // Session 2: memory context reaches the system prompt, and mem_search answers with session 1's command.
    const before = fake.chatRequests().length;
    fake.call = { name: 'mem_search', args: { query: 'hello-from-mock' } };
    const second = await runIn(w, install.binPath, [...args, 'what did we run before?']);
    expect(second.code, second.stderr).toBe(0);
    const requests = fake.chatRequests().slice(before);
    expect(systemTexts(requests[0].body).join('\n')).toContain('hello-from-mock');
    const answer = requests.flatMap((r) => toolResults(r.body)).join('\n');
    expect(answer).toMatch(/result\(s\) for "hello-from-mock"/);
    expect(answer).toContain('echo hello-from-mock');
    // Our own tool call is not stored as work done.
    const s2 = stored(w.dataDir, sessionIdOf(second.stdout));
    expect(s2.toolResults).toHaveLength(0);
  }, 10 * 60_000);

  it('with no worker running: Pi is not held up, the events are kept and land once the extension started the worker', async (ctx) => {
    if (!install.ok) return ctx.skip();
    fake ??= await startFakeOpenAI();
    fake.call = { name: 'bash', args: { command: 'echo hello-from-mock' } };
    const binDir = join(install.dir, 'node_modules', '.bin');
    const w = makeHostWorld('pi-cold', { PI_OFFLINE: '1' }, `${binDir}:${process.env.PATH}`);
    writeModels(w, fake);
    await claudeMemInstall(w, 'pi');
    stopWorker(w.env); // the extension must start it itself
    try {
      const run = await runIn(w, install.binPath, ['-p', '--mode', 'json', '--provider', 'local', '--model', 'mock-model', 'say hello using bash']);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('All done.');
      const sessionId = sessionIdOf(run.stdout);
      const s = await waitFor(() => {
        try {
          const got = stored(w.dataDir, sessionId);
          return got.ended && got.observations.length >= 1 ? got : undefined;
        } catch {
          return undefined; // no database yet
        }
      }, 30_000);
      expect(s.kinds).toMatchObject({ session_start: 1, prompt: 1, tool_use: 1, tool_result: 1, session_end: 1 });
      expect(s.prompts).toEqual([{ text: 'say hello using bash', native_id: null }]);
    } finally {
      await cleanupWorker(w.env, w.dataDir);
    }
  }, 10 * 60_000);
});
