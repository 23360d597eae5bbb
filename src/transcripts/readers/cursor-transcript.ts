/**
 * Cursor agent transcripts (`~/.cursor/projects/<project slug>/agent-transcripts/<id>/<id>.jsonl`,
 * subagents under `<id>/subagents/`): `{role, message: {content[]}}` lines and `turn_ended`
 * markers, with no times, no working directory and no tool output. The reader puts first the
 * session id (the file name) and the working directory: the project slug is the path with `/`
 * and `.` turned into `-`, so it is resolved against the directories that exist (never guessed);
 * a user message also gets `prompt`, its text without Cursor's `<user_query>` wrapper.
 */
import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { HistoryLog } from './reader-types.js';
import { bufferSource } from '../byte-source.js';
import type { HistoryReader } from './reader-types.js';
import { jsonLines } from './sources.js';

const MAX_LOG_BYTES = 256 * 1024 * 1024;
const slugOf = (name: string) => name.replace(/[/.]/g, '-');

/** The existing directory whose path slugs to `slug` (a depth-first walk that follows only matching names). */
function resolveSlug(slug: string, root = '/'): string | undefined {
  const want = slug.replace(/^-+/, '');
  const walk = (dir: string, rest: string, depth: number): string | undefined => {
    if (rest === '') return dir;
    if (depth > 32) return undefined;
    let names: string[];
    try { names = readdirSync(dir); } catch { return undefined; }
    for (const n of names.sort((a, b) => b.length - a.length)) {
      const s = slugOf(n);
      if (rest !== s && !rest.startsWith(`${s}-`)) continue;
      const full = join(dir, n);
      try { if (!statSync(full).isDirectory()) continue; } catch { continue; }
      const hit = walk(full, rest.slice(s.length + 1), depth + 1);
      if (hit) return hit;
    }
    return undefined;
  };
  return walk(root, want, 0);
}

function projectDir(path: string): string | undefined {
  const parts = path.split('/');
  const i = parts.lastIndexOf('agent-transcripts');
  return i > 0 ? resolveSlug(parts[i - 1]) : undefined;
}

function userText(content: unknown): string | undefined {
  const blocks = typeof content === 'string' ? [content] : Array.isArray(content)
    ? content.flatMap((b) => (b && typeof b === 'object' && (b as { type?: unknown }).type === 'text' && typeof (b as { text?: unknown }).text === 'string' ? [(b as { text: string }).text] : []))
    : [];
  const text = blocks.map((t) => t.replace(/^\s*<user_query>\s*([\s\S]*?)\s*<\/user_query>\s*$/, '$1').trim()).filter(Boolean).join('\n');
  return text || undefined;
}

export const cursorTranscript: HistoryReader = {
  async list(path, file): Promise<HistoryLog[]> {
    const cwd = projectDir(path);
    return [{ key: path, path, bytes: file.bytes, mtimeMs: file.mtimeMs, ...(cwd ? { cwd } : {}) }];
  },
  async open(log) {
    const raw = await readFile(log.path);
    if (raw.length > MAX_LOG_BYTES) throw new Error(`${raw.length} bytes: larger than ${MAX_LOG_BYTES}`);
    const text = raw.toString('utf8');
    const end = text.lastIndexOf('\n');
    const sub = basename(dirname(log.path)) === 'subagents';
    const session = sub ? basename(dirname(dirname(log.path))) : basename(log.path).replace(/\.jsonl$/, '');
    const cwd = log.cwd ?? projectDir(log.path);
    const head = { type: 'history-context', sessionId: session, ...(cwd ? { cwd } : {}),
      ...(sub ? { subagent: true, agentId: basename(log.path).replace(/\.jsonl$/, ''), parentSessionId: session } : {}) };
    const lines: Array<unknown> = [head];
    for (const line of end < 0 ? [] : text.slice(0, end).split('\n')) {
      if (!line.trim()) continue;
      let r: Record<string, unknown> | undefined;
      try { r = JSON.parse(line) as Record<string, unknown>; } catch { lines.push(line); continue; }
      lines.push(r && typeof r === 'object' && r.role === 'user' ? { ...r, prompt: userText((r.message as { content?: unknown } | undefined)?.content) } : r);
    }
    const out = lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n') + '\n';
    return bufferSource(Buffer.from(out, 'utf8'), 0, log.mtimeMs);
  },
};
