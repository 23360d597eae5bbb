/**
 * Grok Build's ACP update stream (`~/.grok/sessions/<url-encoded cwd>/<session>/updates.jsonl`).
 * Two things the schema language cannot do are done here: runs of streamed message chunks
 * become one message (joined text), and a user message, which carries no prompt id, gets the id
 * of its turn from the records that follow it (`_meta.promptId`, `prompt_id`). The session's
 * `summary.json` (cwd, title) comes first as a history-context line. Unparseable lines pass
 * through as they are (the processor dead-letters them); an unfinished last line waits.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { HistoryLog } from './reader-types.js';
import { bufferSource } from '../byte-source.js';
import type { HistoryReader } from './reader-types.js';

const MAX_LOG_BYTES = 512 * 1024 * 1024;
const CHUNKS = new Set(['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk']);

type Rec = Record<string, unknown>;
const obj = (v: unknown): Rec | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Rec) : undefined);

function update(r: Rec | undefined): Rec | undefined { return obj(obj(r?.params)?.update); }
function turnOf(r: Rec | undefined): string | undefined {
  const id = obj(obj(r?.params)?._meta)?.promptId ?? update(r)?.prompt_id;
  return typeof id === 'string' && id ? id : undefined;
}
function chunkText(r: Rec): string | undefined {
  const c = obj(update(r)?.content);
  return c?.type === 'text' && typeof c.text === 'string' ? c.text : undefined;
}

async function summary(path: string): Promise<Rec | undefined> {
  try {
    const s = obj(JSON.parse(await readFile(join(dirname(path), 'summary.json'), 'utf8')));
    const cwd = obj(s?.info)?.cwd;
    const title = s?.generated_title ?? s?.session_summary;
    return { type: 'history-context', ...(typeof cwd === 'string' ? { cwd } : {}), ...(typeof title === 'string' ? { title } : {}) };
  } catch { return undefined; }
}

/** The session folder's parent is the url-encoded working directory. */
function cwdFromFolder(path: string): string | undefined {
  try {
    const cwd = decodeURIComponent(basename(dirname(dirname(path))));
    return cwd.startsWith('/') ? cwd : undefined;
  } catch { return undefined; }
}

/** Merges chunk runs and names each user message's turn; unparseable lines are kept as text. */
export function mergeUpdates(lines: string[]): Array<Rec | string> {
  const out: Array<Rec | string> = [];
  for (const line of lines) {
    if (!line.trim()) continue;
    let r: Rec | undefined;
    try { r = obj(JSON.parse(line)); } catch { /* kept as text */ }
    if (!r) { out.push(line); continue; }
    const kind = update(r)?.sessionUpdate;
    const prev = out.length ? out[out.length - 1] : undefined;
    const text = typeof kind === 'string' && CHUNKS.has(kind) ? chunkText(r) : undefined;
    if (text !== undefined && typeof prev === 'object' && update(prev)?.sessionUpdate === kind
      && obj(prev.params)?.sessionId === obj(r.params)?.sessionId && turnOf(prev) === turnOf(r) && chunkText(prev) !== undefined) {
      (obj(update(prev)!.content)!).text = chunkText(prev)! + text;
      continue;
    }
    out.push(r);
  }
  // A user message's turn is the next turn id seen before the next user message.
  let next: string | undefined;
  for (let i = out.length - 1; i >= 0; i--) {
    const r = out[i];
    if (typeof r === 'string') continue;
    if (update(r)?.sessionUpdate === 'user_message_chunk') {
      if (next && !turnOf(r)) {
        const params = obj(r.params)!;
        params._meta = { ...(obj(params._meta) ?? {}), promptId: next };
      }
      next = undefined;
    } else next = turnOf(r) ?? next;
  }
  return out;
}

export const grokUpdates: HistoryReader = {
  async list(path, file): Promise<HistoryLog[]> {
    const cwd = (await summary(path))?.cwd ?? cwdFromFolder(path);
    return [{ key: path, path, bytes: file.bytes, mtimeMs: file.mtimeMs, sessionId: basename(dirname(path)),
      ...(typeof cwd === 'string' ? { cwd } : {}) }];
  },
  async open(log) {
    const raw = await readFile(log.path);
    if (raw.length > MAX_LOG_BYTES) throw new Error(`${raw.length} bytes: larger than ${MAX_LOG_BYTES}`);
    const text = raw.toString('utf8');
    const end = text.lastIndexOf('\n');
    const records = mergeUpdates(end < 0 ? [] : text.slice(0, end).split('\n'));
    const ctx = await summary(log.path);
    const lines = [...(ctx ? [ctx] : []), ...records].map((r) => (typeof r === 'string' ? r : JSON.stringify(r)));
    return bufferSource(Buffer.from(lines.length ? lines.join('\n') + '\n' : '', 'utf8'), 0, log.mtimeMs);
  },
};
