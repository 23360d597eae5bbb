/**
 * Grok Build (`grok -p --always-approve --output-format streaming-json`), the Rust binary from
 * the registry's @xai-official/grok-linux-x64 unpacked into the host cache, a custom model in
 * `~/.grok/config.toml` → a scripted Chat Completions API, run the way
 * test/fixtures/hosts/grok-build was captured, through the conformance scenario.
 *
 * Grok reads hook output only from PostToolUse (`additionalContext`), so session 2's memory
 * arrives with its first tool call's result, once per session.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { conformance, NOTES_FILE, type HostRun } from '../support/conformance.js';
import { HOST_PACKAGES } from '../support/host-packages.js';
import type { FakeModel, ModelRequest } from '../support/fake-model.js';
import { offersTool, toolResults } from '../support/fake-openai.js';
import { jsonLines, runIn, type HostWorld } from '../support/host-world.js';

/** The user's own config.toml before claude-mem: the model of the fixture README, made the default. */
function writeConfig(w: HostWorld, fake: FakeModel): void {
  const dir = join(w.home, '.grok');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.toml'), [
    'auto_update = false', '', '[models]', 'default = "mock-model"', '',
    '[model.mock-model]', 'model = "mock-model"', `base_url = "${fake.baseUrl}"`, 'name = "Mock model"',
    'api_key = "sk-test"', 'api_backend = "chat_completions"', 'context_window = 128000', '',
    '[features]', 'telemetry = false', '',
  ].join('\n'));
}

function endRecord(stdout: string): Record<string, any> | undefined {
  return jsonLines(stdout).find((rec) => rec.type === 'end');
}

async function runGrok(bin: string, w: HostWorld, prompt: string): Promise<HostRun> {
  const r = await runIn(w, bin, ['-p', prompt, '--always-approve', '--output-format', 'streaming-json', '-m', 'mock-model'], 150_000);
  return { ...r, sessionId: String(endRecord(r.stdout)?.sessionId ?? '') };
}

const isAgentRequest = (r: ModelRequest) => r.body?.model === 'mock-model' && offersTool(r.body, 'run_terminal_command');
const userTexts = (body: any): string[] => (body?.messages ?? []).filter((m: any) => m.role === 'user').map((m: any) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));

conformance({
  id: 'grok',
  name: 'Grok Build',
  packages: [HOST_PACKAGES.grok],
  linuxX64Only: 'runs the linux-x64 binary of @xai-official/grok-linux-x64',
  api: 'openai-chat',
  how: '`grok -p --always-approve --output-format streaming-json` with a `[model.mock-model]` in `~/.grok/config.toml` → scripted Chat Completions API',
  env: () => ({ GROK_DISABLE_AUTOUPDATER: '1', GROK_TELEMETRY_ENABLED: '0' }),
  prepare: writeConfig,
  shellCall: { name: 'run_terminal_command', args: { command: 'echo hello-from-mock', description: 'say hello' } },
  readCall: (w) => ({ name: 'read_file', args: { target_file: join(w.project, NOTES_FILE) } }),
  run: runGrok,
  answered: (r) => jsonLines(r.stdout).some((rec) => rec.type === 'text' && rec.data === 'All done.'),
  kinds: { session_start: 1, prompt: 1, tool_result: 2, assistant_message: 1, session_end: 1 },
  // The prompt id Grok reports as the run's requestId.
  nativePromptId: (_w, run) => String(endRecord(run.stdout)?.requestId ?? 'missing from the run output'),
  isAgentRequest,
  // PostToolUse's additionalContext follows the first tool result, as a user `<system-reminder>`.
  contextRequest: (requests) => requests.find((r) => toolResults(r.body).length > 0),
  contextWhen: 'first-tool-call (PostToolUse)',
  contextOf: (r) => userTexts(r.body).filter((t) => t.includes('PostToolUse hook')).join('\n'),
  recall: {
    // Grok reaches MCP tools through `use_tool` with the discovered `<server>__<tool>` name.
    call: { name: 'use_tool', args: { tool_name: 'claude-mem__mem_search', tool_input: { query: 'hello-from-mock' } } },
    answerOf: (requests) => requests.flatMap((r) => toolResults(r.body)).join('\n'),
  },
  notProven: ['PostToolUseFailure, SubagentStop, PreCompact', 'project hooks (`.grok/hooks/`, trusted with `/hooks-trust`)'],
});
