/** text-block: a managed block between marker comments in an instructions/rules file. */
import { extname } from 'node:path';
import { ConfigConflictError } from './errors.js';
import { changeId, storedChange, type ApplyResult, type Editor, type RevertResult } from './editor.js';
import {
  applyEdits, detectEol, insertLinesEdit, lastContentLineEnd, lineEnd, removeBlockEdit, splitBom,
} from './text.js';
import type { Change, ChangeRecord, CommentStyle, TextBlockChange } from './types.js';

function styleFor(file: string, style?: CommentStyle): CommentStyle {
  if (style) return style;
  const ext = extname(file).toLowerCase();
  if (['.toml', '.yaml', '.yml', '.sh', '.py', '.conf', '.txt', '.env'].includes(ext)) return 'hash';
  if (['.js', '.mjs', '.cjs', '.ts', '.jsonc'].includes(ext)) return 'slash';
  return 'html';
}

export function markers(file: string, id: string, style?: CommentStyle): [string, string] {
  const wrap = { html: (s: string) => `<!-- ${s} -->`, hash: (s: string) => `# ${s}`, slash: (s: string) => `// ${s}` }[styleFor(file, style)];
  return [wrap(`claude-mem:begin ${id}`), wrap(`claude-mem:end ${id}`)];
}

/** Line spans of the block: [start of begin line, end of end line]. */
function locate(body: string, begin: string, end: string, file: string): { start: number; end: number } | undefined {
  const lines = body.split('\n');
  let offset = 0;
  let start = -1;
  for (const raw of lines) {
    const line = raw.replace(/\r$/, '').trim();
    if (line === begin && start < 0) start = offset;
    else if (line === end && start >= 0) return { start, end: lineEnd(body, offset) };
    offset += raw.length + 1;
  }
  if (start >= 0) {
    throw new ConfigConflictError(file, `${file}: "${begin}" has no matching "${end}"`, `Add the line "${end}" after the claude-mem block (or remove the block), then run the command again.`);
  }
  return undefined;
}

function apply(text: string, c: TextBlockChange, file: string): ApplyResult {
  const { bom, body } = splitBom(text);
  const eol = detectEol(body);
  const [begin, end] = markers(file, c.id, c.comment);
  const lines = [begin, ...c.content.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n'), end];
  const record: ChangeRecord = { id: changeId(c), change: storedChange(c), previous: { present: false }, created: [] };
  const at = locate(body, begin, end, file);
  if (at) {
    const old = body.slice(at.start, at.end);
    record.previous = { present: true, value: old };
    const next = lines.join(eol);
    if (old === next) return { text, record, noop: true };
    return { text: bom + applyEdits(body, [{ offset: at.start, length: at.end - at.start, content: next }]), record, noop: false };
  }
  const anchor = lastContentLineEnd(body);
  return { text: bom + applyEdits(body, [insertLinesEdit(body, anchor, anchor === null ? lines : ['', ...lines], eol)]), record, noop: false };
}

function revert(text: string, record: ChangeRecord, file: string): RevertResult {
  const { bom, body } = splitBom(text);
  const c = record.change as TextBlockChange;
  const [begin, end] = markers(file, c.id, c.comment);
  const at = locate(body, begin, end, file);
  if (!at) return { text };
  return { text: bom + applyEdits(body, [removeBlockEdit(body, at.start, at.end)]) };
}

export const blockEditor: Editor = {
  apply(text: string, change: Change, file: string): ApplyResult {
    if (change.kind !== 'text-block') throw new Error(`text editor cannot apply ${change.kind}`);
    return apply(text, change, file);
  },
  revert,
  isEmpty: (text) => splitBom(text).body.trim() === '',
};
