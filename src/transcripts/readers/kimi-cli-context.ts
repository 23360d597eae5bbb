/**
 * The Python Kimi CLI (`${KIMI_SHARE_DIR:-~/.kimi}/sessions/<md5 of the work dir>/<session>/
 * context.jsonl`): role-keyed messages whose folder names the work directory only by its md5.
 * The directory is the one of `kimi.json`'s `work_dirs` whose path hashes to the folder name; it
 * comes first, with the session id (the folder), as a history-context line.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { HistoryLog } from './reader-types.js';
import type { HistoryReader } from './reader-types.js';
import { jsonLines, prefixedFile } from './sources.js';

async function workDir(contextFile: string): Promise<string | undefined> {
  const hashDir = dirname(dirname(contextFile));
  const share = dirname(dirname(hashDir));
  try {
    const cfg = JSON.parse(await readFile(join(share, 'kimi.json'), 'utf8')) as { work_dirs?: Array<{ path?: unknown }> };
    const want = basename(hashDir);
    for (const w of cfg.work_dirs ?? []) {
      if (typeof w?.path === 'string' && createHash('md5').update(w.path).digest('hex') === want) return w.path;
    }
  } catch { /* no registry: the directory stays unknown and the lines are dead-lettered, never guessed */ }
  return undefined;
}

async function context(path: string) {
  const cwd = await workDir(path);
  return { type: 'history-context', sessionId: basename(dirname(path)), ...(cwd ? { cwd } : {}) };
}

export const kimiCliContext: HistoryReader = {
  async list(path, file): Promise<HistoryLog[]> {
    const c = await context(path);
    return [{ key: path, path, bytes: file.bytes, mtimeMs: file.mtimeMs, sessionId: c.sessionId, ...(c.cwd ? { cwd: c.cwd } : {}) }];
  },
  async open(log) {
    return prefixedFile(jsonLines([await context(log.path)]), log.path);
  },
};
