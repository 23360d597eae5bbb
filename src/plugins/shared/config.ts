/**
 * What a native plugin knows about the claude-mem install. The installer writes `claude-mem.json`
 * beside the bundle: `{ host, dataDir, nodePath, entryPath }` (the same file and fields the
 * Pi-family plugins read). At run time CLAUDE_MEM_DATA_DIR wins over the recorded data directory,
 * which wins over ~/.claude-mem; node and the entry are needed only to start the worker.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dataDir, type Env } from '../../shared/paths.js';

export const PLUGIN_CONFIG_FILE = 'claude-mem.json';

export interface InstallConfig {
  /** The data directory in use (after the environment override). */
  dataDir: string;
  /** Node that runs claude-mem: the host's own runtime may be Bun or another Node. */
  nodePath?: string;
  /** dist/bin.js of the installed claude-mem. */
  entryPath?: string;
  /** Where the data directory came from, for log lines and doctor. */
  source: string;
}

/** The folder of a module URL (`import.meta.url`), or undefined when it is not a file URL. */
export function moduleDir(url: string | undefined): string | undefined {
  try {
    return url ? dirname(fileURLToPath(url)) : undefined;
  } catch {
    return undefined;
  }
}

const abs = (v: unknown): string | undefined => (typeof v === 'string' && isAbsolute(v) ? v : undefined);

/** Reads `claude-mem.json` from `dir` (missing or broken → the environment's defaults). Never throws. */
export function readInstallConfig(dir: string | undefined, env: Env = process.env): InstallConfig {
  let recorded: Record<string, unknown> = {};
  let file: string | undefined;
  if (dir) {
    try {
      file = join(dir, PLUGIN_CONFIG_FILE);
      recorded = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    } catch {
      file = undefined;
    }
  }
  const nodePath = abs(recorded.nodePath);
  const entryPath = abs(recorded.entryPath);
  const runtime = { ...(nodePath && { nodePath }), ...(entryPath && { entryPath }) };
  if (env.CLAUDE_MEM_DATA_DIR) return { dataDir: dataDir(env), ...runtime, source: 'CLAUDE_MEM_DATA_DIR' };
  const recordedDir = abs(recorded.dataDir);
  if (recordedDir && file) return { dataDir: recordedDir, ...runtime, source: file };
  return { dataDir: dataDir(env), ...runtime, source: 'default data directory' };
}
