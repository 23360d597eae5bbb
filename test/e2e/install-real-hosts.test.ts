/**
 * `claude-mem install --yes --ide claude-code codex` against the real Claude Code and Codex CLIs
 * (pinned versions from test/fixtures/hosts/*, installed from the npm registry into a cache
 * outside the repository), offline, in a temporary HOME:
 *  - `claude mcp list` shows (and connects to) the claude-mem MCP server;
 *  - Codex, run against a scripted Responses API on 127.0.0.1, skips our hooks while they are
 *    untrusted (install without consent), and runs them once install --yes trusted them through
 *    `codex app-server`: their events land in the database;
 *  - uninstall puts config.toml back byte for byte (trust entries included).
 * Skipped, loudly and counted, only when the registry is unreachable.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codexTrustStatus } from '../../src/hosts/codex/codex-trust.js';
import { DIST_BIN } from '../helpers/temp.js';
import { cleanupWorker, ensureBuilt, queryDb, waitFor } from '../hook-runtime/helpers.js';
import { startFakeResponses, type FakeResponses } from './support/fake-responses.js';
import { ensureHostPackage, warnSkip, type HostInstall } from './support/host-cache.js';
import { scriptFor } from './support/model-script.js';
import { HOST_PACKAGES } from './support/host-packages.js';
import { writeCodexUserConfig } from './support/codex-config.js';
import { makeHostWorld, runIn, type HostWorld } from './support/host-world.js';

const CLAUDE_CODE = HOST_PACKAGES.claudeCode;
const CODEX = HOST_PACKAGES.codex;

interface World extends HostWorld {
  codexConfig: string;
}

function run(bin: string, args: string[], w: World, timeoutMs = 150_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runIn(w, bin, args, timeoutMs);
}

/** HOME, project and environment as in the fixture READMEs, with both hosts' binaries on PATH. */
function makeWorld(fake: FakeResponses, claude: string, codex: string): World {
  const w = makeHostWorld('real-hosts', {
    MOCK_API_KEY: 'sk-test', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1',
  }, [dirname(claude), dirname(codex), dirname(process.execPath), '/usr/bin', '/bin'].join(':'));
  writeFileSync(join(w.home, '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true, theme: 'dark' }));
  return { ...w, codexConfig: writeCodexUserConfig(w.home, w.project, fake.baseUrl) };
}

describe(`install into the real Claude Code ${CLAUDE_CODE.version} and Codex ${CODEX.version}`, () => {
  let claude: HostInstall = { ok: false, reason: 'not installed yet' };
  let codex: HostInstall = { ok: false, reason: 'not installed yet' };
  let fake: FakeResponses | undefined;
  let world: World | undefined;

  beforeAll(async () => {
    ensureBuilt();
    [claude, codex] = await Promise.all([ensureHostPackage(CLAUDE_CODE), ensureHostPackage(CODEX)]);
    if (!claude.ok) warnSkip(`install into Claude Code ${CLAUDE_CODE.version}`, claude.reason);
    if (!codex.ok) warnSkip(`install into Codex ${CODEX.version}`, codex.reason);
  }, 20 * 60_000);

  afterAll(async () => {
    if (world) await cleanupWorker(world.env, world.dataDir);
    await fake?.close();
  });

  it('installs both; claude mcp list shows the server; Codex skips untrusted hooks, runs trusted ones, and their events are stored; uninstall restores config.toml', async (ctx) => {
    if (!claude.ok || !codex.ok) return ctx.skip();
    const claudeBin = claude.binPath;
    const codexBin = codex.binPath;
    fake = await startFakeResponses();
    fake.script = scriptFor([{ name: 'exec_command', args: { cmd: 'echo hello-from-mock' } }]);
    const w = (world = makeWorld(fake, claudeBin, codexBin));
    const originalConfig = readFileSync(w.codexConfig, 'utf8');

    const codexEvents = (thread: string) => {
      try {
        const rows = queryDb(w.dataDir, (db) => db.prepare(
          "SELECT e.kind AS kind, count(*) AS n FROM events e JOIN sessions s ON s.id = e.session_id WHERE s.host = 'codex' AND s.host_session_id = ? GROUP BY e.kind",
        ).all(thread) as Array<{ kind: string; n: number }>);
        return Object.fromEntries(rows.map((r) => [r.kind, r.n])) as Record<string, number>;
      } catch {
        return {};
      }
    };
    const execCodex = async () => {
      const ex = await run(codexBin, ['exec', '--json', '--skip-git-repo-check', 'say hello using the shell'], w);
      expect(ex.code, ex.stderr).toBe(0);
      expect(ex.stdout).toContain('All done.');
      const thread = /"thread_id":"([^"]+)"/.exec(ex.stdout)?.[1];
      expect(thread).toBeTruthy();
      return thread!;
    };

    // Without consent nothing is trusted, and Codex skips our hooks without a word.
    const noConsent = await run(process.execPath, [DIST_BIN, 'install', '--ide', 'claude-code', 'codex', '--json'], w);
    expect(noConsent.code, noConsent.stderr + noConsent.stdout).toBe(0);
    const first = JSON.parse(noConsent.stdout) as { hosts: Array<{ id: string; trust?: { state: string }; warnings: string[] }> };
    expect(first.hosts.find((h) => h.id === 'codex')!.trust?.state).toBe('not-asked');
    expect((await codexTrustStatus({ env: w.env, dataDir: w.dataDir })).state).toBe('untrusted');
    const skipped = await execCodex();
    await new Promise((r) => setTimeout(r, 1500));
    expect(codexEvents(skipped), 'untrusted hooks ran').toEqual({});

    // With consent (--yes), install trusts them through codex app-server.
    const inst = await run(process.execPath, [DIST_BIN, 'install', '--yes', '--ide', 'claude-code', 'codex', '--json'], w);
    expect(inst.code, inst.stderr + inst.stdout).toBe(0);
    const doc = JSON.parse(inst.stdout) as { hosts: Array<{ id: string; status: string; trust?: { state: string; hooks: unknown[] }; warnings: string[] }>; worker: { ok: boolean } };
    const cx = doc.hosts.find((h) => h.id === 'codex')!;
    expect(cx.status).toBe('ok');
    expect(cx.trust?.state, JSON.stringify(cx)).toBe('trusted');
    expect(cx.warnings).toEqual([]);
    expect(doc.worker.ok).toBe(true);
    expect(readFileSync(w.codexConfig, 'utf8')).toMatch(/\[hooks\.state\."[^"]+hooks\.json:session_start:0:0"\]\ntrusted_hash = "sha256:[0-9a-f]{64}"/);
    expect((await codexTrustStatus({ env: w.env, dataDir: w.dataDir })).state).toBe('trusted');

    // Claude Code sees (and reaches) the MCP server we registered.
    const mcp = await run(claudeBin, ['mcp', 'list'], w, 120_000);
    expect(mcp.code, mcp.stderr).toBe(0);
    expect(mcp.stdout).toMatch(/claude-mem:.*Connected/);

    // Codex: one prompt, one shell call; our hooks fire without --dangerously-bypass-hook-trust.
    const thread = await execCodex();
    const kinds = await waitFor(() => {
      const k = codexEvents(thread);
      return k.prompt && k.tool_result ? k : undefined;
    }, 30_000);
    expect(kinds).toMatchObject({ session_start: 1, prompt: 1, tool_result: 1 });

    const un = await run(process.execPath, [DIST_BIN, 'uninstall', '--yes', '--json'], w);
    expect(un.code, un.stderr).toBe(0);
    expect(readFileSync(w.codexConfig, 'utf8')).toBe(originalConfig);
    expect(existsSync(join(w.home, '.codex', 'hooks.json'))).toBe(false);
    expect(readFileSync(join(w.home, '.claude.json'), 'utf8')).not.toContain('claude-mem');
  }, 10 * 60_000);
});
