/**
 * Gemini CLI chat recordings (`~/.gemini/tmp/<project>/chats/session-*.jsonl`, and the older
 * one-document `session-*.json`). The log names no working directory: it is the project root
 * Gemini registered for the folder (`<project>/.project_root`, or `projects.json` mapping
 * root → project name), else the workspace directory Gemini wrote into its session context.
 * It reaches the schema as a first `{"type":"history-context","cwd":…}` line.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join } from 'node:path';
import type { HistoryLog } from './reader-types.js';
import type { HistoryReader } from './reader-types.js';
import { jsonLines, prefixedFile } from './sources.js';
import { bufferSource } from '../byte-source.js';

const MAX_DOCUMENT_BYTES = 256 * 1024 * 1024;

async function text(path: string): Promise<string | undefined> {
  try { return await readFile(path, 'utf8'); } catch { return undefined; }
}

/** The project root Gemini keeps for `<gemini>/tmp/<project>`. */
async function projectRoot(chatFile: string): Promise<string | undefined> {
  const projectDir = dirname(dirname(chatFile));
  const marker = (await text(join(projectDir, '.project_root')))?.trim();
  if (marker && isAbsolute(marker)) return marker;
  const registry = await text(join(dirname(dirname(projectDir)), 'projects.json'));
  if (registry) {
    try {
      const projects = (JSON.parse(registry) as { projects?: Record<string, unknown> }).projects ?? {};
      const name = basename(projectDir);
      const root = Object.entries(projects).find(([, v]) => v === name)?.[0];
      if (root && isAbsolute(root)) return root;
    } catch { /* an unreadable registry names nothing */ }
  }
  return undefined;
}

/** The first workspace directory in Gemini's `<session_context>` preamble. */
function workspaceFromText(head: string): string | undefined {
  const m = /Workspace Directories:\*\*(?:\\n|\n)\s*- (\/[^\\"\n]*)/.exec(head);
  return m?.[1];
}

async function head(path: string, bytes = 256 * 1024): Promise<string> {
  const { open } = await import('node:fs/promises');
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead).toString('utf8');
  } finally { await fh.close(); }
}

async function contextLine(path: string, firstBytes: string): Promise<Buffer> {
  const cwd = (await projectRoot(path)) ?? workspaceFromText(firstBytes);
  return cwd ? jsonLines([{ type: 'history-context', cwd }]) : Buffer.alloc(0);
}

export const geminiChat: HistoryReader = {
  async list(path, file): Promise<HistoryLog[]> {
    const cwd = await projectRoot(path);
    return [{ key: path, path, bytes: file.bytes, mtimeMs: file.mtimeMs, ...(cwd ? { cwd } : {}) }];
  },
  async open(log) {
    if (!log.path.endsWith('.json')) return prefixedFile(await contextLine(log.path, await head(log.path)), log.path);
    // The older format: one JSON document {sessionId, projectHash, startTime, messages[]}.
    const raw = await readFile(log.path);
    if (raw.length > MAX_DOCUMENT_BYTES) throw new Error(`${raw.length} bytes: larger than ${MAX_DOCUMENT_BYTES}`);
    const doc = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
    const { messages, ...header } = doc;
    const prefix = await contextLine(log.path, raw.subarray(0, 256 * 1024).toString('utf8'));
    const body = jsonLines([header, ...(Array.isArray(messages) ? messages : [])]);
    return bufferSource(Buffer.concat([prefix, body]), 0, log.mtimeMs);
  },
};
