/**
 * `claude-mem export`: memory as JSON lines or Markdown, on stdout or into a new file (written
 * beside it and renamed when complete, so a half-written export never takes its name). Reads the
 * database through a read-only connection of its own, worker running or not: a reader never holds
 * up the worker's writes, and the export is one consistent snapshot. Lines are written as they are
 * read, waiting whenever the output is behind, so memory stays flat at any size.
 */
import { createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { dataPaths } from '../../shared/paths.js';
import type { ExportFilter } from '../../store/types.js';
import { CliError, eprintln, setExit } from '../output.js';
import { withStore } from './memory-access.js';

export interface ExportOptions extends ExportFilter {
  format: 'jsonl' | 'markdown';
  output?: string;
  force: boolean;
}

const CHUNK_CHARS = 256 * 1024;

/** Writes every line to `out`, in chunks, honouring backpressure. Returns the lines and bytes written. */
export async function writeLines(lines: Iterable<string>, out: Writable): Promise<{ lines: number; bytes: number }> {
  let buf = '';
  let n = 0;
  let bytes = 0;
  const flush = async () => {
    bytes += Buffer.byteLength(buf);
    const ok = out.write(buf);
    buf = '';
    if (!ok) await once(out, 'drain');
  };
  for (const line of lines) {
    buf += line + '\n';
    n++;
    if (buf.length >= CHUNK_CHARS) await flush();
  }
  if (buf) await flush();
  return { lines: n, bytes };
}

export async function runExport(o: ExportOptions): Promise<void> {
  const paths = dataPaths();
  if (o.output && existsSync(o.output) && !o.force) {
    throw new CliError(`${o.output} already exists; choose another name, or add --force to replace it`);
  }
  const done = await withStore(paths, { readonly: true }, async (store) => {
    const lines = store.exportLines({ project: o.project, host: o.host, since: o.since }, o.format);
    if (!o.output) return writeLines(lines, process.stdout);
    const temp = `${o.output}.${process.pid}.tmp`;
    const out = createWriteStream(temp, { mode: 0o600 });
    try {
      const r = await writeLines(lines, out);
      out.end();
      await once(out, 'finish');
      renameSync(temp, o.output);
      return r;
    } catch (err) {
      out.destroy();
      rmSync(temp, { force: true });
      throw err;
    }
  });
  if (!done) throw new CliError(`there is no memory to export yet (${paths.db} does not exist)`);
  if (o.output) eprintln(`Exported ${done.lines} lines (${(done.bytes / 1024 / 1024).toFixed(1)} MB) to ${o.output}.`);
  setExit(0);
}
