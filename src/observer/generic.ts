/** Any other tool → a `tool` observation with its arguments and result, bounded. */
import type { CaptureEvent } from '../shared/capture-event.js';
import { buildDraft, didFail, durationFact } from './draft.js';
import { readOutput } from './output.js';
import type { ObservationDraft } from './types.js';
import { clip, compactJson, excerpt, relPath } from './text.js';

export function observeGeneric(e: CaptureEvent): ObservationDraft {
  const name = e.toolName || e.rawToolName || 'a tool';
  const out = readOutput(e.toolResponse);
  const failed = didFail(e, out.exitCode, out.failed);
  const args = e.toolInput !== undefined ? compactJson(e.toolInput, 400) : '';
  return buildDraft(e, {
    type: 'tool',
    title: `${failed ? 'Failed' : 'Used'} ${clip(name, 60)}${args && args !== '{}' ? ` (${clip(args, 50)})` : ''}`,
    subtitle: e.rawToolName && e.rawToolName !== e.toolName ? e.rawToolName : null,
    lines: [
      `Tool: ${name}`,
      args && args !== '{}' && `Arguments: ${args}`,
      out.error && `Error: ${clip(out.error, 300)}`,
      out.text && `Result:\n${excerpt(out.text, 600)}`,
    ],
    facts: [out.exitCode !== undefined && `exit code: ${out.exitCode}`, durationFact(out.durationMs), failed && 'failed'],
    concepts: failed ? ['error'] : [],
  });
}

/** A ready-made note (transcript `observation` action, plugins): its title and message as given. */
export function observeNote(e: CaptureEvent): ObservationDraft | null {
  const message = (e.message ?? '').trim();
  const title = (e.title ?? '').trim() || message.split('\n')[0];
  if (!title && !message) return null;
  return buildDraft(e, {
    type: 'note',
    title,
    subtitle: null,
    lines: [message, e.filePath && `File: ${relPath(e.filePath, e.cwd)}`],
    facts: [],
    concepts: ['note'],
  });
}
