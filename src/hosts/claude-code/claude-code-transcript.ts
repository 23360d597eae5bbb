/**
 * Claude Code's Stop hook carries only the turn's last assistant message; the replies before it
 * (where the agent often names a cause or a decision) are in the session transcript. At Stop the
 * hook reads the transcript's tail (at most MAX_TAIL bytes, synchronously: about 2 ms) and
 * takes the assistant text of the current turn: every `assistant` record after the last prompt the
 * user typed. Tool results, meta records and sidechains (subagents) are not the turn's replies.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

const MAX_TAIL = 256 * 1024;
/** Replies kept from one turn (the newest ones when there are more). */
const MAX_TURN_REPLIES = 20;

type Rec = { type?: unknown; isMeta?: unknown; isSidechain?: unknown; message?: { content?: unknown } };

function tail(file: string): string[] {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const len = Math.min(size, MAX_TAIL);
    const buf = Buffer.alloc(len);
    readSync(fd, buf, 0, len, size - len);
    const lines = buf.toString('utf8').split('\n');
    // A read that starts inside the file starts inside a line.
    return size > len ? lines.slice(1) : lines;
  } finally {
    closeSync(fd);
  }
}

function parse(line: string): Rec | undefined {
  try {
    const r = JSON.parse(line) as unknown;
    return r && typeof r === 'object' ? (r as Rec) : undefined;
  } catch {
    return undefined;
  }
}

/** A prompt the user typed: a user record whose content is text, not tool results. */
function isPrompt(r: Rec): boolean {
  if (r.type !== 'user' || r.isMeta === true || r.isSidechain === true) return false;
  const c = r.message?.content;
  if (typeof c === 'string') return c.trim() !== '';
  return Array.isArray(c) && c.some((b) => (b as { type?: unknown })?.type === 'text') && !c.some((b) => (b as { type?: unknown })?.type === 'tool_result');
}

function replyText(r: Rec): string {
  const c = r.message?.content;
  if (typeof c === 'string') return c.trim();
  if (!Array.isArray(c)) return '';
  return c.map((b) => {
    const block = b as { type?: unknown; text?: unknown };
    return block?.type === 'text' && typeof block.text === 'string' ? block.text : '';
  }).filter(Boolean).join('\n').trim();
}

/** The assistant replies of the transcript's last turn, oldest first; [] when it cannot be read. */
export function turnReplies(file: string | undefined): string[] {
  if (!file) return [];
  let lines: string[];
  try {
    lines = tail(file);
  } catch {
    return [];
  }
  const replies: string[] = [];
  // Only lines that can be a prompt or a reply with text are parsed (quotes inside strings are
  // escaped, so these markers match record structure only).
  for (let i = lines.length - 1; i >= 0 && replies.length < MAX_TURN_REPLIES; i--) {
    const line = lines[i];
    const user = line.includes('"type":"user"');
    if (user ? line.includes('"type":"tool_result"') : !line.includes('"type":"assistant"') || !line.includes('"type":"text"')) continue;
    const r = parse(line);
    if (!r) continue;
    if (user && isPrompt(r)) break;
    if (r.type === 'assistant' && r.isSidechain !== true) {
      const text = replyText(r);
      if (text) replies.push(text);
    }
  }
  return replies.reverse();
}
