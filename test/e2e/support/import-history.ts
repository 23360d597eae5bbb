/**
 * History import against the real host, the same for every conformance host that has a history
 * source: the host runs a session BEFORE claude-mem is installed; `claude-mem install --yes
 * --ide <host> --import-history` then stores that session from the host's own log — the session,
 * its prompt with the host's id, both tool calls with their results and the answer, each once,
 * and its summary. A second session then runs with claude-mem installed (captured live), and a
 * second `claude-mem import-history` over both logs stores nothing more.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { historySourcesFor } from '../../../src/transcripts/history.js';
import type { HostId } from '../../../src/shared/hosts.js';
import { DIST_BIN } from '../../helpers/temp.js';
import { cleanupWorker, ensureBuilt, queryDb } from '../../hook-runtime/helpers.js';
import { NOTES_FILE, READ_MARKER, SHELL_MARKER, type ConformanceHost } from './conformance.js';
import { startFakeModel, type FakeModel } from './fake-model.js';
import { ensureHostPackage, warnSkip, type HostInstall } from './host-cache.js';
import { makeHostWorld, runIn, type HostWorld } from './host-world.js';
import { scriptFor } from './model-script.js';

interface Stored {
  sessions: Array<{ id: number; hostSessionId: string }>;
  prompts: Array<{ session: string; text: string; native_id: string | null }>;
  observations: Array<{ session: string; tool_use_id: string | null; title: string }>;
  answers: Array<{ session: string; text: string }>;
  summaries: Array<{ session: string; request: string }>;
  toolResults: Array<Record<string, any>>;
}

function stored(dataDir: string, host: string): Stored {
  return queryDb(dataDir, (db) => {
    const q = <T>(sql: string) => db.prepare(sql).all(host) as T[];
    const join = 'JOIN sessions s ON s.id = r.session_id WHERE s.host = ?';
    return {
      sessions: q<{ id: number; hostSessionId: string }>('SELECT id, host_session_id AS hostSessionId FROM sessions WHERE host = ? ORDER BY id'),
      prompts: q(`SELECT s.host_session_id AS session, r.text, r.native_id FROM prompts r ${join} ORDER BY r.id`),
      observations: q(`SELECT s.host_session_id AS session, r.tool_use_id, r.title FROM observations r ${join} ORDER BY r.id`),
      answers: q(`SELECT s.host_session_id AS session, r.text FROM assistant_messages r ${join} ORDER BY r.id`),
      summaries: q(`SELECT s.host_session_id AS session, r.request FROM summaries r ${join} ORDER BY r.id`),
      toolResults: (q<{ payload: string }>(`SELECT r.payload FROM events r ${join} AND r.kind = 'tool_result' ORDER BY r.id`)).map((r) => JSON.parse(r.payload) as Record<string, any>),
    };
  });
}

const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v ?? ''));

export function importHistoryScenario(host: ConformanceHost): void {
  const label = `${host.name} ${host.packages[host.packages.length - 1].version}`;
  describe(`${label} (real CLI): import-history`, () => {
    let installs: HostInstall[] = [];
    let ready = false;
    let fake: FakeModel | undefined;
    let world: HostWorld | undefined;
    const hasSource = historySourcesFor([host.id as HostId]).length > 0;

    beforeAll(async () => {
      if (!hasSource) return;
      ensureBuilt();
      if (host.linuxX64Only && (process.platform !== 'linux' || process.arch !== 'x64')) return;
      for (const pkg of host.packages) {
        const path = host.installPath?.(installs);
        const saved = process.env.PATH;
        if (path) process.env.PATH = `${path}:${saved}`;
        try { installs.push(await ensureHostPackage(pkg)); } finally { process.env.PATH = saved; }
        if (!installs[installs.length - 1].ok) break;
      }
      ready = installs.length === host.packages.length && installs.every((i) => i.ok);
      if (!ready) warnSkip(`${label} import-history`, installs.find((i) => !i.ok)?.reason ?? 'not installed');
    }, 20 * 60_000);

    afterAll(async () => {
      if (world) await cleanupWorker(world.env, world.dataDir);
      await fake?.close();
    });

    it('a session run before install is imported once; live capture afterwards and a re-import duplicate nothing', async (ctx) => {
      if (!hasSource || !ready) return ctx.skip();
      const bin = (installs[installs.length - 1] as { binPath: string }).binPath;
      fake = await startFakeModel(host.api);
      const path = [...(host.path?.(installs) ?? []), ...installs.map((i) => (i.ok ? dirname(i.binPath) : '')), dirname(process.execPath), process.env.PATH ?? ''];
      const w = (world = makeHostWorld(`${host.id}-import`, host.env(fake), path.filter(Boolean).join(':')));
      mkdirSync(join(w.project, dirname(NOTES_FILE)), { recursive: true });
      writeFileSync(join(w.project, NOTES_FILE), `# Plan\nThe release checklist lives here (${READ_MARKER}).\n`);
      host.prepare?.(w, fake);

      // 1. The host alone, before claude-mem exists on this machine.
      const prompt = `run echo ${SHELL_MARKER} in the shell, then read ${NOTES_FILE}`;
      fake.script = scriptFor([host.shellCall, host.readCall(w)]);
      const first = await host.run(bin, w, prompt);
      expect(first.code, first.stderr.slice(-3000) + first.stdout.slice(-2000)).toBe(0);
      expect(host.answered(first)).toBe(true);

      // 2. The real installer with the import.
      const inst = await runIn(w, process.execPath, [DIST_BIN, 'install', '--yes', '--ide', host.id, '--import-history', '--json'], 180_000);
      expect(inst.code, inst.stdout + inst.stderr).toBe(0);
      const doc = JSON.parse(inst.stdout) as { history: { logs: number; stored: number; deadLetters: number } };
      expect(doc.history, inst.stdout).toMatchObject({ deadLetters: 0 });
      expect(doc.history.logs).toBeGreaterThanOrEqual(1);
      const s = stored(w.dataDir, host.id);
      expect(s.sessions.map((x) => x.hostSessionId)).toEqual(first.sessionId ? [first.sessionId] : [expect.any(String)]);
      const sid = s.sessions[0].hostSessionId;
      // A host whose hooks give no prompt id may still name the message in its log: kept (twins.ts).
      const hookId = host.nativePromptId(w, first, fake);
      expect(s.prompts).toEqual([{ session: sid, text: host.promptText?.(prompt) ?? prompt, native_id: hookId ?? s.prompts[0]?.native_id ?? null }]);
      const shell = s.toolResults.find((t) => JSON.stringify(t.toolInput ?? {}).includes(`echo ${SHELL_MARKER}`));
      expect(shell, JSON.stringify(s.toolResults).slice(0, 2000)).toBeTruthy();
      expect(shell!.toolName).toBe('Bash');
      expect(text(shell!.toolResponse)).toContain(SHELL_MARKER);
      const read = s.toolResults.find((t) => t !== shell && JSON.stringify(t.toolInput ?? {}).includes('plan.md'));
      expect(read, JSON.stringify(s.toolResults).slice(0, 2000)).toBeTruthy();
      expect(text(read!.toolResponse)).toContain(READ_MARKER);
      expect(s.observations).toHaveLength(2);
      expect(new Set(s.observations.map((o) => o.tool_use_id)).size).toBe(2);
      expect(s.answers.filter((a) => a.text.includes('All done.'))).toHaveLength(1);
      expect(s.summaries).toEqual([{ session: sid, request: expect.stringContaining(SHELL_MARKER) }]);

      // 3. A new session with claude-mem installed (hooks or plugin capture it live).
      fake.script = scriptFor([host.shellCall]);
      const second = await host.run(bin, w, `run echo ${SHELL_MARKER} in the shell once more`);
      expect(second.code, second.stderr.slice(-3000)).toBe(0);
      await new Promise((r) => setTimeout(r, 3000));
      const live = stored(w.dataDir, host.id);
      expect(live.sessions).toHaveLength(2);
      expect(live.prompts.filter((p) => p.session === sid)).toEqual(s.prompts);
      expect(live.observations.filter((o) => o.session === sid)).toEqual(s.observations);

      // 4. Import again: both logs are read, nothing is stored twice.
      const again = await runIn(w, process.execPath, [DIST_BIN, 'import-history', '--ide', host.id, '--json'], 120_000);
      expect(again.code, again.stderr).toBe(0);
      const after = stored(w.dataDir, host.id);
      expect(after.sessions).toEqual(live.sessions);
      // Same prompts; one that live capture stored without an id may now carry the log's (twins.ts).
      expect(after.prompts.map(({ session, text }) => ({ session, text }))).toEqual(live.prompts.map(({ session, text }) => ({ session, text })));
      after.prompts.forEach((p, i) => expect([p.native_id, null]).toContain(live.prompts[i].native_id));
      expect(after.observations.length).toBe(live.observations.length);
      expect(new Set(after.observations.map((o) => `${o.session}|${o.tool_use_id}`)).size).toBe(after.observations.length);
      const answers = after.answers.map((a) => `${a.session}|${a.text}`);
      expect(new Set(answers).size, JSON.stringify(after.answers)).toBe(answers.length);
    }, 10 * 60_000);
  });
}
