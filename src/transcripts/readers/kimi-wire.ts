/**
 * Kimi Code's per-agent wire logs (`~/.kimi-code/sessions/wd_<dir>_<hash>/<session>/agents/
 * <agent>/wire.jsonl`) name neither the session nor its working directory; the session's
 * `state.json` does (id, cwd, agents{name: {type}}). They come first as a history-context line;
 * an agent other than the main one is the subagent session `<session>:<agent>` of the session.
 * The log itself is read from disk as it is.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { HistoryLog } from './reader-types.js';
import type { HistoryReader } from './reader-types.js';
import { jsonLines, prefixedFile } from './sources.js';

type Rec = Record<string, unknown>;
const obj = (v: unknown): Rec | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined);

async function context(wire: string): Promise<Rec> {
  const agent = basename(dirname(wire));
  const sessionDir = dirname(dirname(dirname(wire)));
  const line: Rec = { type: 'history-context', sessionId: basename(sessionDir) };
  try {
    const state = obj(JSON.parse(await readFile(join(sessionDir, 'state.json'), 'utf8')));
    if (typeof state?.id === 'string') line.sessionId = state.id;
    if (typeof state?.cwd === 'string') line.cwd = state.cwd;
    const type = obj(obj(state?.agents)?.[agent])?.type;
    // A subagent is a session of its own (its turn ids restart at 0), linked to its parent.
    if (agent !== 'main' && type !== 'main') {
      Object.assign(line, { subagent: true, agentId: agent, parentSessionId: line.sessionId, sessionId: `${String(line.sessionId)}:${agent}` });
    }
  } catch { /* no state: the session id from the folder, the cwd from the tool calls if any */ }
  return line;
}

export const kimiWire: HistoryReader = {
  async list(path, file): Promise<HistoryLog[]> {
    const c = await context(path);
    return [{ key: path, path, bytes: file.bytes, mtimeMs: file.mtimeMs, sessionId: c.sessionId as string,
      ...(typeof c.cwd === 'string' ? { cwd: c.cwd } : {}) }];
  },
  async open(log) {
    return prefixedFile(jsonLines([await context(log.path)]), log.path);
  },
};
