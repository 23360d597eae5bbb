/**
 * OpenCode before its SQLite store kept one JSON file per record under
 * `$XDG_DATA_HOME/opencode/storage/`: `session/<project>/<session>.json`,
 * `message/<session>/<message>.json`, `part/<message>/<part>.json`. They become the same lines
 * the SQLite reader makes (session, then each message followed by its parts), so one schema
 * reads both.
 */
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { HistoryLog } from './reader-types.js';

type Rec = Record<string, unknown>;
const obj = (v: unknown): Rec | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined);
const created = (r: Rec | undefined) => Number(obj(r?.time)?.created ?? obj(r?.time)?.start) || 0;

async function readJsonDir(dir: string): Promise<Rec[]> {
  let names: string[];
  try { names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort(); } catch { return []; }
  const out: Rec[] = [];
  for (const n of names) {
    try {
      const r = obj(JSON.parse(await readFile(join(dir, n), 'utf8')));
      if (r) out.push(r);
    } catch { /* a record being written or damaged: left out, the rest still read */ }
  }
  return out;
}

const storageRoot = (sessionFile: string) => dirname(dirname(dirname(sessionFile)));

export async function listSessionFile(path: string, file: { bytes: number; mtimeMs: number }): Promise<HistoryLog[]> {
  const s = obj(JSON.parse(await readFile(path, 'utf8')));
  if (typeof s?.id !== 'string') return [];
  const updated = Number(obj(s.time)?.updated) || file.mtimeMs;
  return [{ key: path, path, bytes: file.bytes, mtimeMs: updated, sessionId: s.id, ...(typeof s.directory === 'string' ? { cwd: s.directory } : {}) }];
}

export async function sessionFileLines(log: HistoryLog): Promise<unknown[] | null> {
  let s: Rec | undefined;
  try { s = obj(JSON.parse(await readFile(log.path, 'utf8'))); } catch { return null; }
  if (!s || typeof s.id !== 'string') return null;
  const root = storageRoot(log.path);
  const out: unknown[] = [{ type: 'session', id: s.id, directory: s.directory, parent_id: s.parentID ?? null, title: s.title, time_created: created(s) }];
  const messages = (await readJsonDir(join(root, 'message', s.id))).sort((a, b) => created(a) - created(b) || String(a.id).localeCompare(String(b.id)));
  for (const m of messages) {
    const id = String(m.id);
    out.push({ type: 'message', id, session_id: s.id, time_created: created(m), data: m });
    const parts = (await readJsonDir(join(root, 'part', id))).sort((a, b) => String(a.id).localeCompare(String(b.id)));
    for (const p of parts) {
      out.push({ type: 'part', id: p.id, message_id: id, session_id: s.id, time_created: created(p) || created(m), role: m.role, summary: m.summary === true, data: p });
    }
  }
  return out;
}
