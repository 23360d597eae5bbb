/**
 * Roo Code tasks (`<VS Code user dir>/globalStorage/rooveterinaryinc.roo-cline/tasks/<task id>/
 * api_conversation_history.json`): one JSON document per task, an Anthropic-style message array
 * (`[{role, content, ts}]`) or, in newer builds, the envelope `{version: 2, messages: […]}`.
 * Each message becomes a line; a user message also gets `prompt`, its typed text without Roo's
 * wrappers (`<task>`, `<user_message>`, `<feedback>`, `<answer>`) and without the
 * `<environment_details>` Roo appends. The working directory is the one Roo names there; the
 * task id (the folder) is the session id.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import type { HistoryLog } from './reader-types.js';
import { bufferSource } from '../byte-source.js';
import type { HistoryReader } from './reader-types.js';
import { jsonLines } from './sources.js';

const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;
const WRAPPED = /^\s*<(task|user_message|feedback|answer)>\s*([\s\S]*?)\s*<\/\1>\s*$/;
const WORKSPACE = /# Current Workspace Directory \(([^)\n]+)\)/;

type Rec = Record<string, unknown>;

function texts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((b) => (b && typeof b === 'object' && (b as Rec).type === 'text' && typeof (b as Rec).text === 'string' ? [(b as Rec).text as string] : []));
}

/** What the user typed in a user message, or undefined (tool results, reminders only). */
function typedText(content: unknown): string | undefined {
  const parts = texts(content)
    .map((t) => t.replace(/<environment_details>[\s\S]*?<\/environment_details>/g, '').trim())
    .filter((t) => t !== '')
    .map((t) => WRAPPED.exec(t)?.[2] ?? (/^\[[^\]]+\] Result:/.test(t) ? '' : t))
    .filter((t) => t !== '');
  return parts.length ? parts.join('\n') : undefined;
}

export const rooTask: HistoryReader = {
  async list(path, file): Promise<HistoryLog[]> {
    return [{ key: path, path, bytes: file.bytes, mtimeMs: file.mtimeMs, sessionId: basename(dirname(path)) }];
  },
  async open(log) {
    const raw = await readFile(log.path);
    if (raw.length > MAX_DOCUMENT_BYTES) throw new Error(`${raw.length} bytes: larger than ${MAX_DOCUMENT_BYTES}`);
    const doc = JSON.parse(raw.toString('utf8')) as unknown;
    const messages = Array.isArray(doc) ? doc : Array.isArray((doc as Rec)?.messages) ? ((doc as Rec).messages as unknown[]) : null;
    if (!messages) throw new Error('neither a message array nor a {messages} envelope');
    let cwd: string | undefined;
    for (const m of messages) {
      const hit = texts((m as Rec)?.content).map((t) => WORKSPACE.exec(t)?.[1]).find(Boolean);
      if (hit) { cwd = hit.trim(); break; }
    }
    const lines: unknown[] = [{ type: 'history-context', sessionId: basename(dirname(log.path)), ...(cwd ? { cwd } : {}) }];
    messages.forEach((m, index) => {
      if (!m || typeof m !== 'object') { lines.push(m); return; }
      const r = m as Rec;
      lines.push(r.role === 'user' ? { ...r, index, prompt: typedText(r.content) } : { ...r, index });
    });
    return bufferSource(jsonLines(lines), 0, log.mtimeMs);
  },
};
