/**
 * Devices for sync tests: each a HOME and data directory of its own, with a checkout of the same
 * repository (same git remote, different path), capturing through the real hook and syncing
 * through the real CLI against the test file's PostgreSQL cluster.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { DIST_BIN, tempDir, tempHome } from '../helpers/temp.js';
import { claudePayload, cleanupWorker, hookEnv, runHook } from '../hook-runtime/helpers.js';

export const REMOTE_URL = 'git@github.com:acme/app.git';
export const PROJECT = 'github.com/acme/app';

export interface Device {
  name: string;
  home: string;
  dataDir: string;
  env: NodeJS.ProcessEnv;
  /** A checkout of acme/app on this machine. */
  repo: string;
}

const devices: Device[] = [];

/** A git checkout (just its .git/config) with the given remote. */
export function checkout(remote: string, prefix = 'repo'): string {
  const repo = tempDir(prefix);
  mkdirSync(join(repo, '.git'), { recursive: true });
  writeFileSync(join(repo, '.git', 'config'), `[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = ${remote}\n`);
  writeFileSync(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  return repo;
}

export function newDevice(name: string, extraEnv: NodeJS.ProcessEnv = {}): Device {
  const h = tempHome();
  const d = { name, home: h.home, dataDir: h.dataDir, env: hookEnv(h.env, extraEnv), repo: checkout(REMOTE_URL) };
  devices.push(d);
  return d;
}

/** Stops the workers the devices' hooks started. */
export async function cleanupDevices(): Promise<void> {
  await Promise.all(devices.splice(0).map((d) => cleanupWorker(d.env, d.dataDir)));
}

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export function cli(d: Device, args: string[], opts: { cwd?: string; input?: string } = {}): Run {
  const r = spawnSync(process.execPath, [DIST_BIN, ...args], {
    env: d.env, cwd: opts.cwd ?? d.repo, encoding: 'utf8', timeout: 120_000, input: opts.input ?? '',
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** cli() that must succeed; returns the parsed --json document. */
export function cliJson<T = Record<string, unknown>>(d: Device, args: string[]): T {
  const r = cli(d, [...args, '--json']);
  if (r.status !== 0) throw new Error(`claude-mem ${args.join(' ')} exited ${r.status}: ${r.stdout}${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

/**
 * One session captured through the hook: a prompt, `tools` tool calls, the turn's end and the
 * session's end. Every hook must exit 0 with nothing on stderr.
 */
export async function captureSession(d: Device, session: string, tools: number, cwd = d.repo): Promise<void> {
  const calls: [string, Record<string, unknown>][] = [
    ['SessionStart', claudePayload('001-SessionStart.json', { session_id: session, cwd })],
    ['UserPromptSubmit', claudePayload('003-UserPromptSubmit.json', { session_id: session, cwd, prompt: `fix the flaky build in ${session}` })],
  ];
  for (let i = 0; i < tools; i++) {
    calls.push(['PostToolUse', claudePayload('005-PostToolUse.json', {
      session_id: session, cwd, tool_use_id: `toolu_${session}_${i}`,
      tool_input: { command: `npm test -- shard ${i} of ${session}` }, tool_response: { stdout: `ok ${i}`, stderr: '' },
    })]);
  }
  calls.push(['Stop', claudePayload('008-Stop.json', { session_id: session, cwd, last_assistant_message: `fixed ${session}` })]);
  calls.push(['SessionEnd', claudePayload('009-SessionEnd.json', { session_id: session, cwd })]);
  for (const [event, payload] of calls) {
    const r = await runHook(d.env, 'claude-code', event, JSON.stringify(payload), cwd);
    if (r.code !== 0 || r.stderr) throw new Error(`hook ${event} exited ${r.code}: ${r.stderr}`);
  }
}

export function withDb<T>(d: Device, fn: (db: Database.Database) => T): T {
  const db = new Database(join(d.dataDir, 'claude-mem.db'), { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    return fn(db);
  } finally {
    db.close();
  }
}

/** What a device's memory holds, as sets of rows independent of local ids. */
export function memorySets(d: Device): Record<'sessions' | 'prompts' | 'observations' | 'summaries' | 'events', string[]> {
  return withDb(d, (db) => {
    const list = (sql: string) => (db.prepare(sql).pluck().all() as string[]).sort();
    return {
      sessions: list(`SELECT host || ' ' || host_session_id || ' ' || project || ' ' || coalesce(ended_at, '') FROM sessions WHERE probe = 0`),
      prompts: list(`SELECT s.host_session_id || ' #' || p.number || ' ' || p.text FROM prompts p JOIN sessions s ON s.id = p.session_id`),
      observations: list(`SELECT s.host_session_id || ' ' || o.type || ' ' || o.title || ' ' || o.narrative || ' ' || o.created_at
        FROM observations o JOIN sessions s ON s.id = o.session_id`),
      summaries: list(`SELECT s.host_session_id || ' ' || m.text FROM summaries m JOIN sessions s ON s.id = m.session_id`),
      events: list(`SELECT idem_key FROM events WHERE probe = 0`),
    };
  });
}

export function count(d: Device, sql: string, ...params: unknown[]): number {
  return withDb(d, (db) => (db.prepare(sql).pluck().get(...params) as number));
}
