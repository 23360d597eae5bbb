/**
 * Claude Code (`claude -p`, ANTHROPIC_BASE_URL → a scripted Messages API), run the way
 * test/fixtures/hosts/claude-code was captured, through the conformance scenario.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { conformance, NOTES_FILE, type HostRun } from '../support/conformance.js';
import { HOST_PACKAGES } from '../support/host-packages.js';
import { jsonLines, runIn, type HostWorld } from '../support/host-world.js';

/** The host's own prompt ids, from its transcript (what UserPromptSubmit carried as prompt_id). */
function transcriptPromptIds(w: HostWorld, sessionId: string): string[] {
  const slug = w.project.replace(/[^A-Za-z0-9]/g, '-');
  const ids = new Set<string>();
  for (const line of readFileSync(join(w.home, '.claude', 'projects', slug, `${sessionId}.jsonl`), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { type?: string; promptId?: string; message?: { content?: unknown } };
    if (r.type === 'user' && r.promptId && typeof r.message?.content === 'string') ids.add(r.promptId);
  }
  return [...ids];
}

async function runClaude(bin: string, w: HostWorld, prompt: string): Promise<HostRun> {
  const r = await runIn(w, bin, ['-p', prompt, '--allowedTools', 'Bash,Read,mcp__claude-mem__mem_search', '--output-format', 'stream-json', '--verbose'], 150_000);
  const init = jsonLines(r.stdout).find((rec) => rec.type === 'system' && rec.subtype === 'init');
  const sessionId = String(init?.session_id ?? '');
  return { ...r, sessionId };
}

conformance({
  id: 'claude-code',
  name: 'Claude Code',
  packages: [HOST_PACKAGES.claudeCode],
  api: 'anthropic-messages',
  how: '`claude -p` with `ANTHROPIC_BASE_URL` → scripted Messages API (SSE)',
  env: (fake) => ({
    ANTHROPIC_BASE_URL: fake.baseUrl, ANTHROPIC_API_KEY: 'sk-test', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1',
  }),
  prepare: (w) => writeFileSync(join(w.home, '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true, theme: 'dark' })),
  shellCall: { name: 'Bash', args: { command: 'echo hello-from-mock' } },
  readCall: (w) => ({ name: 'Read', args: { file_path: join(w.project, NOTES_FILE) } }),
  run: runClaude,
  answered: (r) => r.stdout.includes('All done.'),
  kinds: { session_start: 1, prompt: 1, tool_result: 2, assistant_message: 1, session_end: 1 },
  nativePromptId: (w, run) => transcriptPromptIds(w, run.sessionId)[0] ?? 'missing from the transcript',
  isAgentRequest: (r) => Array.isArray(r.body?.tools) && r.body.tools.length > 0,
  contextOf: (r) => /SessionStart hook additional context:((?:[^"\\]|\\.)*)/.exec(r.text)?.[1] ?? '',
  recall: {
    call: { name: 'mcp__claude-mem__mem_search', args: { query: 'hello-from-mock' } },
    answerOf: (requests) => requests.flatMap((r) => (r.body?.messages ?? []).flatMap((m: any) => (Array.isArray(m.content) ? m.content : []))
      .filter((c: any) => c?.type === 'tool_result').map((c: any) => JSON.stringify(c.content))).join('\n'),
  },
  notProven: ['UserPromptSubmit context reaching the model'],
});
