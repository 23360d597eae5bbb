/** The `--json` document: one object on stdout, a result per host, stable keys. */
import { beforeAll, describe, expect, it } from 'vitest';
import { HOST_IDS } from '../../src/shared/hosts.js';
import { cli, cliEnv, ensureBuiltNow, seedHome, tempHome } from './helpers.js';

interface HostDoc {
  id: string;
  label: string;
  selected: boolean;
  detected: { installed: boolean; evidence: Array<{ kind: string; detail: string }>; version?: string };
  capture: string | null;
  captureDetail: string[];
  recall: string | null;
  status: 'ok' | 'skipped' | 'failed';
  reason?: string;
  fix?: string;
  files: Array<{ path: string; action: string }>;
  nextSteps: string[];
  notes: string[];
  warnings: string[];
  trust?: { state: string; detail: string; hooks: unknown[] };
}

function lived() {
  const t = tempHome();
  seedHome(t.home);
  return { ...t, env: cliEnv(t.env, { PATH: '/usr/bin:/bin' }) };
}

beforeAll(() => ensureBuiltNow(), 180_000);

describe('install --json', () => {
  it('prints exactly one document with a result per host (detected + evidence, writer, recall, status, files, next steps)', () => {
    const w = lived();
    const r = cli(w.env, ['install', '--yes', '--ide', 'claude', 'codex-cli', 'cursor', '--no-start', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as Record<string, unknown> & { hosts: HostDoc[] };
    expect(Object.keys(doc).sort()).toEqual(['backups', 'created', 'dataDir', 'dryRun', 'hosts', 'ok', 'port', 'runtime', 'version', 'worker'].sort());
    expect(doc).toMatchObject({ ok: true, dryRun: false, dataDir: w.dataDir, worker: { ok: true, state: 'not-started' } });
    expect(doc.hosts.map((h) => h.id)).toEqual([...HOST_IDS]);
    for (const h of doc.hosts) {
      expect(h).toMatchObject({
        id: expect.any(String), label: expect.any(String), selected: expect.any(Boolean),
        detected: { installed: expect.any(Boolean), evidence: expect.any(Array) },
        status: expect.stringMatching(/^(ok|skipped|failed)$/), files: expect.any(Array), nextSteps: expect.any(Array),
        notes: expect.any(Array), warnings: expect.any(Array), captureDetail: expect.any(Array),
      });
    }
    const claude = doc.hosts.find((h) => h.id === 'claude-code')!;
    expect(claude).toMatchObject({ selected: true, status: 'ok', capture: 'hooks', recall: 'mcp' });
    expect(claude.detected.installed).toBe(true);
    expect(claude.detected.evidence.some((e) => e.detail.endsWith('.claude'))).toBe(true);
    expect(claude.files.map((f) => f.action).sort()).toEqual(['modified', 'modified']);
    const cursor = doc.hosts.find((h) => h.id === 'cursor')!;
    expect(cursor.captureDetail.join()).toMatch(/Cursor also runs Claude Code's hooks/);
    const codex = doc.hosts.find((h) => h.id === 'codex')!;
    expect(codex.trust).toMatchObject({ state: 'unavailable', detail: expect.stringMatching(/not on PATH/) });
    const warp = doc.hosts.find((h) => h.id === 'warp')!;
    expect(warp).toMatchObject({ selected: false, status: 'skipped', capture: null });
  });

  it('--all-detected selects exactly the hosts found; --no-start is honoured; logs never reach stdout', () => {
    const w = lived();
    const r = cli(w.env, ['install', '--all-detected', '--no-start', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout) as { hosts: HostDoc[] };
    for (const h of doc.hosts) expect(h.selected, h.id).toBe(h.detected.installed);
    expect(doc.hosts.filter((h) => h.selected).map((h) => h.id)).toEqual(expect.arrayContaining(['claude-code', 'codex', 'cursor', 'goose', 'copilot']));
    // Without --yes nothing consented to trusting Codex hooks.
    expect(doc.hosts.find((h) => h.id === 'codex')!.trust?.state).toBe('not-asked');
  });
});
