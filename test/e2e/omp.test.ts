/**
 * The real OMP CLI (oh-my-pi 18.2.3 from the npm registry, on Bun 1.4.5 from the registry's
 * @oven/bun-linux-x64 package, both cached outside the repository) with the claude-mem extension
 * and MCP server installed by `claude-mem install --yes --ide omp`, run offline with `omp -p`
 * against a scripted OpenAI Chat Completions server (a `models.yml` provider, like Pi's).
 * 18.2.3 is the newest OMP that installs from the registry: 18.3.4 pins
 * @oh-my-pi/omp-stats@18.3.4, which was never published. Skipped, loudly and counted, only when
 * the registry is unreachable or the platform has no @oven/bun-linux-x64.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupWorker, ensureBuilt, queryDb, waitFor } from '../hook-runtime/helpers.js';
import { startFakeOpenAI, systemTexts, type FakeOpenAI } from './support/fake-openai.js';
import { ensureHostPackage, warnSkip, type HostInstall } from './support/host-cache.js';
import { claudeMemInstall, makeHostWorld, runIn, type HostWorld } from './support/host-world.js';

const OMP = { id: 'omp', pkg: '@oh-my-pi/pi-coding-agent', version: '18.2.3', bin: 'omp' };
// The platform package has no npm bin entry: its binary, relative to node_modules/.bin.
const BUN = { id: 'bun-linux-x64', pkg: '@oven/bun-linux-x64', version: '1.4.5', bin: join('..', '@oven', 'bun-linux-x64', 'bin', 'bun') };

function writeModels(w: HostWorld, fake: FakeOpenAI): void {
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

interface Stored { sessionId: string; kinds: Record<string, number>; toolResults: Record<string, unknown>[]; observations: number; ended: string | null }

function latestSession(dataDir: string): Stored | undefined {
  return queryDb(dataDir, (db) => {
    const s = db.prepare("SELECT id, host_session_id, ended_at FROM sessions WHERE host = 'omp' ORDER BY id DESC LIMIT 1").get() as { id: number; host_session_id: string; ended_at: string | null } | undefined;
    if (!s) return undefined;
    return {
      sessionId: s.host_session_id,
      kinds: Object.fromEntries((db.prepare('SELECT kind, count(*) AS n FROM events WHERE session_id = ? GROUP BY kind').all(s.id) as { kind: string; n: number }[]).map((r) => [r.kind, r.n])),
      toolResults: (db.prepare("SELECT payload FROM events WHERE session_id = ? AND kind = 'tool_result'").all(s.id) as { payload: string }[]).map((r) => JSON.parse(r.payload) as Record<string, unknown>),
      observations: (db.prepare('SELECT count(*) AS n FROM observations WHERE session_id = ?').get(s.id) as { n: number }).n,
      ended: s.ended_at,
    };
  });
}

describe(`OMP ${OMP.version} (real CLI on Bun ${BUN.version}) with the claude-mem extension`, () => {
  let bun: HostInstall = { ok: false, reason: 'not installed yet' };
  let omp: HostInstall = { ok: false, reason: 'not installed yet' };
  let fake: FakeOpenAI | undefined;
  let world: HostWorld | undefined;

  beforeAll(async () => {
    ensureBuilt();
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      warnSkip(`OMP ${OMP.version} end-to-end`, `needs Bun from @oven/bun-linux-x64; this is ${process.platform}-${process.arch}`);
      return;
    }
    bun = await ensureHostPackage(BUN);
    if (!bun.ok) return warnSkip(`OMP ${OMP.version} end-to-end`, bun.reason);
    omp = await ensureHostPackage(OMP);
    if (!omp.ok) warnSkip(`OMP ${OMP.version} end-to-end`, omp.reason);
  }, 20 * 60_000);

  afterAll(async () => {
    if (world) await cleanupWorker(world.env, world.dataDir);
    await fake?.close();
  });

  it('captures the prompt, the bash call with output and the session end once; context and the MCP memory tools reach the model', async (ctx) => {
    if (!bun.ok || !omp.ok) return ctx.skip();
    fake = await startFakeOpenAI();
    const w = (world = makeHostWorld('omp-home', {}, `${dirname(bun.binPath)}:${dirname(omp.binPath)}:${process.env.PATH}`));
    writeModels(w, fake);
    const result = await claudeMemInstall(w, 'omp');
    const mine = (result.hosts as Array<Record<string, any>>).find((h) => h.id === 'omp')!;
    expect(mine).toMatchObject({ status: 'ok', capture: 'plugin', recall: 'mcp', detected: { version: OMP.version } });

    const first = await runIn(w, omp.binPath, ['-p', '--model', 'local/mock-model', 'say hello using bash']);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('All done.');
    expect(first.stderr).not.toContain('capture is off');
    const callId = /"tool_call_id":"(call_[0-9a-f]+)"/.exec(fake.chatRequests().map((r) => r.text).join('\n'))?.[1];
    expect(callId).toBeTruthy();
    const s1 = await waitFor(() => {
      const s = latestSession(w.dataDir);
      return s?.ended && s.observations >= 1 ? s : undefined;
    }, 20_000);
    expect(s1.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(s1.kinds).toMatchObject({ session_start: 1, prompt: 1, tool_use: 1, tool_result: 1, assistant_message: 1, session_end: 1 });
    expect(s1.toolResults[0]).toMatchObject({ host: 'omp', toolName: 'Bash', toolUseId: callId, toolInput: { command: 'echo hello-from-mock' } });
    expect(JSON.stringify(s1.toolResults[0].toolResponse)).toContain('hello-from-mock');

    const before = fake.chatRequests().length;
    fake.call = null;
    const second = await runIn(w, omp.binPath, ['-p', '--model', 'local/mock-model', 'what did we do before?']);
    expect(second.code, second.stderr).toBe(0);
    const system = systemTexts(fake.chatRequests()[before].body).join('\n');
    expect(system).toContain('echo hello-from-mock'); // the memory context, appended as a system prompt part
    expect(system).toContain('mcp__claude_mem_mem_search'); // OMP mounted the claude-mem MCP server's tools
  }, 10 * 60_000);
});
