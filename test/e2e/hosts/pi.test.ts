/**
 * Pi (`pi -p --mode json`, a models.json provider → a scripted Chat Completions API), run the way
 * test/fixtures/hosts/pi was captured, through the conformance scenario; plus a cold start:
 * with no worker running, Pi is not held up and its events land once the extension started one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cleanupWorker, ensureBuilt, queryDb, stopWorker, waitFor } from '../../hook-runtime/helpers.js';
import { conformance, NOTES_FILE, SHELL_MARKER, type HostRun } from '../support/conformance.js';
import { HOST_PACKAGES } from '../support/host-packages.js';
import { systemTexts, toolResults } from '../support/fake-openai.js';
import { startFakeModel, type FakeModel } from '../support/fake-model.js';
import { ensureHostPackage, warnSkip, type HostInstall } from '../support/host-cache.js';
import { claudeMemInstall, makeHostWorld, runIn, type HostWorld } from '../support/host-world.js';
import { scriptFor } from '../support/model-script.js';

const PI = HOST_PACKAGES.pi;
const binDir = (i: HostInstall) => (i.ok ? join(i.dir, 'node_modules', '.bin') : '');

function writeModels(w: HostWorld, fake: FakeModel): void {
  const dir = join(w.home, '.pi', 'agent');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'models.json'), JSON.stringify({
    providers: {
      local: {
        baseUrl: fake.baseUrl, api: 'openai-completions', apiKey: 'sk-test',
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: 'mock-model', name: 'Mock model', reasoning: false, contextWindow: 128000, maxTokens: 4096 }],
      },
    },
  }, null, 2));
}

async function runPi(bin: string, w: HostWorld, prompt: string): Promise<HostRun> {
  const r = await runIn(w, bin, ['-p', '--mode', 'json', '--provider', 'local', '--model', 'mock-model', prompt]);
  // The first record of the JSON stream is the session header.
  return { ...r, sessionId: /"type":"session"[^\n]*?"id":"([0-9a-f-]{36})"/.exec(r.stdout)?.[1] ?? '' };
}

conformance({
  id: 'pi',
  name: 'Pi',
  packages: [PI],
  api: 'openai-chat',
  how: '`pi -p --mode json` with a `models.json` provider → scripted Chat Completions API',
  path: (installs) => [binDir(installs[0])],
  env: () => ({ PI_OFFLINE: '1' }),
  prepare: writeModels,
  shellCall: { name: 'bash', args: { command: 'echo hello-from-mock' } },
  readCall: (w) => ({ name: 'read', args: { path: join(w.project, NOTES_FILE) } }),
  run: runPi,
  answered: (r) => r.stdout.includes('All done.') && !r.stderr.includes('capture is off'),
  kinds: { session_start: 1, prompt: 1, tool_use: 2, tool_result: 2, assistant_message: 1, session_end: 1 },
  nativePromptId: () => null,
  contextOf: (r) => systemTexts(r.body).join('\n'),
  recall: {
    call: { name: 'mem_search', args: { query: 'hello-from-mock' } },
    answerOf: (requests) => requests.flatMap((r) => toolResults(r.body)).join('\n'),
  },
  notProven: [],
});

describe(`Pi ${PI.version} (real CLI): cold start`, () => {
  let install: HostInstall = { ok: false, reason: 'not installed yet' };
  beforeAll(async () => {
    ensureBuilt();
    install = await ensureHostPackage(PI);
    if (!install.ok) warnSkip(`Pi ${PI.version} cold start`, install.reason);
  }, 15 * 60_000);

  it('with no worker running, Pi is not held up and the events land once the extension started the worker', async (ctx) => {
    if (!install.ok) return ctx.skip();
    const fake = await startFakeModel('openai-chat');
    fake.script = scriptFor([{ name: 'bash', args: { command: `echo ${SHELL_MARKER}` } }]);
    const w = makeHostWorld('pi-cold', { PI_OFFLINE: '1' }, `${binDir(install)}:${process.env.PATH}`);
    writeModels(w, fake);
    await claudeMemInstall(w, 'pi');
    stopWorker(w.env); // the extension must start it itself
    try {
      const run = await runPi(install.binPath, w, 'say hello using bash');
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain('All done.');
      const kinds = await waitFor(() => {
        try {
          return queryDb(w.dataDir, (db) => {
            const rows = db.prepare("SELECT e.kind AS kind, count(*) AS n FROM events e JOIN sessions s ON s.id = e.session_id WHERE s.host = 'pi' AND s.host_session_id = ? GROUP BY e.kind").all(run.sessionId) as { kind: string; n: number }[];
            const k = Object.fromEntries(rows.map((r) => [r.kind, r.n]));
            return k.session_end ? k : undefined;
          });
        } catch {
          return undefined; // no database yet
        }
      }, 30_000);
      expect(kinds).toEqual({ session_start: 1, prompt: 1, tool_use: 1, tool_result: 1, assistant_message: 1, session_end: 1 });
    } finally {
      await cleanupWorker(w.env, w.dataDir);
      await fake.close();
    }
  }, 10 * 60_000);
});
