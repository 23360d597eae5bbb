/**
 * Test support for the OpenCode plugins: the built bundle copied into a plugins folder with its
 * `claude-mem.json`, a fake worker (the real routes' shapes, recording what reaches it), and the
 * fixture's callbacks (test/fixtures/hosts/opencode/events/plugin-events.jsonl) as they are.
 */
import { spawnSync } from 'node:child_process';
import { afterEach, beforeAll, beforeEach } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startLocalServer } from '../helpers/local-server.js';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import { readSpool, listSpool } from '../../src/shared/spool.js';
import { AUTH_HEADER, parseAuthHeader, PROOF_HEADER, requestProblem, responseProof } from '../../src/shared/worker-auth.js';
import { FIXTURES, REPO_ROOT, tempDir } from '../helpers/temp.js';

export const OC_FIXTURE = join(FIXTURES, 'opencode');
export const FIXTURE_SESSION = 'ses_dd3e8333effexHg37dzll7XDI0';
export const FIXTURE_CWD = '/home/dev/projects/demo';

export interface FixtureRecord {
  ts: string;
  hook: string;
  type?: string;
  properties?: Record<string, unknown>;
  input?: Record<string, unknown>;
  output?: Record<string, unknown>;
  directory?: string;
  worktree?: string;
  project?: unknown;
}

/** Every callback of the captured run, in order. */
export function fixtureRecords(): FixtureRecord[] {
  return readFileSync(join(OC_FIXTURE, 'events', 'plugin-events.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as FixtureRecord);
}

/** Builds dist/ when the plugin bundles are missing or older than their sources. */
export function ensurePluginsBuilt(): void {
  const out = ['opencode-v1', 'opencode-v2'].map((d) => join(REPO_ROOT, 'dist', 'plugins', d, 'index.js'));
  const newest = (dir: string): number => readdirSync(dir).reduce((m, n) => {
    const p = join(dir, n);
    const s = statSync(p);
    return Math.max(m, s.isDirectory() ? newest(p) : s.mtimeMs);
  }, 0);
  const srcTime = Math.max(newest(join(REPO_ROOT, 'src', 'plugins')), newest(join(REPO_ROOT, 'src', 'shared')));
  if (out.every((f) => existsSync(f) && statSync(f).mtimeMs >= srcTime)) return;
  const r = spawnSync('npm', ['run', 'build'], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 180_000 });
  if (r.status !== 0) throw new Error(`npm run build failed: ${(r.stdout + r.stderr).slice(-2000)}`);
}

export interface PluginDir {
  dir: string;
  dataDir: string;
  file: string;
}

/**
 * A fresh copy of `dist/plugins/<name>/*` (a new URL each time, so a fresh module) and the
 * `claude-mem.json` the installer would write beside it.
 */
export function installBundle(name: 'opencode-v1' | 'opencode-v2', runtime: { nodePath?: string; entryPath?: string } = {}): PluginDir {
  const root = tempDir('oc-plugin');
  const dir = join(root, 'plugins', name === 'opencode-v1' ? '' : 'claude-mem');
  mkdirSync(dir, { recursive: true });
  const dist = join(REPO_ROOT, 'dist', 'plugins', name);
  for (const f of readdirSync(dist)) copyFileSync(join(dist, f), join(dir, f === 'index.js' && name === 'opencode-v1' ? 'claude-mem.js' : f));
  const dataDir = join(root, 'data');
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dir, 'claude-mem.json'), JSON.stringify({
    host: 'opencode', dataDir, nodePath: runtime.nodePath ?? '/nonexistent/node', entryPath: runtime.entryPath ?? '/nonexistent/bin.js',
  }));
  return { dir, dataDir, file: join(dir, name === 'opencode-v1' ? 'claude-mem.js' : 'index.js') };
}

export async function loadBundle<T>(file: string): Promise<T> {
  return ((await import(pathToFileURL(file).href)) as { default: T }).default;
}

/** The spooled events of a data directory, oldest file first. */
export function spooled(dataDir: string): CaptureEvent[] {
  return listSpool(join(dataDir, 'spool')).flatMap((f) => readSpool(f.path).events);
}

// ---- fake worker --------------------------------------------------------------------------

export interface WorkerCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: any;
  /** 'signed' (verified), 'none' (unsigned or a bad signature), 'token sent' (the token itself was in the request: a bug). */
  auth: 'signed' | 'none' | 'token sent';
}

export interface FakeWorker {
  port: number;
  token: string;
  calls: WorkerCall[];
  /** Every event POSTed to /api/events, in arrival order. */
  events: CaptureEvent[];
  /** Text GET /api/context answers with. */
  contextText: string;
  /** Delay before answering GET /api/context (ms). */
  contextDelayMs: number;
  /** When true, /api/events never answers (a hung worker). */
  hangEvents: boolean;
  close(): Promise<void>;
}

const OBS = {
  id: 7, sessionId: 1, hostSessionId: FIXTURE_SESSION, host: 'opencode', project: 'github.com/acme/demo', promptNumber: 1, type: 'command',
  title: 'Ran `echo hello-from-mock`', subtitle: null, narrative: 'Ran echo.', facts: ['exit code: 0'], filesRead: [], filesModified: [],
  concepts: ['shell'], toolName: 'Bash', toolUseId: 'call_mlfkrvshh9', createdAt: '2026-11-30T10:54:51.356Z',
};

/** A worker recorded in `dataDir` (worker.json naming this process, worker.token) answering like the real routes. */
export async function startFakeWorker(dataDir: string): Promise<FakeWorker> {
  const token = 'test-token-0123456789';
  const w: FakeWorker = { port: 0, token, calls: [], events: [], contextText: '# claude-mem: memory of demo\nCONTEXT-FROM-WORKER', contextDelayMs: 0, hangEvents: false, close: async () => {} };
  const handle = (req: IncomingMessage, res: ServerResponse, text: string) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = text ? JSON.parse(text) : undefined;
    // Like the real worker: the request must be signed for this instance, and the answer is signed back.
    const signed = parseAuthHeader(req.headers[AUTH_HEADER] as string | undefined);
    const problem = signed ? requestProblem({ token, instanceId: 'fake', port: w.port }, { method: req.method ?? '', path: req.url ?? '', body: Buffer.from(text) }, signed) : 'unsigned';
    const json = (res: ServerResponse, status: number, answer: unknown) => {
      const out = JSON.stringify(answer);
      res.writeHead(status, { 'content-type': 'application/json', ...(problem ? {} : { [PROOF_HEADER]: responseProof(token, signed!.nonce, status, out) }) });
      res.end(out);
    };
    const headers = JSON.stringify(req.headers);
    w.calls.push({ method: req.method ?? '', path: url.pathname, query: url.searchParams, body, auth: headers.includes(token) ? 'token sent' : problem ? 'none' : 'signed' });
    if (url.pathname === '/api/health') return json(res, 200, problem ? { ok: true, name: 'claude-mem', version: 'test' } : { ok: true, name: 'claude-mem', version: 'test', pid: process.pid, instanceId: 'fake', dataDir, startedAt: '', uptimeMs: 1 });
    if (problem) return json(res, 401, { error: { code: 'unauthorized', message: problem } });
    switch (`${req.method} ${url.pathname}`) {
      case 'POST /api/events':
        if (w.hangEvents) return; // never answers
        w.events.push(...(body.events as CaptureEvent[]));
        return json(res, 200, { stored: body.events.length, duplicates: 0, rejected: [] });
      case 'GET /api/context':
        setTimeout(() => json(res, 200, { project: 'github.com/acme/demo', text: w.contextText, observationIds: [7], summaryId: null, approxTokens: 10 }), w.contextDelayMs);
        return;
      case 'GET /api/search':
        return json(res, 200, {
          project: OBS.project, widened: false, results: [{
            sessionId: 1, hostSessionId: FIXTURE_SESSION, host: 'opencode', project: OBS.project, startedAt: OBS.createdAt, endedAt: null,
            summaryId: null, request: 'say hello', outcome: 'Said hello.', files: [], createdAt: OBS.createdAt, score: 1,
            turns: [{
              promptNumber: 1, promptId: 1, request: 'say hello', outcome: 'Said hello.', outcomeId: 1,
              evidence: [{ kind: 'observation', id: 7, title: OBS.title, snippet: 'echo hello-from-mock', type: 'command', promptNumber: 1, files: [], createdAt: OBS.createdAt }],
            }],
          }],
        });
      case 'GET /api/timeline':
        return json(res, 200, { items: [{ kind: 'observation', id: 7, title: OBS.title, host: 'opencode', hostSessionId: FIXTURE_SESSION, project: OBS.project, createdAt: OBS.createdAt }] });
      case 'POST /api/observations/batch':
        return json(res, 200, { observations: (body.ids as number[]).includes(7) ? [OBS] : [] });
      case 'POST /api/memory':
        if (!body.text) return json(res, 400, { error: { code: 'invalid_body', message: 'text: required' } });
        return json(res, 201, { observation: { ...OBS, id: 8, type: 'memory', title: body.title ?? String(body.text).split('\n')[0], narrative: body.text, project: body.project } });
      default:
        return json(res, 404, { error: { code: 'not_found', message: url.pathname } });
    }
  };
  const server = await startLocalServer(handle);
  w.port = server.port;
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'worker.json'), JSON.stringify({ pid: process.pid, port: w.port, version: 'test', startedAt: new Date().toISOString(), dataDir, instanceId: 'fake' }));
  writeFileSync(join(dataDir, 'worker.token'), token, { mode: 0o600 });
  w.close = server.close;
  return w;
}

export async function waitUntil<T>(fn: () => T | undefined | false, timeoutMs = 5_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > until) throw new Error(`not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

// ---- V1 host harness ----------------------------------------------------------------------

export type V1Hooks = Record<string, any>;

/**
 * Replays fixture records against V1 hooks the way OpenCode 1.18.33 calls them: bus events
 * through `event({event})` without awaiting, `(input, output)` hooks awaited in order. Returns the
 * outputs the hooks saw (they may mutate them).
 */
export async function replayV1(hooks: V1Hooks, records: FixtureRecord[]): Promise<{ outputs: FixtureRecord[] }> {
  const outputs: FixtureRecord[] = [];
  for (const r of records) {
    if (r.hook === 'plugin.init') continue;
    if (r.hook === 'config') {
      await hooks.config?.({});
      continue;
    }
    if (r.hook === 'event') {
      void hooks.event?.({ event: { id: `evt_${outputs.length}`, type: r.type, properties: structuredClone(r.properties) } });
      continue;
    }
    const input = structuredClone(r.input ?? {});
    const output = structuredClone(r.output ?? {});
    await hooks[r.hook]?.(input, output);
    outputs.push({ ...r, input, output });
  }
  return { outputs };
}

/** The plugin input OpenCode passed (fixture `plugin.init`). */
export function v1Input(records: FixtureRecord[]): Record<string, unknown> {
  const init = records.find((r) => r.hook === 'plugin.init')!;
  return { directory: init.directory, worktree: init.worktree, project: init.project, client: {}, serverUrl: new URL('http://localhost:4096') };
}

/** What one plugin test leaves behind: its fake worker and a host-package stand-in to undo. */
export interface PluginTestState {
  worker?: FakeWorker;
  restore?: () => void;
}

/**
 * The set-up every plugin test file shares: bundles built once, the variables a plugin reads
 * cleared before each test, the fake worker closed and any stand-in undone after it.
 */
export function pluginTestLifecycle(build: () => void, clearEnv: readonly string[] = ['CLAUDE_MEM_DATA_DIR', 'CLAUDE_MEM_CONTEXT_BUDGET_MS']): PluginTestState {
  const state: PluginTestState = {};
  beforeAll(build, 240_000);
  beforeEach(() => {
    for (const k of clearEnv) delete process.env[k];
  });
  afterEach(async () => {
    state.restore?.();
    state.restore = undefined;
    await state.worker?.close();
    state.worker = undefined;
  });
  return state;
}
