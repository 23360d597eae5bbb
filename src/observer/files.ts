/** File tools: Read → `read`; Edit, Write, NotebookEdit, ApplyPatch and file_edit events → `edit`. */
import type { CaptureEvent, FileEdit } from '../shared/capture-event.js';
import { fileConcepts } from './concepts.js';
import { buildDraft, didFail } from './draft.js';
import { readOutput } from './output.js';
import { lineDelta, parsePatch, patchFromInput, structuredPatchDelta, type PatchFile } from './patch.js';
import type { ObservationDraft } from './types.js';
import { asNumber, asRecord, asString, clip, excerpt, inputRecord, listInline, pickNumber, pickString, plural, relPath } from './text.js';

const PATH_KEYS = ['file_path', 'filePath', 'path', 'absolute_path', 'notebook_path', 'target_file', 'file', 'filename', 'uri'];

function filePathOf(e: CaptureEvent, input: Record<string, unknown>): string {
  const resp = asRecord(e.toolResponse);
  return (
    pickString(input, ...PATH_KEYS) ??
    e.filePath ??
    pickString(resp, 'filePath', 'file_path') ??
    pickString(asRecord(resp?.file), 'filePath') ??
    ''
  );
}

function failedSuffix(failed: boolean): string {
  return failed ? ' (failed)' : '';
}

function delta(added: number, removed: number): string {
  return `+${added} \u2212${removed}`;
}

export function observeRead(e: CaptureEvent): ObservationDraft {
  const input = inputRecord(e.toolInput);
  const path = filePathOf(e, input);
  const rel = path ? relPath(path, e.cwd) : 'a file';
  const out = readOutput(e.toolResponse);
  const failed = didFail(e, undefined, out.failed);
  const file = asRecord(asRecord(e.toolResponse)?.file);

  let start = pickNumber(input, 'offset', 'start_line', 'startLine', 'line_start', 'start_line_one_indexed', 'line');
  let end = pickNumber(input, 'end_line', 'endLine', 'line_end', 'end_line_one_indexed_inclusive');
  const limit = pickNumber(input, 'limit', 'max_lines', 'lines');
  const range = Array.isArray(input.view_range) ? input.view_range.map(asNumber) : [];
  if (range[0] !== undefined) [start, end] = [range[0], range[1] !== undefined && range[1] >= 0 ? range[1] : undefined];
  if (start !== undefined && end === undefined && limit !== undefined) end = start + limit - 1;
  const total = pickNumber(file, 'totalLines');
  const numLines = pickNumber(file, 'numLines');
  if (start === undefined && file && numLines !== undefined && total !== undefined && numLines < total) {
    start = pickNumber(file, 'startLine') ?? 1;
    end = start + numLines - 1;
  }
  const rangeText =
    start !== undefined && end !== undefined ? `lines ${start}\u2013${end}` : start !== undefined ? `from line ${start}` : '';
  const content = asString(file?.content) ?? out.text;
  const many = Array.isArray(input.paths) ? input.paths.filter((x): x is string => typeof x === 'string') : [];
  if (!path && many.length) return readMany(e, many, failed);

  return buildDraft(e, {
    type: 'read',
    title: `${failed ? 'Failed to read' : 'Read'} ${rel}${rangeText ? ` (${rangeText})` : ''}`,
    subtitle: null,
    lines: [
      `Read ${rel}${rangeText ? `, ${rangeText}` : ''}${total !== undefined ? ` of ${total}` : ''}.`,
      failed && (out.error ? `Failed: ${clip(out.error, 300)}` : 'Failed.'),
      content && !failed && `Content:\n${excerpt(content, 400)}`,
    ],
    facts: [total !== undefined && `total lines: ${total}`, numLines !== undefined && `lines read: ${numLines}`, failed && 'failed'],
    filesRead: path && !failed ? [path] : [],
    concepts: [...(path ? fileConcepts(path) : []), ...(failed ? ['error'] : [])],
  });
}

/** Gemini `read_many_files`: several paths in one call. */
function readMany(e: CaptureEvent, paths: string[], failed: boolean): ObservationDraft {
  const rels = paths.map((p) => relPath(p, e.cwd));
  return buildDraft(e, {
    type: 'read',
    title: `${failed ? 'Failed to read' : 'Read'} ${plural(paths.length, 'file')}: ${listInline(rels, 3)}`,
    lines: [`Read ${listInline(rels, 30)}.`, failed && 'Failed.'],
    facts: [`files: ${paths.length}`, failed && 'failed'],
    filesRead: failed ? [] : paths,
    concepts: paths.slice(0, 20).flatMap(fileConcepts),
  });
}

/** The (old, new) pairs of an edit, whatever the host called them. */
function editPairs(e: CaptureEvent, input: Record<string, unknown>): FileEdit[] {
  const pair = (o: Record<string, unknown>): FileEdit | undefined => {
    const oldText = pickStr(o, 'old_string', 'old_str', 'oldText', 'old_text', 'oldString', 'search');
    const newText = pickStr(o, 'new_string', 'new_str', 'newText', 'new_text', 'newString', 'replace', 'new_source', 'code_edit');
    return oldText !== undefined || newText !== undefined ? { oldText, newText } : undefined;
  };
  const out: FileEdit[] = [];
  const top = pair(input);
  if (top) out.push(top);
  if (Array.isArray(input.edits)) {
    for (const ed of input.edits) {
      const p = asRecord(ed) && pair(asRecord(ed) as Record<string, unknown>);
      if (p) out.push(p);
    }
  }
  if (out.length === 0 && Array.isArray(e.edits)) out.push(...e.edits.filter((x) => x && typeof x === 'object'));
  return out;
}

// Present-but-empty strings count: an edit that deletes text has new_string "".
function pickStr(o: Record<string, unknown>, ...keys: string[]): string | undefined {
  for (const k of keys) if (typeof o[k] === 'string') return o[k] as string;
  return undefined;
}

/** A few lines of the change, old then new, for the narrative. */
function changeExcerpt(edits: FileEdit[], max = 600): string {
  const parts: string[] = [];
  for (const ed of edits.slice(0, 3)) {
    if (ed.oldText) parts.push(prefixLines(ed.oldText, '- '));
    if (ed.newText) parts.push(prefixLines(ed.newText, '+ '));
  }
  return excerpt(parts.join('\n'), max);
}

function prefixLines(s: string, p: string): string {
  return s
    .split('\n')
    .slice(0, 12)
    .map((l) => p + l)
    .join('\n');
}

export function observeEdit(e: CaptureEvent): ObservationDraft {
  const input = inputRecord(e.toolInput);
  const path = filePathOf(e, input);
  const rel = path ? relPath(path, e.cwd) : 'a file';
  const resp = asRecord(e.toolResponse);
  const out = readOutput(e.toolResponse);
  const failed = didFail(e, undefined, out.failed);
  const edits = editPairs(e, input);
  const replaceAll = input.replace_all === true || input.replaceAll === true;
  let counts = structuredPatchDelta(resp?.structuredPatch);
  if (!counts) {
    counts = { added: 0, removed: 0 };
    for (const ed of edits) {
      const d = lineDelta(ed.oldText ?? '', ed.newText ?? '');
      counts.added += d.added;
      counts.removed += d.removed;
    }
  }
  const cell = pickString(input, 'cell_id', 'cellId');
  const mode = pickString(input, 'edit_mode', 'editMode');
  const isNotebook = e.toolName === 'NotebookEdit' || 'notebook_path' in input;
  const detail = isNotebook && (cell || mode) ? [cell && `cell ${cell}`, mode].filter(Boolean).join(', ') : delta(counts.added, counts.removed);

  return buildDraft(e, {
    type: 'edit',
    title: `${failed ? 'Failed to edit' : 'Edited'} ${rel} (${detail})`,
    subtitle: edits.length > 1 ? plural(edits.length, 'edit') : null,
    lines: [
      `Edited ${rel}: ${delta(counts.added, counts.removed)} lines${edits.length > 1 ? ` in ${plural(edits.length, 'edit')}` : ''}.`,
      replaceAll && 'Replaced every occurrence.',
      failed && (out.error ? `Failed: ${clip(out.error, 300)}` : 'Failed.'),
      edits.length > 0 && `Change:\n${changeExcerpt(edits)}`,
    ],
    facts: [
      `lines added: ${counts.added}`,
      `lines removed: ${counts.removed}`,
      edits.length > 1 && `edits: ${edits.length}`,
      replaceAll && 'replace all',
      failed && 'failed',
    ],
    filesModified: path && !failed ? [path] : [],
    concepts: [...(path ? fileConcepts(path) : []), ...(failed ? ['error'] : [])],
  });
}

export function observeWrite(e: CaptureEvent): ObservationDraft {
  const input = inputRecord(e.toolInput);
  const path = filePathOf(e, input);
  const rel = path ? relPath(path, e.cwd) : 'a file';
  const resp = asRecord(e.toolResponse);
  const out = readOutput(e.toolResponse);
  const failed = didFail(e, undefined, out.failed);
  const content = pickStr(input, 'content', 'file_text', 'contents', 'text', 'code') ?? '';
  const lineCount = content === '' ? 0 : content.replace(/\n$/, '').split('\n').length;
  const created = resp?.type === 'create';
  const patch = structuredPatchDelta(resp?.structuredPatch);
  const counts = patch && (patch.added || patch.removed) ? patch : { added: lineCount, removed: 0 };
  const verb = failed ? 'Failed to write' : created ? 'Created' : 'Wrote';

  return buildDraft(e, {
    type: 'edit',
    title: `${verb} ${rel} (${counts.removed ? delta(counts.added, counts.removed) : `+${counts.added}`})`,
    subtitle: null,
    lines: [
      `${created ? 'Created' : 'Wrote'} ${rel}: ${plural(lineCount, 'line')}, ${content.length} chars.`,
      failed && (out.error ? `Failed: ${clip(out.error, 300)}` : 'Failed.'),
      content && `Content:\n${excerpt(content, 400)}`,
    ],
    facts: [`lines: ${lineCount}`, created && 'new file', failed && 'failed'],
    filesModified: path && !failed ? [path] : [],
    concepts: [...(path ? fileConcepts(path) : []), ...(failed ? ['error'] : [])],
  });
}

const OP_VERB: Record<PatchFile['op'], string> = { add: 'added', update: 'updated', delete: 'deleted' };

export function observePatch(e: CaptureEvent): ObservationDraft {
  const files = parsePatch(patchFromInput(e.toolInput));
  const out = readOutput(e.toolResponse);
  const failed = didFail(e, out.exitCode, out.failed);
  const added = files.reduce((n, f) => n + f.added, 0);
  const removed = files.reduce((n, f) => n + f.removed, 0);
  const rel = (p: string): string => relPath(p, e.cwd);
  const verb = failed ? 'Failed to patch' : 'Edited';
  const title =
    files.length === 1
      ? `${verb} ${rel(files[0].path)} (${delta(added, removed)})`
      : files.length > 1
        ? `${failed ? 'Failed to patch' : 'Patched'} ${files.length} files (${delta(added, removed)})`
        : `${failed ? 'Failed to apply' : 'Applied'} a patch`;
  const touched = files.flatMap((f) => (f.movedTo ? [f.path, f.movedTo] : [f.path]));

  return buildDraft(e, {
    type: 'edit',
    title,
    subtitle: files.length > 1 ? listInline(files.map((f) => rel(f.path)), 3) : null,
    lines: [
      ...files.slice(0, 20).map(
        (f) => `${OP_VERB[f.op]} ${rel(f.path)}${f.movedTo ? ` \u2192 ${rel(f.movedTo)}` : ''} (${delta(f.added, f.removed)})`,
      ),
      files.length > 20 && `\u2026 and ${files.length - 20} more files`,
      failed && `Failed${out.text ? `: ${clip(out.error ?? out.text, 300)}` : '.'}`,
    ],
    facts: [
      `files: ${files.length}`,
      `lines added: ${added}`,
      `lines removed: ${removed}`,
      files.some((f) => f.op === 'add') && `new files: ${files.filter((f) => f.op === 'add').length}`,
      files.some((f) => f.op === 'delete') && `deleted files: ${files.filter((f) => f.op === 'delete').length}`,
      failed && 'failed',
    ],
    filesModified: failed ? [] : touched,
    concepts: [...files.flatMap((f) => fileConcepts(f.path)), ...(failed ? ['error'] : [])],
  });
}
