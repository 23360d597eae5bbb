/**
 * A full install (every host, worker started): every check passes but for the warnings this
 * machine must give (no host CLI on PATH), and doctor without --fix changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, doctor, doctorHome, hashTree, installAll, stopWorker, type TestHome } from './helpers.js';

/**
 * The only warnings a machine without host CLIs may give, each for a reason doctor cannot remove:
 * Codex trust is asked of `codex app-server` (no codex here); Pi, OMP and OpenCode load claude-mem
 * only on known extension API versions, read from their binaries (none here).
 */
const EXPECTED_WARNS = new Set(['codex.hooks-trust', 'opencode.plugin-api', 'omp.api-version', 'pi.api-version']);
// The database changes under every probe (written, then removed), the worker logs, and the hook keeps its code cache next to the program; nothing else may.
const VOLATILE = /^\.claude-mem\/(claude-mem\.db(-wal|-shm)?|logs|runtime\/[^/]+\/(.+\/)?dist\/hook\.v8-[^/]+\.cache)$/;

let h: TestHome;

beforeAll(() => {
  h = doctorHome();
  installAll(h);
}, 120_000);

afterAll(() => stopWorker(h));

describe('doctor after a full install', () => {
  it('passes every check, with only the expected warnings, and changes nothing', () => {
    const before = hashTree(h.home, VOLATILE);
    const t0 = performance.now();
    const { status, report } = doctor(h);
    const ms = performance.now() - t0;
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    const warns = report.checks.filter((c) => c.status === 'warn');
    expect(warns.map((c) => c.id).filter((id) => !EXPECTED_WARNS.has(id))).toEqual([]);
    expect(status).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.fixed).toEqual([]);
    expect(Object.keys(report).sort()).toEqual(['checks', 'fixed', 'ok', 'version']);
    // Every hook host was proven by a live round trip, every MCP host by mem_search.
    const ids = new Set(report.checks.map((c) => c.id));
    for (const host of ['claude-code', 'codex', 'cursor', 'windsurf', 'kimi', 'antigravity', 'grok', 'copilot', 'gemini', 'goose']) {
      expect(report.checks.find((c) => c.id === `${host}.round-trip`)?.status, host).toBe('ok');
    }
    for (const host of ['claude-code', 'codex', 'opencode', 'openclaw', 'omp', 'dsh', 'warp', 'gemini']) expect(ids.has(`${host}.mcp`), host).toBe(true);
    expect(report.checks.find((c) => c.id === 'capture.probe-cleanup')?.status).toBe('ok');
    expect(hashTree(h.home, VOLATILE)).toEqual(before);
    console.log(`doctor --json, 17 hosts: ${Math.round(ms)} ms`);
  }, 60_000);

  it('leaves no probe data behind', async () => {
    const { openStore } = await import('../../src/store/sqlite-store.js');
    const store = openStore(`${h.dataDir}/claude-mem.db`, { readonly: true });
    try {
      const hits = store.search({ query: 'claude-mem doctor probe', limit: 50 });
      expect(hits.results.filter((x) => x.hostSessionId.startsWith('claude-mem-doctor-probe-'))).toEqual([]);
      expect(store.stats().sessions).toBe(0);
    } finally {
      store.close();
    }
  });

  it('prints one plain line per check off a terminal, and --strict fails on warnings', () => {
    const r = cli(h.env, ['doctor', '--ide', 'pi']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^Runtime$/m);
    expect(r.stdout).toMatch(/^ {2}ok {3}runtime\.node /m);
    expect(r.stdout).toMatch(/^ {4}warn pi\.api-version /m);
    expect(r.stdout).not.toMatch(/[✓✗]|\x1b\[/);
    expect(cli(h.env, ['doctor', '--ide', 'pi', '--strict', '--json']).status).toBe(1);
    expect(cli(h.env, ['doctor', '--ide', 'nope']).status).toBe(2);
  }, 60_000);
});
