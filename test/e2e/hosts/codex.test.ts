/**
 * Codex CLI (`codex exec`, a custom model provider → a scripted Responses API), run the way
 * test/fixtures/hosts/codex was captured, through the conformance scenario. `install --yes`
 * turns the hooks feature on and trusts the hooks through `codex app-server`; the user's own
 * config.toml must come back byte for byte after uninstall. Codex has no file-read tool: it reads
 * files through its shell, so the scripted read is `cat`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { writeCodexUserConfig } from '../support/codex-config.js';
import { join } from 'node:path';
import { conformance, NOTES_FILE, type HostRun } from '../support/conformance.js';
import { HOST_PACKAGES } from '../support/host-packages.js';
import { runIn, type HostWorld } from '../support/host-world.js';

async function runCodex(bin: string, w: HostWorld, prompt: string): Promise<HostRun> {
  const r = await runIn(w, bin, ['exec', '--json', '--skip-git-repo-check', prompt], 150_000);
  return { ...r, sessionId: /"thread_id":"([^"]+)"/.exec(r.stdout)?.[1] ?? '' };
}

/** The turn ids of a thread, from its rollout (what the hooks carried as turn_id). */
function rolloutTurnIds(w: HostWorld, thread: string): string[] {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith(`${thread}.jsonl`)) files.push(join(d, e.name));
    }
  };
  walk(join(w.home, '.codex', 'sessions'));
  const ids = new Set<string>();
  for (const line of readFileSync(files[0], 'utf8').split('\n')) {
    const m = /"type":"turn_context","payload":\{[^]*?"turn_id":"([^"]+)"/.exec(line);
    if (m) ids.add(m[1]);
  }
  return [...ids];
}

conformance({
  id: 'codex',
  name: 'Codex CLI',
  packages: [HOST_PACKAGES.codex],
  api: 'openai-responses',
  how: '`codex exec --json` with a custom model provider (`wire_api = "responses"`) → scripted Responses API',
  env: () => ({ MOCK_API_KEY: 'sk-test' }),
  prepare: (w, fake) => writeCodexUserConfig(w.home, w.project, fake.baseUrl),
  // Install trusts the hooks through `codex app-server`, which sets up Codex's own state.
  hostState: /^\.codex\/(\.tmp(\/|$)|skills(\/|$)|[a-z]+_\d+\.sqlite(-shm|-wal)?$|installation_id$)/,
  shellCall: { name: 'exec_command', args: { cmd: 'echo hello-from-mock' } },
  readCall: () => ({ name: 'exec_command', args: { cmd: `cat ${NOTES_FILE}` } }),
  run: runCodex,
  answered: (r) => r.stdout.includes('All done.'),
  kinds: { session_start: 1, prompt: 1, tool_result: 2, assistant_message: 1, session_end: 1 },
  nativePromptId: (w, run) => rolloutTurnIds(w, run.sessionId)[0] ?? 'missing from the rollout',
  // Hook context arrives as developer messages of the input (fixture request-excerpts.json).
  contextOf: (r) => (r.body?.input ?? []).filter((i: any) => i?.role === 'developer').map((i: any) => JSON.stringify(i.content)).join('\n'),
  notProven: ['the model calling the MCP tools', 'interactive `codex` (TUI) sessions'],
});
