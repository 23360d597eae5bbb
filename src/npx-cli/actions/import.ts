/**
 * `claude-mem import <file>`: reads an export line by line and stores it in chunks, through the
 * worker when it runs, else into the database directly. Nothing already here is added again.
 */
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { dataPaths } from '../../shared/paths.js';
import { checkHeader, emptyCounts } from '../../store/import.js';
import type { ImportResult } from '../../store/types.js';
import { CliError, printJson, println, setExit } from '../output.js';
import { asUsage, runningWorker, withStore, workerPost, type RunningWorker } from './memory-access.js';
import type { SqliteStore } from '../../store/sqlite-store.js';

const CHUNK_RECORDS = 2000;
const CHUNK_BYTES = 4 * 1024 * 1024;

/** The records of an export, a chunk at a time; the header is checked first. */
async function* chunks(file: string): AsyncGenerator<unknown[]> {
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  let chunk: unknown[] = [];
  let bytes = 0;
  let n = 0;
  for await (const line of lines) {
    n++;
    if (!line.trim()) continue;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch (err) {
      throw new CliError(`${file}, line ${n}: not JSON (${(err as Error).message}); nothing after line ${n - 1} was imported`);
    }
    if (n === 1) {
      try {
        checkHeader(rec);
      } catch (err) {
        throw new CliError(`${file}: ${(err as Error).message}`);
      }
    }
    chunk.push(rec);
    bytes += line.length;
    if (chunk.length >= CHUNK_RECORDS || bytes >= CHUNK_BYTES) {
      yield chunk;
      chunk = [];
      bytes = 0;
    }
  }
  if (n === 0) throw new CliError(`${file} is empty: not an export written by claude-mem`);
  if (chunk.length) yield chunk;
}

function add(total: ImportResult, r: ImportResult): void {
  for (const k of Object.keys(total.added) as (keyof ImportResult['added'])[]) total.added[k] += r.added[k];
  total.skipped += r.skipped;
  total.unknown += r.unknown;
}

export async function importFile(file: string, into: { worker?: RunningWorker; store?: SqliteStore }): Promise<ImportResult> {
  const total: ImportResult = { added: emptyCounts(), skipped: 0, unknown: 0 };
  for await (const records of chunks(file)) {
    try {
      add(total, into.worker ? await workerPost<ImportResult>(into.worker, '/api/import', { records }) : into.store!.importRecords(records));
    } catch (err) {
      asUsage(err);
    }
  }
  return total;
}

export async function runImport(file: string, o: { json: boolean }): Promise<void> {
  if (!existsSync(file)) throw new CliError(`${file} does not exist`);
  const paths = dataPaths();
  const worker = await runningWorker(paths);
  const result = worker ? await importFile(file, { worker }) : (await withStore(paths, { readonly: false, create: true }, (store) => importFile(file, { store })))!;
  if (o.json) {
    printJson({ ok: true, via: worker ? 'worker' : 'database', ...result });
    return setExit(0);
  }
  const a = result.added;
  const parts = Object.entries(a).filter(([, n]) => n > 0).map(([k, n]) => `${n} ${k}`);
  println(parts.length ? `Imported ${parts.join(', ')}.` : 'Nothing new: everything in the file is already here (or was forgotten).');
  if (result.skipped) println(`${result.skipped} records were already here or forgotten, and were left out.`);
  if (result.unknown) println(`${result.unknown} records of a kind this claude-mem does not know were left out (a newer export?).`);
  setExit(0);
}
