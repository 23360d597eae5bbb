/**
 * The worker's life: settings, token, store, port, worker.json, spool drain, and a clean exit.
 * A start that cannot succeed (bad settings, corrupt database, port taken) writes its reason to
 * logs/worker.log and worker.error.json, touches nothing else, and exits 1.
 */
import { chmodSync, mkdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { DataPaths } from '../../shared/paths.js';
import { listSpool } from '../../shared/spool.js';
import { VERSION } from '../../shared/version.js';
import { readWorkerInfo, type WorkerInfo } from '../../shared/worker-client.js';
import { checkHealth, fetchHealth, isHealthBody, pidAlive, recordedAuth, releaseStartLock, workerLogPath, type HealthBody } from '../../shared/worker-start.js';
import { ensureLossRecord, lossRecordPath } from '../../shared/losses.js';
import { contextLimits } from '../../hook/context.js';
import { createFileLogger, type Logger } from '../logger.js';
import { createWorkerServer, type WorkerServer } from '../server.js';
import type { RouteContext } from '../routes/types.js';
import { createViewer } from '../viewer/index.js';
import { candidatePort, loadSettings, updateSettings, type Settings } from '../settings.js';
import { SpoolDrain } from '../spool-drain.js';
import { IngestBatcher } from '../ingest-batcher.js';
import { StorageHealth } from '../storage-health.js';
import { startTranscriptWatcher, type TranscriptWatcher } from '../../transcripts/watcher.js';
import type { MemoryStore } from '../../store/types.js';
import { isSyncStore } from '../sync/engine.js';
import { SyncService } from '../sync/service.js';
import { syncStatus } from '../sync/status.js';
import { describePid, findPortOwner, looksLikeWorker } from './proc.js';
import { ensureToken } from './token.js';
import { clearStartError, removeWorkerInfoIfOurs, writeStartError, writeWorkerInfo } from './worker-file.js';

interface RunOptions {
  paths: DataPaths;
  openStore(dbPath: string): MemoryStore;
  /** Called instead of process.exit (tests). */
  exit?(code: number): void;
}

class StartFailure extends Error {
  constructor(readonly code: string, message: string, readonly extra: { port?: number; holderPid?: number } = {}) {
    super(message);
  }
}

/** Another worker of this data directory is up: this one leaves quietly (exit 0). */
class AlreadyRunning extends Error {}

export async function runWorker(opts: RunOptions): Promise<void> {
  const { paths } = opts;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  for (const dir of [paths.root, paths.logs, paths.spool]) mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(paths.root, 0o700);
  const logger = createFileLogger({ file: workerLogPath(paths) });
  let store: MemoryStore | undefined;
  try {
    const settings = loadSettingsOrFail(paths);
    logger.level = settings.logLevel;
    const { token } = ensureToken(paths);

    // A second start (lock broken as stale, a manual run) leaves the running worker alone.
    const existing = await checkHealth(paths, 1000);
    if (existing.ok) {
      logger.info('another worker of this data directory is running; exiting', { pid: existing.info.pid, port: existing.info.port });
      releaseStartLock(paths);
      return exit(0);
    }

    try {
      store = opts.openStore(paths.db);
    } catch (err) {
      const e = err as Error & { code?: string };
      const code = typeof e.code === 'string' && e.code.startsWith('store_') ? e.code : 'store_open_failed';
      const advice = code === 'store_corrupt' ? ' Move it aside to start with an empty memory, or restore a backup.' : '';
      throw new StartFailure(code, `${e.message} The file was left untouched.${advice}`);
    }
    await serve(paths, settings, token, store, logger, exit);
  } catch (err) {
    try {
      store?.close();
    } catch {
      // Closing a half-open store is best effort.
    }
    if (err instanceof AlreadyRunning) {
      logger.info(err.message);
      releaseStartLock(paths);
      return exit(0);
    }
    const failure = err instanceof StartFailure ? err : new StartFailure('start_failed', (err as Error)?.stack ?? String(err));
    logger.error(`worker cannot start: ${failure.message}`, { code: failure.code, ...failure.extra });
    writeStartError(paths, { code: failure.code, message: failure.message, ...failure.extra });
    releaseStartLock(paths);
    process.stderr.write(`claude-mem worker: ${failure.message}\n`);
    return exit(1);
  }
}

function loadSettingsOrFail(paths: DataPaths): Settings {
  try {
    return loadSettings(paths);
  } catch (err) {
    throw new StartFailure('bad_settings', (err as Error).message);
  }
}

async function listenOrFail(srv: WorkerServer, paths: DataPaths, configured: number | undefined): Promise<number> {
  const port = configured ?? candidatePort(paths.root);
  try {
    return await srv.listen(port);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
  }
  // Only the worker recorded in worker.json can prove itself (a signed health answer).
  const recorded = readWorkerInfo(paths);
  const auth = recorded?.port === port ? recordedAuth(paths, recorded) : undefined;
  const res = auth ? await fetchHealth(port, 1000, auth) : undefined;
  if (res?.verified && isHealthBody(res.body) && res.body.dataDir === paths.root) {
    throw new AlreadyRunning(`a worker of this data directory already listens on port ${port} (pid ${res.body.pid}); exiting`);
  }
  const holderPid = findPortOwner(port);
  if (holderPid && recorded && recorded.pid === holderPid && recorded.port === port && holderPid !== process.pid) {
    // It answered but could not prove itself: the recorded worker of an older claude-mem (which
    // does not sign its answers) or of another token. No client of this one can use it: replace it.
    if (res && (await stopUnprovenWorker(holderPid))) return srv.listen(port);
    // Our recorded worker holds the port but was too busy to answer health in time.
    throw new AlreadyRunning(`the recorded worker (pid ${holderPid}) holds port ${port}; exiting`);
  }
  // An unconfigured first choice was only a preference: take any free port.
  if (configured === undefined) return srv.listen(0);
  throw new StartFailure(
    'port_in_use',
    `port ${port} (settings.json "port") is in use by ${describePid(holderPid)}. Stop that process, or set another "port" in ${paths.settings}.`,
    { port, holderPid },
  );
}

/**
 * SIGTERM (a graceful stop) to the process worker.json records, which /proc shows holding the
 * recorded port — so it is a process of this user, and a claude-mem worker by its command line.
 * True once it is gone.
 */
async function stopUnprovenWorker(pid: number): Promise<boolean> {
  if (!looksLikeWorker(pid)) return false;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return false;
  }
  for (const end = Date.now() + 8000; Date.now() < end; ) {
    if (!pidAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return false;
}

/** What the worker runs besides its HTTP server; each part is stopped in order on shutdown. */
interface WorkerParts {
  paths: DataPaths;
  store: MemoryStore;
  logger: Logger;
  instanceId: string;
  storage: StorageHealth;
  drain: SpoolDrain;
  sync: SyncService | undefined;
  transcripts: () => TranscriptWatcher | undefined;
}

/** Once only: the server stops taking requests first so nothing new arrives while the rest closes. */
function shutdownOnce(parts: WorkerParts, srv: () => WorkerServer, exit: (code: number) => void): (reason: string) => void {
  const { logger, store, drain, sync, paths, instanceId } = parts;
  let stopping: Promise<void> | undefined;
  return (reason) => {
    stopping ??= (async () => {
      logger.info('shutting down', { reason });
      const hard = setTimeout(() => {
        logger.error('shutdown took too long; exiting');
        exit(1);
      }, 15_000);
      hard.unref();
      await srv().close(5000);
      await drain.stop();
      await parts.transcripts()?.stop();
      await sync?.stop();
      try {
        store.close(); // checkpoints the WAL
      } catch (err) {
        logger.error('closing the store failed', { err });
      }
      removeWorkerInfoIfOurs(paths, instanceId);
      logger.info('stopped');
      exit(0);
    })();
  };
}

function routeContext(parts: WorkerParts, settings: Settings, health: () => HealthBody, shutdown: (reason: string) => void): RouteContext {
  const { paths, store, logger, storage, drain, sync } = parts;
  const syncStore = isSyncStore(store) ? store : undefined;
  const contextPullMs = Math.min(settings.syncContextPullMs, Math.floor(settings.contextBudgetMs / 4));
  const batcher = new IngestBatcher(store);
  return {
    store, logger, health, shutdown,
    ingest: async (events) => {
      const result = await batcher.submit(events);
      storage.succeeded();
      if (result.stored) sync?.kick();
      return result;
    },
    kickDrain: () => drain.kick(),
    // Read per request, as the hooks do: a changed setting applies without a restart.
    contextTokens: () => contextLimits(process.env, paths).maxTokens,
    storageFailed: (err) => {
      if (storage.failed(err)) drain.kick(1000);
    },
    storageState: () => storage.state(),
    transcripts: () => parts.transcripts()?.status(),
    sync: sync && syncStore ? {
      status: () => syncStatus(paths, syncStore, sync.backoff()),
      now: () => sync.now(),
      beforeContext: () => sync.beforeContext(contextPullMs),
      kick: () => sync.kick(),
    } : undefined,
    spoolDepth: () => {
      const files = listSpool(paths.spool);
      return { files: files.length, bytes: files.reduce((n, f) => n + f.size, 0) };
    },
  };
}

/** worker.json is written only once the port is bound, so clients never find a worker that is not listening. */
async function bindAndAnnounce(srv: WorkerServer, paths: DataPaths, settings: Settings, startedAt: Date, instanceId: string, logger: Logger): Promise<number> {
  const port = await listenOrFail(srv, paths, settings.port);
  if (settings.port !== port) updateSettings(paths, { port });
  const info: WorkerInfo = { pid: process.pid, port, version: VERSION, startedAt: startedAt.toISOString(), dataDir: paths.root, instanceId };
  writeWorkerInfo(paths, info);
  clearStartError(paths);
  // Made now, while there is room: hooks count lost events in it when even the spool fails.
  if (!ensureLossRecord(paths.root)) logger.warn('cannot create the loss record', { file: lossRecordPath(paths.root) });
  releaseStartLock(paths);
  return port;
}

function handleProcessSignals(shutdown: (reason: string) => void, paths: DataPaths, instanceId: string, logger: Logger, exit: (code: number) => void) {
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGHUP', () => logger.info('SIGHUP ignored'));
  process.on('uncaughtException', (err) => {
    logger.error('uncaught exception', { err });
    removeWorkerInfoIfOurs(paths, instanceId);
    exit(1);
  });
  process.on('unhandledRejection', (err) => logger.error('unhandled rejection', { err }));
}

async function serve(paths: DataPaths, settings: Settings, token: string, store: MemoryStore, logger: Logger, exit: (code: number) => void) {
  const instanceId = randomUUID();
  const startedAt = new Date();
  const health = (): HealthBody => ({
    ok: true, name: 'claude-mem', version: VERSION, pid: process.pid, instanceId, dataDir: paths.root,
    startedAt: startedAt.toISOString(), uptimeMs: Date.now() - startedAt.getTime(),
  });
  const storage = new StorageHealth(logger);
  let transcripts: TranscriptWatcher | undefined;
  const parts: WorkerParts = {
    paths, store, logger, instanceId, storage,
    drain: new SpoolDrain({ store, spoolDir: paths.spool, logger, storage, intervalMs: settings.spoolDrainIntervalMs }),
    sync: isSyncStore(store) ? new SyncService({ paths, store, logger, pullIntervalMs: settings.syncPullIntervalMs }) : undefined,
    transcripts: () => transcripts,
  };
  const shutdown = shutdownOnce(parts, () => srv, exit);
  const ctx = routeContext(parts, settings, health, shutdown);
  const viewer = createViewer({ ctx, token, instanceId, port: () => srv.port(), dataDir: paths.root });
  ctx.viewerLink = () => viewer.link();
  const srv = createWorkerServer({
    ctx,
    viewer,
    token,
    instanceId,
    limits: { default: settings.maxBodyBytes, events: settings.maxEventsBodyBytes },
  });

  const port = await bindAndAnnounce(srv, paths, settings, startedAt, instanceId, logger);
  parts.drain.start();
  parts.sync?.start();
  // Transcript capture runs inside the worker so checkpoints commit with the events they produced.
  transcripts = startTranscriptWatcher({ store, paths, log: logger });

  handleProcessSignals(shutdown, paths, instanceId, logger, exit);
  logger.info('worker ready', { pid: process.pid, port, version: VERSION, dataDir: paths.root, instanceId });
}
