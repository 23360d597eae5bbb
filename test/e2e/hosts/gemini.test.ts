/**
 * Gemini CLI (`gemini -p`, GOOGLE_GEMINI_BASE_URL → a scripted Gemini API over SSE), run the way
 * test/fixtures/hosts/gemini-cli was captured, through the conformance scenario. The user's
 * own settings.json exists before install; uninstall must hand it back byte for byte.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { conformance, NOTES_FILE, type HostRun } from '../support/conformance.js';
import { HOST_PACKAGES } from '../support/host-packages.js';
import { functionOutputs, userTexts } from '../support/fake-gemini.js';
import { jsonLines, runIn, type HostWorld } from '../support/host-world.js';

/** API-key auth (with only the base URL set, `-p` picks the "gateway" auth type and exits 41), no telemetry, no updates. */
const USER_SETTINGS = {
  security: { auth: { selectedType: 'gemini-api-key' } },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
};

async function runGemini(bin: string, w: HostWorld, prompt: string): Promise<HostRun> {
  const r = await runIn(w, bin, ['-p', prompt, '--yolo', '--output-format', 'stream-json', '-m', 'mock-model'], 150_000);
  const sessionId = String(jsonLines(r.stdout).find((rec) => rec.type === 'init' && rec.session_id)?.session_id ?? '');
  return { ...r, sessionId };
}

conformance({
  id: 'gemini',
  name: 'Gemini CLI',
  packages: [HOST_PACKAGES.gemini],
  api: 'gemini',
  how: '`gemini -p --yolo` with `GOOGLE_GEMINI_BASE_URL` → scripted Gemini API (streamGenerateContent, SSE)',
  env: (fake) => ({ GOOGLE_GEMINI_BASE_URL: fake.baseUrl, GEMINI_API_KEY: 'sk-test', GEMINI_CLI_TRUST_WORKSPACE: 'true', GEMINI_CLI_NO_RELAUNCH: 'true' }),
  prepare: (w) => {
    mkdirSync(join(w.home, '.gemini'), { recursive: true });
    writeFileSync(join(w.home, '.gemini', 'settings.json'), `${JSON.stringify(USER_SETTINGS, null, 2)}\n`);
  },
  shellCall: { name: 'run_shell_command', args: { command: 'echo hello-from-mock' } },
  readCall: (w) => ({ name: 'read_file', args: { file_path: join(w.project, NOTES_FILE) } }),
  run: runGemini,
  // The answer streams in pieces ("All ", "done."); the run's result record says it finished.
  answered: (r) => /"type":"result"[^\n]*"status":"success"/.test(r.stdout),
  kinds: { session_start: 1, prompt: 1, tool_result: 2, assistant_message: 1, session_end: 1 },
  nativePromptId: () => null,
  contextOf: (r) => userTexts(r.body).filter((t) => t.includes('<hook_context>')).join('\n'),
  recall: {
    call: { name: 'mcp_claude-mem_mem_search', args: { query: 'hello-from-mock' } },
    answerOf: (requests) => requests.flatMap((r) => functionOutputs(r.body)).join('\n'),
  },
  notProven: ['BeforeAgent (per-prompt) context reaching the model', '`GEMINI_CLI_HOME`'],
});
