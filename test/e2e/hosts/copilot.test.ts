/**
 * GitHub Copilot CLI (`copilot -p`, BYOK offline: COPILOT_PROVIDER_BASE_URL + COPILOT_OFFLINE →
 * a scripted Chat Completions API), run the way test/fixtures/hosts/copilot-cli was captured,
 * through the conformance scenario.
 *
 * The project also carries a `.claude/settings.json` with claude-mem's Claude Code hooks: Copilot
 * runs those too (in `-p` mode once GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS=true opts in), and every
 * event must still be stored exactly once, under Copilot.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIST_BIN } from '../../helpers/temp.js';
import { conformance, NOTES_FILE, type HostRun } from '../support/conformance.js';
import { HOST_PACKAGES } from '../support/host-packages.js';
import { toolResults } from '../support/fake-openai.js';
import { jsonLines, runIn, type HostWorld } from '../support/host-world.js';

const CLAUDE_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'SessionEnd'];
const q = (s: string) => `"${s.replace(/(["\\$`])/g, '\\$1')}"`;
const firedLog = (w: HostWorld) => join(w.project, '.claude', 'hooks-fired.log');

/** claude-mem's Claude Code hook for each event, next to a probe that logs the event name. */
function writeClaudeProjectHooks(w: HostWorld): void {
  const hooks = Object.fromEntries(CLAUDE_EVENTS.map((ev) => [ev, [{
    matcher: '*',
    hooks: [
      { type: 'command', command: `${q(process.execPath)} ${q(DIST_BIN)} hook claude-code ${ev}` },
      { type: 'command', command: `echo ${ev} >> ${q(firedLog(w))}` },
    ],
  }]]));
  mkdirSync(join(w.project, '.claude'), { recursive: true });
  writeFileSync(join(w.project, '.claude', 'settings.json'), `${JSON.stringify({ hooks }, null, 2)}\n`);
}

async function runCopilot(bin: string, w: HostWorld, prompt: string): Promise<HostRun> {
  const r = await runIn(w, bin, ['-p', prompt, '--allow-all-tools', '--output-format', 'json', '--no-auto-update', '--disable-client-telemetry'], 150_000);
  const records = jsonLines(r.stdout);
  const sessionId = String(records.find((rec) => rec.type === 'result')?.sessionId ?? records.find((rec) => rec.type === 'session.start')?.data?.sessionId ?? '');
  return { ...r, sessionId };
}

const userTexts = (body: any): string[] => (body?.messages ?? []).filter((m: any) => m.role === 'user').map((m: any) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)));

conformance({
  id: 'copilot',
  name: 'Copilot CLI',
  packages: [HOST_PACKAGES.copilot],
  api: 'openai-chat',
  how: '`copilot -p --allow-all-tools`, BYOK offline (`COPILOT_PROVIDER_BASE_URL`, `COPILOT_OFFLINE=true`) → scripted Chat Completions API; the project also has claude-mem\'s Claude Code hooks in `.claude/settings.json`',
  env: (fake) => ({
    COPILOT_OFFLINE: 'true', COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_BASE_URL: fake.baseUrl, COPILOT_PROVIDER_TYPE: 'openai', COPILOT_PROVIDER_WIRE_API: 'completions',
    COPILOT_PROVIDER_API_KEY: 'sk-test', COPILOT_MODEL: 'mock-model',
    COPILOT_PROVIDER_MAX_PROMPT_TOKENS: '100000', COPILOT_PROVIDER_MAX_OUTPUT_TOKENS: '4096',
    // `-p` loads repository hooks (.github/hooks, .claude/settings.json) only in a trusted folder or
    // with this opt-in; it is set so the project's .claude hooks really run next to ours.
    GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS: 'true',
  }),
  prepare: writeClaudeProjectHooks,
  shellCall: { name: 'bash', args: { command: 'echo hello-from-mock', description: 'say hello' } },
  readCall: (w) => ({ name: 'view', args: { path: join(w.project, NOTES_FILE) } }),
  run: runCopilot,
  answered: (r) => r.stdout.includes('All done.'),
  // agentStop carries no assistant text in this version, so no assistant_message.
  kinds: { session_start: 1, prompt: 1, tool_result: 2, session_end: 1 },
  nativePromptId: () => null,
  // sessionStart's additionalContext arrives as a user message of its own.
  contextOf: (r) => userTexts(r.body).join('\n'),
  afterFirstSession: (w) => {
    const fired = existsSync(firedLog(w)) ? readFileSync(firedLog(w), 'utf8').split('\n').filter(Boolean) : [];
    if (!['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'SessionEnd'].every((e) => fired.includes(e))) {
      throw new Error(`Copilot did not run the project's .claude/settings.json hooks: ${fired.join(', ')}`);
    }
    return ["Copilot also ran claude-mem's Claude Code hooks from the project's `.claude/settings.json`; they were recognised and dropped (nothing stored twice, nothing under claude-code)"];
  },
  recall: {
    call: { name: 'claude-mem-mem_search', args: { query: 'hello-from-mock' } },
    answerOf: (requests) => requests.flatMap((r) => toolResults(r.body)).join('\n'),
  },
  notProven: ['userPromptSubmitted context (present in the fixture only)', 'postToolUseFailure, preCompact'],
});
