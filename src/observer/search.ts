/** Grep, Glob and LS → `search` observations: the pattern, where, how many hits, which files. */
import type { CaptureEvent } from '../shared/capture-event.js';
import { buildDraft, didFail } from './draft.js';
import { readOutput } from './output.js';
import type { ObservationDraft } from './types.js';
import { asRecord, clip, excerpt, inputRecord, listInline, pickNumber, pickString, plural, relPath, uniqueBounded } from './text.js';

interface Hits {
  files: string[];
  fileCount?: number;
  matchCount?: number;
  text: string;
}

/** Files and counts from Claude's `{filenames, numFiles, numMatches}` or from plain text listings. */
function readHits(e: CaptureEvent, grep: boolean): Hits {
  const resp = asRecord(e.toolResponse);
  const out = readOutput(e.toolResponse);
  const names = Array.isArray(resp?.filenames) ? resp.filenames.filter((x): x is string => typeof x === 'string') : undefined;
  const hits: Hits = {
    files: names ?? [],
    fileCount: pickNumber(resp, 'numFiles', 'num_files', 'fileCount'),
    matchCount: pickNumber(resp, 'numMatches', 'num_matches', 'matchCount', 'totalMatches'),
    text: typeof resp?.content === 'string' ? resp.content : out.text,
  };
  if (hits.fileCount === undefined && names) hits.fileCount = names.length;
  // Gemini: "Found 3 matches for pattern …"; other hosts: "Found 12 files".
  const found = /Found (\d+) (match|matches|file|files)\b/i.exec(hits.text.slice(0, 500));
  if (found) {
    if (/^match/i.test(found[2])) hits.matchCount ??= Number(found[1]);
    else hits.fileCount ??= Number(found[1]);
  }
  if (!names && hits.text && !found) {
    const lines = hits.text.split('\n').map((l) => l.trim()).filter((l) => l && !/^(?:No (?:files|matches) found|\(no )/i.test(l));
    if (grep) {
      // `path:line:text` or `path:text` per hit.
      const paths = lines.map((l) => /^([^:\s][^:]*?):\d+[:-]/.exec(l)?.[1]).filter((p): p is string => !!p);
      if (paths.length) {
        hits.files = uniqueBounded(paths, 1000);
        hits.matchCount ??= lines.length;
      } else if (lines.every((l) => !/\s{2,}|:\s/.test(l))) {
        hits.files = lines; // files_with_matches style listing
      }
    } else {
      hits.files = lines;
    }
  }
  hits.fileCount ??= hits.files.length || undefined;
  return hits;
}

function countText(h: Hits): string {
  if (h.matchCount !== undefined && h.fileCount) return `${plural(h.matchCount, 'match', 'matches')} in ${plural(h.fileCount, 'file')}`;
  if (h.matchCount !== undefined) return plural(h.matchCount, 'match', 'matches');
  if (h.fileCount !== undefined) return plural(h.fileCount, 'file');
  return 'no hits';
}

export function observeSearch(e: CaptureEvent): ObservationDraft {
  const tool = e.toolName ?? '';
  const input = inputRecord(e.toolInput);
  const grep = tool === 'Grep';
  const list = tool === 'LS';
  const pattern = pickString(input, 'pattern', 'query', 'regex', 'glob_pattern', 'search', 'q', 'name') ?? '';
  const where = pickString(input, 'path', 'dir_path', 'directory', 'cwd', 'target_directory', 'relative_workspace_path');
  const filter = pickString(input, 'glob', 'include', 'include_pattern', 'type', 'file_pattern');
  const out = readOutput(e.toolResponse);
  const failed = didFail(e, undefined, out.failed);
  const hits = readHits(e, grep);
  const rel = (p: string): string => relPath(p, e.cwd);
  const whereText = where ? ` in ${rel(where)}` : '';
  const files = hits.files.map(rel);

  let title: string;
  if (list) title = `Listed ${where ? rel(where) : 'the working directory'} (${plural(hits.fileCount ?? files.length, 'entry', 'entries')})`;
  else if (grep) title = `Searched for "${clip(pattern, 60)}"${whereText} (${countText(hits)})`;
  else title = `Found ${plural(hits.fileCount ?? files.length, 'file')} matching ${clip(pattern, 60)}${whereText}`;
  if (failed) title = `${list ? 'Listing' : 'Search'} failed: ${clip(pattern || where || tool, 60)}`;

  return buildDraft(e, {
    type: 'search',
    title,
    subtitle: filter ? `filter: ${filter}` : null,
    lines: [
      pattern && `${grep ? 'Pattern' : 'Glob'}: ${clip(pattern, 300)}`,
      where && `Path: ${rel(where)}`,
      filter && `Filter: ${clip(filter, 100)}`,
      !failed && `Result: ${countText(hits)}.`,
      files.length > 0 && `Files: ${listInline(files, 20, Math.max(files.length, hits.fileCount ?? 0))}`,
      grep && hits.text && !hits.files.length && `Matches:\n${excerpt(hits.text, 400)}`,
      failed && `Failed: ${clip(out.error ?? out.text, 300)}`,
    ],
    facts: [
      hits.matchCount !== undefined && `matches: ${hits.matchCount}`,
      hits.fileCount !== undefined && `files: ${hits.fileCount}`,
      ...files.slice(0, 5).map((f) => `found: ${f}`),
      failed && 'failed',
    ],
    concepts: ['search', ...(failed ? ['error'] : [])],
  });
}
