/** `claude-mem sync …` at work. Loaded only when one of these commands runs. */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { dataPaths, type DataPaths } from '../../shared/paths.js';
import { workerError, workerRequest } from '../../shared/worker-client.js';
import { checkHealth, recordedAuth } from '../../shared/worker-start.js';
import { memoryLogger } from '../../worker/logger.js';
import { projectInfo } from '../../worker/project.js';
import { loadSettings } from '../../worker/settings.js';
import type { SqliteStore } from '../../store/sqlite-store.js';
import {
  clientConfig, defaultDeviceName, describeTarget, readSyncConfig, removeSyncConfig, SyncConfigError, writeSyncConfig,
  readConnection, type SyncConfig,
} from '../../worker/sync/config.js';
import { deviceId, PULL_BATCH } from '../../worker/sync/engine.js';
import { Remote } from '../../worker/sync/remote.js';
import { errorText, SyncService, type CycleResult } from '../../worker/sync/service.js';
import { syncStatus, type SyncStatus } from '../../worker/sync/status.js';
import { CliError, UsageError, printJson, println, style } from '../output.js';

interface JsonOpt {
  json?: boolean;
}

const DEVICE_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._-]{0,63}$/u;

async function openWriter(paths: DataPaths): Promise<SqliteStore> {
  const { openStore } = await import('../../store/sqlite-store.js');
  return openStore(paths.db);
}

async function connect(connection: string): Promise<Remote> {
  try {
    return await Remote.connect(clientConfig(connection));
  } catch (err) {
    if (err instanceof SyncConfigError) throw new UsageError(err.message);
    throw new CliError(`cannot reach ${describeTarget(connection)}: ${errorText(err)}`, 1, 'sync_unreachable');
  }
}

function requireConfig(paths: DataPaths): SyncConfig {
  let config: SyncConfig | undefined;
  try {
    config = readSyncConfig(paths);
  } catch (err) {
    throw new CliError((err as Error).message, 1, 'sync_config');
  }
  if (!config) throw new CliError("sync is not set up on this machine; run 'claude-mem sync setup <database>' first", 1, 'sync_not_set_up');
  return config;
}

/** The running worker, if any (sync commands never start one: capture starts it). */
async function runningWorker(paths: DataPaths) {
  const h = await checkHealth(paths, 1000);
  if (!h.ok) return undefined;
  const auth = recordedAuth(paths, h.info);
  return auth ? { port: h.info.port, auth } : undefined;
}

/** One round: in the worker when it runs (so one process syncs this store), else here. */
async function round(paths: DataPaths): Promise<{ via: 'worker' | 'cli'; result: CycleResult | null }> {
  const w = await runningWorker(paths);
  if (w) {
    const res = await workerRequest<{ ok: boolean; result: CycleResult | null }>({
      port: w.port, auth: w.auth, method: 'POST', path: '/api/sync/now', timeoutMs: 30 * 60_000,
    });
    if (res.status === 200 && res.body?.ok) return { via: 'worker', result: res.body.result };
    if (res.status !== 404) throw new CliError(`sync failed: ${workerError(res.body)?.message ?? `worker answered ${res.status}`}`, 1, 'sync_failed');
  }
  const store = await openWriter(paths);
  const settings = loadSettings(paths);
  const service = new SyncService({ paths, store, logger: memoryLogger(), pullIntervalMs: settings.syncPullIntervalMs, pullBatch: PULL_BATCH });
  try {
    return { via: 'cli', result: await service.now() };
  } catch (err) {
    throw new CliError(`sync failed: ${errorText(err)}`, 1, 'sync_failed');
  } finally {
    await service.stop();
    store.close();
  }
}

function roundLines(r: CycleResult | null): string[] {
  if (!r) return ['nothing to do'];
  const lines = [`pushed ${r.push.pushed} event(s) (${r.push.stored} new on the server, ${r.push.pushed - r.push.stored} already there)`];
  lines.push(`pulled ${r.pull.pulled} event(s) (${r.pull.stored} new here${r.pull.duplicates ? `, ${r.pull.duplicates} already here` : ''}${r.pull.skipped ? `, ${r.pull.skipped} malformed and skipped` : ''})${r.pull.partial ? '; more to pull' : ''}`);
  return lines;
}

export async function setup(database: string, opts: JsonOpt & { team?: string; device?: string }): Promise<void> {
  const paths = dataPaths();
  const connection = database.trim();
  try {
    clientConfig(connection);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  let previous: SyncConfig | undefined;
  try {
    previous = readSyncConfig(paths);
  } catch {
    previous = undefined;
  }
  const deviceName = (opts.device ?? previous?.deviceName ?? defaultDeviceName()).trim();
  if (!DEVICE_NAME.test(deviceName)) throw new UsageError('--device must be 1-64 letters, digits, spaces, dots, dashes or underscores');
  const team = opts.team?.trim() || null;
  const target = describeTarget(connection);
  const remote = await connect(connection);
  let applied: number[];
  let store: SqliteStore | undefined;
  try {
    applied = await remote.migrate().catch((err: unknown) => {
      throw new CliError(`cannot prepare claude-mem's schema on ${target}: ${errorText(err)}`, 1, 'sync_schema');
    });
    if (team && !(await remote.inTeam(team))) {
      throw new CliError(`${remote.member} is not a member of the role "${team}" on ${target}; a database administrator grants it (GRANT "${team}" TO "${remote.member}")`, 1, 'sync_team');
    }
    store = await openWriter(paths);
    await remote.registerDevice(deviceId(store), deviceName);
    store.close();
    store = undefined;
  } finally {
    store?.close();
    await remote.close();
  }
  writeSyncConfig(paths, { team, deviceName, paused: false, target }, connection);
  const first = await round(paths);
  if (opts.json) {
    printJson({ ok: true, target, team, device: deviceName, member: remote.member, schemaApplied: applied, via: first.via, round: first.result });
    return;
  }
  println(`sync set up: ${target} as ${remote.member}, this machine is "${deviceName}"${team ? `, team ${team}` : ''}`);
  if (applied.length) println(`  created claude-mem's schema on the database (migrations ${applied.join(', ')})`);
  for (const l of roundLines(first.result)) println(`  ${l}`);
  println(team
    ? "  your machines share everything; the team sees only the projects you share: claude-mem sync share"
    : '  your machines share everything; add a team with --team <role>');
}

export async function now(opts: JsonOpt): Promise<void> {
  const paths = dataPaths();
  const config = requireConfig(paths);
  if (config.paused) throw new CliError("sync is paused; 'claude-mem sync resume' starts it again", 1, 'sync_paused');
  const r = await round(paths);
  if (opts.json) {
    printJson({ ok: true, via: r.via, ...r.result });
    return;
  }
  for (const l of roundLines(r.result)) println(l);
}

async function readStatus(paths: DataPaths): Promise<SyncStatus> {
  const w = await runningWorker(paths);
  if (w) {
    const res = await workerRequest<SyncStatus>({ port: w.port, auth: w.auth, path: '/api/sync/status', timeoutMs: 10_000 });
    if (res.status === 200 && res.body && typeof res.body.configured === 'boolean') return res.body;
  }
  if (!existsSync(paths.db)) return syncStatus(paths, undefined);
  const { openStore } = await import('../../store/sqlite-store.js');
  const store = openStore(paths.db, { readonly: true });
  try {
    return syncStatus(paths, store);
  } finally {
    store.close();
  }
}

export function statusLines(s: SyncStatus): string[] {
  if (s.configError) return [style.red(`sync: ${s.configError}`)];
  if (!s.configured) return ["sync: not set up (claude-mem sync setup <database>)"];
  const lines = [`sync: ${s.paused ? style.yellow('paused') : style.green('on')}  ${s.target}${s.team ? `  team ${s.team}` : ''}`];
  lines.push(`  this machine: ${s.device.name} (${s.device.id ?? 'no id yet'})`);
  lines.push(`  waiting to be pushed: ${s.pending} event(s); last push ${s.lastPushAt ?? 'never'}; last pull ${s.lastPullAt ?? 'never'}`);
  if (s.lastError) lines.push(style.red(`  last error (${s.lastErrorAt}): ${s.lastError}${s.retryAt ? `; retrying at ${s.retryAt}` : ''}`));
  for (const d of s.devices) lines.push(`  from ${d.name} (${d.member}): ${d.events} event(s)`);
  return lines;
}

export async function status(opts: JsonOpt): Promise<void> {
  const s = await readStatus(dataPaths());
  if (opts.json) printJson(s);
  else for (const l of statusLines(s)) println(l);
}

export async function pause(paused: boolean, opts: JsonOpt): Promise<void> {
  const paths = dataPaths();
  const config = requireConfig(paths);
  writeSyncConfig(paths, { ...config, paused });
  if (opts.json) printJson({ ok: true, paused });
  else println(paused ? "sync paused: capture goes on here; 'claude-mem sync resume' syncs again" : 'sync resumed');
}

/** The project identity to share: a directory's git remote, or an identity given as such. */
function projectIdentity(arg: string | undefined): string {
  const dir = arg === undefined ? process.cwd() : resolve(arg);
  if (arg === undefined || statSync(dir, { throwIfNoEntry: false })?.isDirectory()) {
    const info = projectInfo(dir);
    if (!info.remote) {
      throw new UsageError(`${dir} has no git remote: a project is shared by its git remote (the identity claude-mem stores with it), never by a folder name`);
    }
    return info.remote;
  }
  if (!/^[^\s/]+\/\S+$/.test(arg)) throw new UsageError(`"${arg}" is neither a directory nor a project identity such as github.com/acme/app`);
  return arg;
}

export async function share(arg: string | undefined, on: boolean, opts: JsonOpt): Promise<void> {
  const paths = dataPaths();
  const config = requireConfig(paths);
  if (!config.team) throw new CliError("no team is set up; run 'claude-mem sync setup <database> --team <role>' first", 1, 'sync_no_team');
  const project = projectIdentity(arg);
  const remote = await connect(readConnection(paths));
  try {
    const changed = on ? await remote.share(config.team, project) : await remote.unshare(config.team, project);
    if (opts.json) printJson({ ok: true, project, team: config.team, shared: on, changed });
    else if (on) println(changed ? `shared ${project} with ${config.team}` : `${project} was already shared with ${config.team}`);
    else println(changed ? `${project} is no longer shared with ${config.team} (what teammates pulled stays with them)` : `${project} was not shared with ${config.team}`);
  } catch (err) {
    throw new CliError(`cannot ${on ? 'share' : 'unshare'} ${project}: ${errorText(err)}`, 1, 'sync_share');
  } finally {
    await remote.close();
  }
}

async function confirmPurge(target: string, yes: boolean | undefined): Promise<boolean> {
  if (yes) return true;
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    throw new UsageError('--purge-remote deletes your rows from the database for all your machines; add --yes to confirm');
  }
  const p = await import('@clack/prompts');
  const answer = await p.confirm({ message: `Delete every row of yours from ${target}? Your other machines stop receiving them; this cannot be undone.`, initialValue: false });
  return answer === true;
}

export async function remove(opts: JsonOpt & { purgeRemote?: boolean; yes?: boolean }): Promise<void> {
  const paths = dataPaths();
  const config = requireConfig(paths);
  let purged: { events: number; devices: number } | null = null;
  if (opts.purgeRemote) {
    if (!(await confirmPurge(config.target, opts.yes))) throw new CliError('nothing removed (not confirmed)', 1, 'cancelled');
    const remote = await connect(readConnection(paths));
    try {
      purged = await remote.purgeOwn();
    } catch (err) {
      throw new CliError(`cannot delete your rows from ${config.target}: ${errorText(err)}; sync is still set up`, 1, 'sync_purge');
    } finally {
      await remote.close();
    }
  }
  removeSyncConfig(paths);
  // A later setup pushes everything again (the server keeps one copy) and pulls from the start.
  if (existsSync(paths.db)) {
    const store = await openWriter(paths);
    try {
      store.setSyncState({ push_after: null, pull_cursor: null, last_error: null, last_error_at: null });
    } finally {
      store.close();
    }
  }
  if (opts.json) {
    printJson({ ok: true, removed: true, purged });
    return;
  }
  println(`sync removed from this machine; memory pulled from other machines stays here`);
  println(purged
    ? `  deleted from ${config.target}: ${purged.events} event(s) and ${purged.devices} device(s) of yours`
    : '  the database keeps your rows (--purge-remote, given while sync is set up, deletes them)');
}
