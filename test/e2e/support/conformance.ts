/**
 * The real-host conformance scenario, the same for every host whose CLI is on the npm registry:
 *
 *  1. a fresh temporary HOME, the user's own host configuration (a model provider pointing at a
 *     scripted model server on 127.0.0.1), then the real `claude-mem install --yes --ide <host>`;
 *  2. `claude-mem doctor --json` is all green;
 *  3. session 1: one prompt; the model runs one shell command and reads one file, then answers —
 *     the session, the prompt (with the host's own prompt/turn id where it has one), both tool
 *     uses with their results and the session end are stored exactly once, under this host only;
 *  4. session 2: its first model request carries session 1's memory (where the host injects), and
 *     a native recall tool answers (where the plugin registers one);
 *  5. `claude-mem search` finds session 1's command;
 *  6. `claude-mem uninstall --yes` takes back exactly what install wrote; the host runs again,
 *     still works, and nothing more is captured.
 *
 * Each step that passes is recorded (test-results/hosts/<id>.json) for the matrix in
 * docs/hosts.md; host specifics live in the drivers under test/e2e/hosts/.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DIST_BIN } from '../../helpers/temp.js';
import { cleanupWorker, ensureBuilt, queryDb, waitFor } from '../../hook-runtime/helpers.js';
import { startFakeModel, type FakeModel, type ModelApi, type ModelRequest } from './fake-model.js';
import { ensureHostPackage, warnSkip, type HostInstall, type HostPackage } from './host-cache.js';
import { claudeMemInstall, makeHostWorld, runIn, type HostWorld, type Run } from './host-world.js';
import { recordHostResult, type HostResult } from './host-results.js';
import { snapshotFiles, type FileSnapshot } from './file-snapshot.js';
import { scriptFor, type ScriptedCall } from './model-script.js';
import { importHistoryScenario } from './import-history.js';

/** What session 1's shell command prints and what its file read returns: search and context look for them. */
export const SHELL_MARKER = 'hello-from-mock';
export const READ_MARKER = 'read-from-mock';
export const NOTES_FILE = join('notes', 'plan.md');

export interface HostRun extends Run {
  /** The host's session id as it reports it ('' when it does not print one). */
  sessionId: string;
}

export interface ConformanceHost {
  /** claude-mem's host id. */
  id: string;
  name: string;
  /** Registry packages to install, in order; the last one is the host CLI itself. */
  packages: HostPackage[];
  /** Hosts that need a platform binary from the registry (Bun, Node 24) run on linux-x64 only. */
  linuxX64Only?: string;
  /** Installs a package whose npm needs something first on PATH (OpenClaw needs Node 24 to install). */
  installPath?(installs: HostInstall[]): string | undefined;
  api: ModelApi;
  /** Directories to put on PATH before the packages' own bin folders. */
  path?(installs: HostInstall[]): string[];
  env(fake: FakeModel): NodeJS.ProcessEnv;
  /** The user's own configuration before claude-mem is installed (providers, settings). */
  prepare?(w: HostWorld, fake: FakeModel): void;
  /** Session 1's two tool calls, as the model asks the host for them. */
  shellCall: ScriptedCall;
  readCall(w: HostWorld): ScriptedCall;
  run(bin: string, w: HostWorld, prompt: string): Promise<HostRun>;
  /** The host printed the model's final answer (it still works). */
  answered(run: HostRun): boolean;
  /** Session 1's stored events by kind, exactly. */
  kinds: Record<string, number>;
  /** The prompt text as the host hands it over. */
  promptText?(prompt: string): string;
  /** The host's own id for session 1's prompt, where it has one (null where it has none). */
  nativePromptId(w: HostWorld, run: HostRun, fake: FakeModel): string | null;
  /** Requests of the agent loop itself (not titles or summaries); default: every model request. */
  isAgentRequest?(request: ModelRequest): boolean;
  /** Session 2's memory context, from its first agent request ('' when it carries none). */
  contextOf(request: ModelRequest): string;
  /**
   * The agent request that carries the memory, where it is not the first (Grok reads hook output
   * only after a tool call): default, the first agent request.
   */
  contextRequest?(agentRequests: ModelRequest[]): ModelRequest | undefined;
  /** When the memory reaches the model, for the matrix (default `session-start`). */
  contextWhen?: string;
  /** A native recall tool the model calls in session 2, and what its answer must contain. */
  recall?: { call: ScriptedCall; answerOf(requests: ModelRequest[]): string };
  /**
   * Files the host's own process writes (relative to HOME) when install runs it — Codex's state
   * after `codex app-server` trusted the hooks: not claude-mem's to take back.
   */
  hostState?: RegExp;
  /** Extra host-specific checks and steps, each recorded as proven when it passes. */
  afterInstall?(w: HostWorld, install: Record<string, any>): string[] | void;
  afterFirstSession?(w: HostWorld, run: HostRun): string[] | void;
  /** What the run does not prove, said in the matrix. */
  notProven: string[];
  /** How the host was driven, for the matrix. */
  how: string;
}

interface StoredSession {
  id: number;
  hostSessionId: string;
  ended: string | null;
  kinds: Record<string, number>;
  prompts: { text: string; native_id: string | null }[];
  toolResults: Record<string, any>[];
  observations: { tool_use_id: string | null; title: string }[];
}

function sessionsOf(dataDir: string, host: string, afterId: number): StoredSession[] {
  if (!existsSync(join(dataDir, 'claude-mem.db'))) return [];
  return queryDb(dataDir, (db) => {
    const rows = db.prepare('SELECT id, host_session_id, ended_at FROM sessions WHERE host = ? AND id > ? ORDER BY id').all(host, afterId) as { id: number; host_session_id: string; ended_at: string | null }[];
    return rows.map((s) => ({
      id: s.id,
      hostSessionId: s.host_session_id,
      ended: s.ended_at,
      kinds: Object.fromEntries((db.prepare('SELECT kind, count(*) AS n FROM events WHERE session_id = ? GROUP BY kind').all(s.id) as { kind: string; n: number }[]).map((r) => [r.kind, r.n])),
      prompts: db.prepare('SELECT text, native_id FROM prompts WHERE session_id = ? ORDER BY id').all(s.id) as StoredSession['prompts'],
      toolResults: (db.prepare("SELECT payload FROM events WHERE session_id = ? AND kind = 'tool_result' ORDER BY id").all(s.id) as { payload: string }[]).map((r) => JSON.parse(r.payload) as Record<string, any>),
      observations: db.prepare('SELECT tool_use_id, title FROM observations WHERE session_id = ? ORDER BY id').all(s.id) as StoredSession['observations'],
    }));
  });
}

function lastSessionId(dataDir: string): number {
  if (!existsSync(join(dataDir, 'claude-mem.db'))) return 0;
  return queryDb(dataDir, (db) => (db.prepare('SELECT coalesce(max(id), 0) AS n FROM sessions').get() as { n: number }).n);
}

function totals(dataDir: string): Record<string, number> {
  return queryDb(dataDir, (db) => Object.fromEntries(['sessions', 'events', 'prompts', 'observations'].map((t) => [t, (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n])));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const text = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v ?? ''));

/** Registers the scenario for one host as a vitest suite (and the history import scenario, import-history.ts). */
export function conformance(host: ConformanceHost): void {
  importHistoryScenario(host);
  const label = `${host.name} ${host.packages[host.packages.length - 1].version}`;
  describe(`${label} (real CLI): claude-mem conformance`, () => {
    let installs: HostInstall[] = [];
    let ready: { ok: true } | { ok: false; reason: string } = { ok: false, reason: 'not installed yet' };
    let fake: FakeModel | undefined;
    let world: HostWorld | undefined;
    const result: HostResult = {
      host: host.id, name: host.name, packages: host.packages.map((p) => `${p.pkg}@${p.version}`), how: host.how,
      status: 'not run', proven: [], notProven: host.notProven, runId: inject('hostRunId'), at: new Date().toISOString(),
    };
    const proven = (step: string) => result.proven.push(step);

    beforeAll(async () => {
      ensureBuilt();
      if (host.linuxX64Only && (process.platform !== 'linux' || process.arch !== 'x64')) {
        ready = { ok: false, reason: `${host.linuxX64Only}; this is ${process.platform}-${process.arch}` };
      } else {
        for (const pkg of host.packages) {
          const path = host.installPath?.(installs);
          const saved = process.env.PATH;
          if (path) process.env.PATH = `${path}:${saved}`;
          try {
            const got = await ensureHostPackage(pkg);
            installs.push(got);
            if (!got.ok) {
              ready = { ok: false, reason: got.reason };
              break;
            }
          } finally {
            process.env.PATH = saved;
          }
        }
        if (installs.length === host.packages.length && installs.every((i) => i.ok)) ready = { ok: true };
      }
      if (!ready.ok) {
        warnSkip(`${label} conformance`, ready.reason);
        result.status = 'skipped';
        result.reason = ready.reason;
      }
    }, 20 * 60_000);

    afterAll(async () => {
      if (world) await cleanupWorker(world.env, world.dataDir);
      await fake?.close();
      recordHostResult(result);
    });

    it('install → doctor → capture exactly once → context and recall → search → uninstall', async (ctx) => {
      if (!ready.ok) return ctx.skip();
      const bin = (installs[installs.length - 1] as { binPath: string }).binPath;
      result.status = 'failed';
      fake = await startFakeModel(host.api);
      // Like a user's machine: the host's command is on PATH.
      const path = [...(host.path?.(installs) ?? []), ...installs.map((i) => (i.ok ? dirname(i.binPath) : '')), dirname(process.execPath), process.env.PATH ?? ''];
      const w = (world = makeHostWorld(`${host.id}-conf`, host.env(fake), path.filter(Boolean).join(':')));
      mkdirSync(join(w.project, dirname(NOTES_FILE)), { recursive: true });
      writeFileSync(join(w.project, NOTES_FILE), `# Plan\nThe release checklist lives here (${READ_MARKER}).\n`);
      host.prepare?.(w, fake);

      // 1. The real installer, as a user runs it (it also starts the worker).
      const before: FileSnapshot = snapshotFiles(w.home, [w.dataDir, w.project]);
      const inst = await claudeMemInstall(w, host.id);
      const mine = (inst.hosts as Array<Record<string, any>>).find((h) => h.id === host.id);
      expect(mine, JSON.stringify(inst)).toMatchObject({ status: 'ok' });
      result.version = mine?.detected?.version;
      result.capture = mine?.capture;
      result.recall = mine?.recall;
      expect(inst.worker?.ok, JSON.stringify(inst.worker)).toBe(true);
      const installed = before.changesTo(snapshotFiles(w.home, [w.dataDir, w.project])).filter((c) => !host.hostState?.test(c.path));
      expect(installed.length, 'install wrote nothing').toBeGreaterThan(0);
      result.installed = installed.map((c) => `${c.kind} ~/${c.path}`);
      proven('`claude-mem install --yes --ide ' + host.id + '` (the real installer) reports ok and starts the worker');
      for (const step of host.afterInstall?.(w, inst) ?? []) proven(step);

      // 2. doctor, on the installer's own output, before any session ran.
      const doc = await runIn(w, process.execPath, [DIST_BIN, 'doctor', '--json'], 90_000);
      const report = JSON.parse(doc.stdout) as { ok: boolean; checks: { id: string; status: string; evidence: string }[] };
      const notGreen = report.checks.filter((c) => c.status !== 'ok');
      expect(notGreen, 'doctor is not all green').toEqual([]);
      expect(report.checks.some((c) => c.id.startsWith(`${host.id}.`)), 'doctor ran no check for this host').toBe(true);
      expect(doc.code).toBe(0);
      proven(`\`claude-mem doctor\` all green (${report.checks.length} checks)`);

      // 3. Session 1: a prompt, a shell command, a file read, an answer.
      const prompt = `run echo ${SHELL_MARKER} in the shell, then read ${NOTES_FILE}`;
      fake.script = scriptFor([host.shellCall, host.readCall(w)]);
      const mark1 = lastSessionId(w.dataDir);
      const first = await host.run(bin, w, prompt);
      expect(first.code, first.stderr.slice(-3000) + first.stdout.slice(-2000)).toBe(0);
      expect(host.answered(first), first.stdout.slice(-2000)).toBe(true);
      expect(fake.modelRequests().length).toBeGreaterThanOrEqual(3);

      const expectedKinds = host.kinds;
      const want = Object.values(expectedKinds).reduce((a, b) => a + b, 0);
      const s1 = await waitFor(() => {
        const s = sessionsOf(w.dataDir, host.id, mark1);
        const events = s.reduce((n, x) => n + Object.values(x.kinds).reduce((a, b) => a + b, 0), 0);
        return s.length >= 1 && events >= want && s[0].observations.length >= 2 && (!expectedKinds.session_end || s[0].ended) ? s : undefined;
      }, 30_000).catch(() => sessionsOf(w.dataDir, host.id, mark1));
      await sleep(1500); // late duplicates would land now
      const sessions = sessionsOf(w.dataDir, host.id, mark1);
      expect(sessions.map((s) => s.hostSessionId), 'session 1 must be stored as exactly one session').toHaveLength(1);
      const s = sessions[0];
      if (first.sessionId) expect(s.hostSessionId).toBe(first.sessionId);
      expect(s.kinds, 'session 1 events by kind').toEqual(expectedKinds);
      expect(s1[0]?.kinds).toEqual(s.kinds);
      const others = queryDb(w.dataDir, (db) => db.prepare('SELECT host, count(*) AS n FROM sessions WHERE host != ? GROUP BY host').all(host.id));
      expect(others, 'sessions stored under another host').toEqual([]);
      proven(`session 1 stored once, its events exactly once: ${Object.entries(s.kinds).map(([k, n]) => `${k} ×${n}`).join(', ')}`);

      expect(s.prompts).toEqual([{ text: host.promptText?.(prompt) ?? prompt, native_id: host.nativePromptId(w, first, fake) }]);
      proven(s.prompts[0].native_id ? "the prompt, with the host's own prompt id" : 'the prompt (the host gives no prompt id)');

      const shell = s.toolResults.find((t) => JSON.stringify(t.toolInput ?? {}).includes(`echo ${SHELL_MARKER}`));
      expect(shell, `no shell tool result: ${JSON.stringify(s.toolResults).slice(0, 2000)}`).toBeTruthy();
      expect(shell!.toolName).toBe('Bash');
      expect(text(shell!.toolResponse)).toContain(SHELL_MARKER);
      const read = s.toolResults.find((t) => t !== shell && JSON.stringify(t.toolInput ?? {}).includes('plan.md'));
      expect(read, `no file-read tool result: ${JSON.stringify(s.toolResults).slice(0, 2000)}`).toBeTruthy();
      expect(text(read!.toolResponse)).toContain(READ_MARKER);
      for (const t of [shell!, read!]) {
        if (t.toolUseId) expect(s.observations.filter((o) => o.tool_use_id === t.toolUseId), `observations of ${t.toolUseId}`).toHaveLength(1);
      }
      expect(s.observations.length).toBe(2);
      proven(`shell call (\`${shell!.rawToolName ?? shell!.toolName}\`) and file read (\`${read!.rawToolName ?? read!.toolName}\`) stored with their results, one observation each`);
      if (expectedKinds.session_end) {
        expect(s.ended).toBeTruthy();
        proven('session end stored');
      }
      for (const step of host.afterFirstSession?.(w, first) ?? []) proven(step);

      // 4. Session 2: memory context in its first model request; a native recall tool answers.
      const sent = fake.modelRequests().length;
      fake.script = scriptFor(host.recall ? [host.recall.call] : []);
      const mark2 = lastSessionId(w.dataDir);
      const second = await host.run(bin, w, 'what did we do last time?');
      expect(second.code, second.stderr.slice(-3000)).toBe(0);
      const requests = fake.modelRequests().slice(sent);
      expect(requests.length, 'session 2 sent no model request').toBeGreaterThan(0);
      const agentRequests = requests.filter((r) => host.isAgentRequest?.(r) ?? true);
      expect(agentRequests.length, 'session 2 sent no agent request').toBeGreaterThan(0);
      const carrier = host.contextRequest ? host.contextRequest(agentRequests) : agentRequests[0];
      expect(carrier, 'no session 2 request where the memory would be').toBeTruthy();
      const context = host.contextOf(carrier!);
      expect(context, `no memory context in session 2's model request:\n${carrier!.text.slice(0, 3000)}`).toContain(SHELL_MARKER);
      proven(carrier === agentRequests[0]
        ? "session 2's first model request carries session 1's memory"
        : "session 2's model request after its first tool call carries session 1's memory");
      result.recall = `${result.recall ?? '?'} + ${host.contextWhen ?? 'session-start'} context`;
      if (host.recall) {
        const answer = host.recall.answerOf(requests);
        expect(answer, 'the recall tool did not answer with session 1').toContain(SHELL_MARKER);
        proven(`the model called \`${host.recall.call.name}\`; it answered with session 1's command`);
      }
      await waitFor(() => sessionsOf(w.dataDir, host.id, mark2).find((x) => !expectedKinds.session_end || x.ended), 20_000).catch(() => undefined);
      const s2 = sessionsOf(w.dataDir, host.id, mark2);
      expect(s2.flatMap((x) => x.toolResults), 'recall calls must not be stored as work').toEqual([]);

      // 5. Search, through the CLI.
      const search = await runIn(w, process.execPath, [DIST_BIN, 'search', SHELL_MARKER, '--host', host.id, '--json'], 60_000);
      expect(search.code, search.stderr).toBe(0);
      expect(search.stdout).toContain(SHELL_MARKER);
      proven("`claude-mem search` finds session 1's command");

      // 6. Uninstall: exactly what install wrote goes; the host keeps working; nothing more is captured.
      const un = await runIn(w, process.execPath, [DIST_BIN, 'uninstall', '--yes'], 90_000);
      expect(un.code, un.stdout + un.stderr).toBe(0);
      const undone = before.undone(installed);
      expect(undone.leftovers, 'uninstall left changes behind').toEqual([]);
      proven(undone.hostTouched.length === 0
        ? `\`claude-mem uninstall --yes\` put back every file install wrote (${installed.length}), byte for byte`
        : `\`claude-mem uninstall --yes\` took back what install wrote (${installed.length} paths); byte for byte except ${undone.hostTouched.join(', ')}, which the host itself rewrote meanwhile (no claude-mem entry left)`);
      const after = totals(w.dataDir);
      fake.script = scriptFor([host.shellCall]);
      const third = await host.run(bin, w, `run echo ${SHELL_MARKER} in the shell`);
      expect(third.code, third.stderr.slice(-3000)).toBe(0);
      expect(host.answered(third)).toBe(true);
      await sleep(3000);
      expect(totals(w.dataDir)).toEqual(after);
      proven('after uninstall the host still runs and nothing more is captured');
      result.status = 'passed';
    }, 10 * 60_000);
  });
}

/** Reads a JSON file or answers undefined. */
export function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}
