/**
 * OMP / oh-my-pi (`omp -p`, a models.yml provider → a scripted Chat Completions API) on Bun from
 * the registry's @oven/bun-linux-x64, through the conformance scenario. In session 2 the model
 * calls claude-mem's search through the MCP server OMP mounted. 18.2.3 is the newest OMP that
 * installs from the registry: 18.3.4 pins @oh-my-pi/omp-stats@18.3.4, which was never published.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { conformance, NOTES_FILE, type HostRun } from '../support/conformance.js';
import { HOST_PACKAGES } from '../support/host-packages.js';
import { systemTexts, toolResults } from '../support/fake-openai.js';
import type { FakeModel } from '../support/fake-model.js';
import type { HostInstall } from '../support/host-cache.js';
import { runIn, type HostWorld } from '../support/host-world.js';

function writeModels(w: HostWorld, fake: FakeModel): void {
  const dir = join(w.home, '.omp', 'agent');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'models.yml'), [
    'providers:',
    '  local:',
    `    baseUrl: ${fake.baseUrl}`,
    '    api: openai-completions',
    '    apiKey: sk-test',
    '    models:',
    '      - id: mock-model',
    '        name: Mock model',
    '        reasoning: false',
    '        contextWindow: 128000',
    '        maxTokens: 4096',
    '',
  ].join('\n'));
}

async function runOmp(bin: string, w: HostWorld, prompt: string): Promise<HostRun> {
  const r = await runIn(w, bin, ['-p', '--model', 'local/mock-model', prompt]);
  return { ...r, sessionId: '' }; // `omp -p` prints only the answer
}

const bins = (installs: HostInstall[]) => installs.map((i) => (i.ok ? dirname(i.binPath) : ''));

conformance({
  id: 'omp',
  name: 'OMP (oh-my-pi)',
  packages: [HOST_PACKAGES.bun, HOST_PACKAGES.omp],
  linuxX64Only: 'needs Bun from @oven/bun-linux-x64',
  api: 'openai-chat',
  how: '`omp -p` on Bun 1.4.5 with a `models.yml` provider → scripted Chat Completions API',
  path: bins,
  env: () => ({}),
  prepare: writeModels,
  shellCall: { name: 'bash', args: { command: 'echo hello-from-mock' } },
  readCall: (w) => ({ name: 'read', args: { path: join(w.project, NOTES_FILE) } }),
  run: runOmp,
  answered: (r) => r.stdout.includes('All done.') && !r.stderr.includes('capture is off'),
  kinds: { session_start: 1, prompt: 1, tool_use: 2, tool_result: 2, assistant_message: 1, session_end: 1 },
  nativePromptId: () => null,
  contextOf: (r) => systemTexts(r.body).join('\n'),
  recall: {
    // OMP mounts MCP tools as devices: the model writes the JSON arguments to `xd://<tool>`.
    call: { name: 'write', args: { path: 'xd://mcp__claude_mem_mem_search', content: JSON.stringify({ query: 'hello-from-mock' }) } },
    answerOf: (requests) => requests.flatMap((r) => toolResults(r.body)).join('\n'),
  },
  notProven: ['OMP ≥ 18.3.4 (does not install from the registry: a dependency was never published)'],
});
