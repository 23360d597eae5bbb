/** Where claude-mem keeps its files. Everything derives from CLAUDE_MEM_DATA_DIR or HOME. */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export type Env = Readonly<Record<string, string | undefined>>;

export function homeDir(env: Env = process.env): string {
  return env.HOME || env.USERPROFILE || homedir();
}

/** Expands a leading `~` against HOME. */
export function expandHome(p: string, env: Env = process.env): string {
  if (p === '~') return homeDir(env);
  if (p.startsWith('~/')) return join(homeDir(env), p.slice(2));
  return p;
}

export function dataDir(env: Env = process.env): string {
  const configured = env.CLAUDE_MEM_DATA_DIR;
  return configured ? resolve(expandHome(configured, env)) : join(homeDir(env), '.claude-mem');
}

export interface DataPaths {
  root: string;
  settings: string;
  db: string;
  workerJson: string;
  token: string;
  manifest: string;
  backups: string;
  logs: string;
  spool: string;
  transcriptWatch: string;
  startLock: string;
}

export function dataPaths(root: string = dataDir()): DataPaths {
  return {
    root,
    settings: join(root, 'settings.json'),
    db: join(root, 'claude-mem.db'),
    workerJson: join(root, 'worker.json'),
    token: join(root, 'worker.token'),
    manifest: join(root, 'install-manifest.json'),
    backups: join(root, 'backups'),
    logs: join(root, 'logs'),
    spool: join(root, 'spool'),
    transcriptWatch: join(root, 'transcript-watch.json'),
    startLock: join(root, 'worker.start.lock'),
  };
}
