/**
 * OpenCode (`opencode run`, an OpenAI-compatible provider → a scripted Chat Completions API;
 * plugin API V1), run the way test/fixtures/hosts/opencode was captured, through the
 * conformance scenario. In session 2 the model calls the plugin's native `mem_search` tool.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { conformance, NOTES_FILE, type HostRun } from '../support/conformance.js';
import { HOST_PACKAGES } from '../support/host-packages.js';
import { systemTexts, toolResults } from '../support/fake-openai.js';
import type { FakeModel } from '../support/fake-model.js';
import { runIn, type HostWorld } from '../support/host-world.js';

const VERSION = HOST_PACKAGES.opencode.version;

function writeConfig(w: HostWorld, fake: FakeModel): void {
  const cfg = join(w.home, '.config', 'opencode');
  mkdirSync(join(cfg, 'node_modules'), { recursive: true });
  writeFileSync(join(cfg, 'opencode.json'), `${JSON.stringify({
    $schema: 'https://opencode.ai/config.json', model: 'local/mock-model', small_model: 'local/mock-model', autoupdate: false, share: 'disabled',
    provider: { local: { npm: '@ai-sdk/openai-compatible', name: 'local mock', options: { baseURL: fake.baseUrl, apiKey: 'sk-test' },
      models: { 'mock-model': { name: 'Mock model', tool_call: true, limit: { context: 128000, output: 4096 } } } } },
  }, null, 2)}\n`);
  // Offline, OpenCode's background install of @opencode-ai/plugin into the config dir stalls startup
  // ~70 s unless it is already listed as installed (fixture README, Caveats).
  const dep = { '@opencode-ai/plugin': VERSION };
  writeFileSync(join(cfg, 'package.json'), JSON.stringify({ dependencies: dep }));
  writeFileSync(join(cfg, 'package-lock.json'), JSON.stringify({
    name: 'opencode', lockfileVersion: 3, requires: true,
    packages: { '': { dependencies: dep }, 'node_modules/@opencode-ai/plugin': { version: VERSION } },
  }));
}

async function runOpencode(bin: string, w: HostWorld, prompt: string): Promise<HostRun> {
  const r = await runIn(w, bin, ['run', '--format', 'json', '--model', 'local/mock-model', prompt], 240_000);
  const id = /"sessionID":"(ses_[^"]+)"/.exec(r.stdout)?.[1] ?? '';
  return { ...r, sessionId: id };
}

/** OpenCode's own user message ids of a session, from its database. */
function userMessageIds(w: HostWorld, sessionId: string): string[] {
  const db = new Database(join(w.home, '.local', 'share', 'opencode', 'opencode.db'), { readonly: true, fileMustExist: true });
  try {
    const rows = db.prepare('SELECT id, data FROM message WHERE session_id = ? ORDER BY time_created').all(sessionId) as { id: string; data: string }[];
    return rows.filter((r) => (JSON.parse(r.data) as { role?: string }).role === 'user').map((r) => r.id);
  } finally {
    db.close();
  }
}

conformance({
  id: 'opencode',
  name: 'OpenCode',
  packages: [HOST_PACKAGES.opencode],
  api: 'openai-chat',
  how: '`opencode run --format json` with an `@ai-sdk/openai-compatible` provider → scripted Chat Completions API',
  env: () => ({
    OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_DEFAULT_PLUGINS: '1', OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1', OPENCODE_DISABLE_SHARE: '1',
  }),
  prepare: writeConfig,
  shellCall: { name: 'bash', args: { command: 'echo hello-from-mock', description: 'say hello' } },
  readCall: (w) => ({ name: 'read', args: { filePath: join(w.project, NOTES_FILE) } }),
  run: runOpencode,
  answered: (r) => r.stdout.includes('All done.'),
  kinds: { session_start: 1, prompt: 1, tool_use: 2, tool_result: 2, assistant_message: 1, session_end: 1 },
  // `opencode run` hands the prompt over in quotes.
  promptText: (p) => `"${p}"`,
  nativePromptId: (w, run) => userMessageIds(w, run.sessionId)[0] ?? 'missing from opencode.db',
  isAgentRequest: (r) => Array.isArray(r.body?.tools) && r.body.tools.length > 0,
  contextOf: (r) => systemTexts(r.body).filter((t) => t.startsWith('# claude-mem')).join('\n'),
  recall: {
    call: { name: 'mem_search', args: { query: 'hello-from-mock' } },
    answerOf: (requests) => requests.flatMap((r) => toolResults(r.body)).join('\n'),
  },
  notProven: ['plugin API V2 (OpenCode 2.x is not on the registry)', 'the model calling the MCP tools (the native tools are proven instead)'],
});
