/** Patch text → files touched and line counts: Codex `*** Begin Patch` envelopes and unified diffs. */

type PatchOp = 'add' | 'update' | 'delete';

export interface PatchFile {
  path: string;
  op: PatchOp;
  movedTo?: string;
  added: number;
  removed: number;
}

const CODEX_HEADER = /^\*\*\* (Add|Update|Delete) File: (.+)$/;
const CODEX_MOVE = /^\*\*\* Move to: (.+)$/;

/** Parses a patch; unknown lines are ignored, so a partial patch still yields what it names. */
export function parsePatch(text: string): PatchFile[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const files: PatchFile[] = [];
  let cur: PatchFile | undefined;
  let inHunk = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const codex = CODEX_HEADER.exec(line);
    if (codex) {
      cur = { path: codex[2].trim(), op: codex[1].toLowerCase() as PatchOp, added: 0, removed: 0 };
      files.push(cur);
      inHunk = true; // Codex bodies need no @@ line (an added file is all `+` lines)
      continue;
    }
    const move = CODEX_MOVE.exec(line);
    if (move && cur) {
      cur.movedTo = move[1].trim();
      continue;
    }
    if (line.startsWith('*** ')) {
      if (line.startsWith('*** End Patch') || line.startsWith('*** Begin Patch')) inHunk = false;
      continue;
    }
    // Unified diff: "--- a/x" then "+++ b/x".
    if (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ')) {
      const from = diffPath(line.slice(4));
      const to = diffPath(lines[i + 1].slice(4));
      const op: PatchOp = from === null ? 'add' : to === null ? 'delete' : 'update';
      cur = { path: (to ?? from ?? '').trim(), op, added: 0, removed: 0 };
      if (from && to && from !== to) {
        cur.path = from;
        cur.movedTo = to;
      }
      files.push(cur);
      inHunk = false;
      i++;
      continue;
    }
    if (line.startsWith('diff --git ')) {
      inHunk = false;
      continue;
    }
    if (line.startsWith('@@')) {
      inHunk = true;
      continue;
    }
    if (!cur || !inHunk) continue;
    if (line.startsWith('+')) cur.added++;
    else if (line.startsWith('-')) cur.removed++;
  }
  return mergeSamePath(files.filter((f) => f.path));
}

/** `a/src/x.ts` → `src/x.ts`; `/dev/null` → null; a trailing tab and timestamp are dropped. */
function diffPath(raw: string): string | null {
  const p = raw.split('\t')[0].trim().replace(/^"(.*)"$/, '$1');
  if (p === '/dev/null') return null;
  return p.replace(/^[ab]\//, '');
}

function mergeSamePath(files: PatchFile[]): PatchFile[] {
  const byPath = new Map<string, PatchFile>();
  for (const f of files) {
    const prev = byPath.get(f.path);
    if (!prev) byPath.set(f.path, { ...f });
    else {
      prev.added += f.added;
      prev.removed += f.removed;
      if (f.movedTo) prev.movedTo = f.movedTo;
    }
  }
  return [...byPath.values()];
}

/** Looks like a patch we can read. */
export function isPatchText(s: string): boolean {
  return s.includes('*** Begin Patch') || /^(?:\*\*\* (?:Add|Update|Delete) File: |diff --git |--- \S)/m.test(s);
}

/** Finds the patch text in the input shapes hosts use: a string, `{input}`, `{patch}`, argv. */
export function patchFromInput(input: unknown): string {
  if (typeof input === 'string') return input;
  if (Array.isArray(input)) {
    const s = input.find((x): x is string => typeof x === 'string' && isPatchText(x));
    return s ?? '';
  }
  if (input && typeof input === 'object') {
    const o = input as Record<string, unknown>;
    for (const k of ['input', 'patch', 'content', 'diff', 'command', 'cmd', 'arguments']) {
      const found = patchFromInput(o[k]);
      if (found && isPatchText(found)) return found;
    }
  }
  return '';
}

/** Line counts between two texts: what differs once the common head and tail are set aside. */
export function lineDelta(oldText = '', newText = ''): { added: number; removed: number } {
  const a = oldText === '' ? [] : oldText.split('\n');
  const b = newText === '' ? [] : newText.split('\n');
  let s = 0;
  while (s < a.length && s < b.length && a[s] === b[s]) s++;
  let ea = a.length;
  let eb = b.length;
  while (ea > s && eb > s && a[ea - 1] === b[eb - 1]) {
    ea--;
    eb--;
  }
  return { added: eb - s, removed: ea - s };
}

/** Counts from Claude Code's `structuredPatch` hunks (`lines` prefixed with +, - or space). */
export function structuredPatchDelta(v: unknown): { added: number; removed: number } | undefined {
  if (!Array.isArray(v)) return undefined;
  let added = 0;
  let removed = 0;
  for (const hunk of v) {
    const lines = (hunk as { lines?: unknown })?.lines;
    if (!Array.isArray(lines)) continue;
    for (const l of lines) {
      if (typeof l !== 'string') continue;
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
    }
  }
  return { added, removed };
}
