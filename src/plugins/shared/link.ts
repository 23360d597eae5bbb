/**
 * The worker as a long-lived plugin sees it (the hook's WorkerLink contract, so the hook's
 * delivery code is reused as is). A plugin lives as long as its host: "down" is remembered only
 * briefly, and a missing worker is started detached with the install's own node
 * (`node bin.js start --wait 0`, which takes the worker's start lock): the host process may be
 * Bun or a Node the worker's SQLite module was not built for, so `process.execPath` is not used.
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import type { HookLog } from '../../hook/debug-log.js';
import type { Endpoint, WorkerLink } from '../../hook/link.js';
import type { DataPaths, Env } from '../../shared/paths.js';
import { workerEndpoint } from '../../shared/worker-client.js';
import { checkHealth, pidAlive, startErrorPath } from '../../shared/worker-start.js';
import type { InstallConfig } from './config.js';

/** A refused connection is trusted this long before worker.json is read again. */
const DOWN_MS = 2_000;
/** At most one start attempt per interval (and none right after a recorded start failure). */
const START_EVERY_MS = 10_000;
const POLL_MS = 50;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface PluginLink extends WorkerLink {
  /** Why the last start was not attempted (for logs and tests); undefined after a spawn. */
  lastStart(): string | undefined;
}

export function createPluginLink(paths: DataPaths, cfg: InstallConfig, log: HookLog, env: Env = process.env): PluginLink {
  let downAt = 0;
  let startedAt = -Infinity;
  let spawnedAt = -Infinity;
  let why: string | undefined = 'never asked';
  /** A start of ours or of another process (the worker's start lock) is under way: worth waiting for. */
  const starting = () => Date.now() - spawnedAt < START_EVERY_MS || existsSync(paths.startLock);

  const read = (): Endpoint | undefined => {
    const e = workerEndpoint(paths);
    return e && pidAlive(e.info.pid) ? { port: e.port, auth: e.auth } : undefined;
  };

  const spawnStart = (): void => {
    if (!cfg.nodePath || !cfg.entryPath) {
      why = 'no node/entry recorded (claude-mem.json missing); run `claude-mem start`';
      return;
    }
    if (!existsSync(cfg.nodePath) || !existsSync(cfg.entryPath)) {
      why = `${cfg.nodePath} or ${cfg.entryPath} is missing (claude-mem moved? run \`claude-mem install\` again)`;
      return;
    }
    try {
      if (Date.now() - statSync(startErrorPath(paths)).mtimeMs < START_EVERY_MS) {
        why = 'the worker failed to start moments ago';
        return;
      }
    } catch {
      // No recorded failure.
    }
    const child = spawn(cfg.nodePath, [cfg.entryPath, 'start', '--wait', '0'], {
      detached: true,
      stdio: 'ignore',
      env: { ...(env as NodeJS.ProcessEnv), CLAUDE_MEM_DATA_DIR: paths.root },
    });
    child.on('error', (err) => log.problem(`could not run ${cfg.entryPath} start: ${err.message}`));
    child.unref();
    spawnedAt = Date.now();
    why = undefined;
    log.detail(`starting the worker: ${cfg.nodePath} ${cfg.entryPath} start`);
  };

  return {
    endpoint() {
      if (downAt && Date.now() - downAt < DOWN_MS) return undefined;
      const e = read();
      downAt = e ? 0 : Date.now();
      return e;
    },
    markDown() {
      downAt = Date.now();
    },
    lastStart: () => why,
    async start(waitMs) {
      try {
        if (Date.now() - startedAt >= START_EVERY_MS) {
          startedAt = Date.now();
          spawnStart();
          if (why) log.detail(`worker not started: ${why}`);
        }
        if (waitMs <= 0 || !starting()) return undefined;
        const deadline = Date.now() + waitMs;
        for (;;) {
          const h = await checkHealth(paths, Math.min(150, Math.max(1, deadline - Date.now())));
          if (h.ok) {
            downAt = 0;
            return read();
          }
          if (Date.now() + POLL_MS >= deadline) return undefined;
          await sleep(POLL_MS);
        }
      } catch (err) {
        log.problem(`worker start: ${(err as Error).message}`);
        return undefined;
      }
    },
  };
}
