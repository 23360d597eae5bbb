/**
 * One-shot import of past transcripts (`claude-mem transcript ingest`). Files are read from
 * their checkpoints, so a second run over the same files stores nothing new.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Env } from '../../shared/paths.js';
import type { MemoryStore } from '../store/types.js';
import type { CompiledSchema } from './engine.js';
import { compileGlob, expandGlob } from './glob.js';
import { DEFAULT_MAX_LINE_BYTES, processFile, type FileMemory } from './processor.js';

export interface IngestSummary {
  files: number;
  bytes: number;
  lines: number;
  stored: number;
  duplicates: number;
  deadLetters: number;
  failed: Array<{ file: string; error: string }>;
}

export interface IngestArgs {
  store: MemoryStore;
  schema: CompiledSchema;
  /** A file path or a glob. */
  pattern: string;
  subagentOnly?: boolean;
  maxLineBytes?: number;
  env?: Env;
  /** Attempts for a transient failure before the file is reported as failed. */
  attempts?: number;
  onFile?: (file: string, summary: { stored: number; duplicates: number; deadLetters: number }) => void;
}

export async function ingestFiles(a: IngestArgs): Promise<IngestSummary> {
  const files = await expandGlob(compileGlob(a.pattern, a.env));
  const sum: IngestSummary = { files: files.length, bytes: 0, lines: 0, stored: 0, duplicates: 0, deadLetters: 0, failed: [] };
  for (const file of files) {
    const mem: FileMemory = {};
    const per = { stored: 0, duplicates: 0, deadLetters: 0 };
    let failures = 0;
    for (;;) {
      const r = await processFile(
        { path: file, watchName: `ingest:${a.schema.name}`, schema: a.schema, subagentOnly: a.subagentOnly, maxLineBytes: a.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES },
        a.store, mem, { timeBudgetMs: 2000, isolate: failures >= 3 },
      );
      sum.bytes += r.bytes;
      sum.lines += r.lines;
      per.stored += r.stored;
      per.duplicates += r.duplicates;
      per.deadLetters += r.deadLetters;
      if (r.status === 'more') continue;
      if (r.status === 'retry') {
        if (++failures >= (a.attempts ?? 6)) { sum.failed.push({ file, error: r.error ?? 'unknown error' }); break; }
        await sleep(50 * 2 ** failures);
        continue;
      }
      break;
    }
    sum.stored += per.stored;
    sum.duplicates += per.duplicates;
    sum.deadLetters += per.deadLetters;
    a.onFile?.(file, per);
  }
  return sum;
}
