/**
 * Reads one transcript file forward from its checkpoint. Each batch of lines becomes events that
 * are stored in the same transaction as the new checkpoint (offset, pending tool calls, session
 * context): if the store throws, nothing advances and the same lines are read again later.
 * Lines that can never be accepted are dead-lettered and the file moves on.
 */
import { open } from 'node:fs/promises';
import type { ByteSource as FileHandle } from './byte-source.js';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { CaptureEvent } from '../shared/capture-event.js';
import type { IngestRejection, MemoryStore, TranscriptCheckpoint } from '../store/types.js';
import { fileInfo, type CompiledSchema, type FileState } from './engine.js';
import { fingerprint } from './fingerprint.js';
import { DEAD_LETTER_RAW_BYTES, readLines, type LineItem, type SkipState } from './line-reader.js';
import { isZstdMagic, readZstdFrames } from './zstd-reader.js';

export const DEFAULT_MAX_LINE_BYTES = 8 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
// One transaction's worth of lines. The worker's event loop waits while a batch is evaluated and
// committed: 1 MiB keeps that under ~0.15 s here (4 MiB: up to ~0.27 s) at the same throughput.
const BATCH_BYTES = 1024 * 1024;

export interface FileTask {
  path: string;
  watchName: string;
  schema: CompiledSchema;
  subagentOnly?: boolean;
  /** Used only when the file has no checkpoint yet: begin at its end (after learning its session). */
  startAtEnd?: boolean;
  maxLineBytes?: number;
  /** Opens the log (default: the file at `path`); history readers hand in a made line stream. */
  open?: () => Promise<FileHandle>;
  /**
   * Where this reader's position is kept (default: `path`). A history import keeps its own, so
   * a watch that started at the file's end does not make the import skip the file's past.
   */
  checkpointKey?: string;
}

/** What the caller keeps about a file between calls (never needed for correctness). */
export interface FileMemory {
  inode?: number;
  compressed?: boolean;
  skip?: SkipState | null;
  /** Dead letters already written at `offset:index`, so a retried batch does not write them twice. */
  lettered?: Set<string>;
}

export interface ProcessOutcome {
  status: 'idle' | 'more' | 'retry' | 'missing';
  offset: number;
  size: number;
  compressed: boolean;
  bytes: number;
  lines: number;
  stored: number;
  duplicates: number;
  deadLetters: number;
  reset?: string;
  error?: string;
}

interface ProcessOptions {
  /** Return 'more' after this long so other files get their turn. */
  timeBudgetMs?: number;
  /** One line per transaction; a line the store keeps failing on while it is healthy is dead-lettered. */
  isolate?: boolean;
  /** Bytes of lines per transaction (default 1 MiB). */
  batchBytes?: number;
  log?: { warn(msg: string, data?: Record<string, unknown>): void; info?(msg: string, data?: Record<string, unknown>): void };
}

interface Letter { item: LineItem; index: number; reason: string; raw: string }

const clone = (s: FileState): FileState => JSON.parse(JSON.stringify(s)) as FileState;
const bounded = (s: string) => (s.length > DEAD_LETTER_RAW_BYTES ? s.slice(0, DEAD_LETTER_RAW_BYTES) : s);

function freshState(fileAt: string): FileState {
  return { context: { fileAt }, pending: {} };
}

type FileStat = Awaited<ReturnType<FileHandle['stat']>>;

/** What one call works with; the steps below share it instead of a long list of arguments. */
interface Run {
  task: FileTask;
  store: MemoryStore;
  mem: FileMemory;
  opts: ProcessOptions;
  out: ProcessOutcome;
  fh: FileHandle;
  st: FileStat;
  info: ReturnType<typeof fileInfo>;
  maxLineBytes: number;
  batchBytes: number;
}

/** Where reading goes on from, or the outcome to return right away. */
type Start = { state: FileState; offset: number } | { done: ProcessOutcome };

interface Batch { items: LineItem[]; next: number }

interface Evaluated {
  events: CaptureEvent[];
  origins: Array<{ item: LineItem; index: number; raw: string }>;
  letters: Letter[];
}

const storeRetry = (out: ProcessOutcome, e: unknown): ProcessOutcome => ({ ...out, status: 'retry', error: `store: ${(e as Error).message}` });

export async function processFile(task: FileTask, store: MemoryStore, mem: FileMemory, opts: ProcessOptions = {}): Promise<ProcessOutcome> {
  const out: ProcessOutcome = { status: 'idle', offset: 0, size: 0, compressed: false, bytes: 0, lines: 0, stored: 0, duplicates: 0, deadLetters: 0 };
  let fh: FileHandle;
  let st: FileStat;
  try {
    fh = task.open ? await task.open() : await open(task.path, 'r');
    st = await fh.stat();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { ...out, status: 'missing' };
    return { ...out, status: 'retry', error: (e as Error).message };
  }
  const deadline = Date.now() + (opts.timeBudgetMs ?? 250);
  const run: Run = {
    task, store, mem, opts, out, fh, st,
    info: fileInfo(task.path),
    maxLineBytes: task.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES,
    batchBytes: opts.isolate ? 1 : opts.batchBytes ?? BATCH_BYTES,
  };
  try {
    if (mem.inode !== st.ino) { mem.inode = st.ino; mem.compressed = undefined; mem.skip = null; mem.lettered = new Set(); }
    mem.lettered ??= new Set();
    const start = await resolveStart(run);
    if ('done' in start) return start.done;
    let { state, offset } = start;
    let size = st.size;
    await detectCompression(run, size);

    for (;;) {
      out.offset = offset;
      out.size = size;
      if (offset >= size) {
        const again = await fh.stat();
        if (again.size <= size) return out;
        size = again.size;
        continue;
      }
      if (mem.compressed === undefined) return out; // too few bytes to tell the format
      const batch = await readBatch(run, offset, size);
      if (!batch.items.length || batch.next <= offset) return out; // a partial line or frame: wait for the rest

      const working = clone(state);
      const failed = await storeBatch(run, batch, evaluateBatch(run, batch.items, working), offset, state, working);
      if (failed) return failed;
      state = working;
      offset = batch.next;
      out.offset = offset;
      mem.lettered!.clear();
      if (opts.isolate) return { ...out, status: offset < size ? 'more' : 'idle' };
      if (Date.now() > deadline) return { ...out, status: 'more' };
      await yieldToLoop();
    }
  } catch (e) {
    return { ...out, status: 'retry', error: (e as Error).message };
  } finally {
    await fh.close().catch(() => undefined);
  }
}

/** The state and offset to read on from: a fresh file, its checkpoint, or 0 when the file changed under it. */
async function resolveStart(run: Run): Promise<Start> {
  const { task, store, mem, opts, out, fh, st } = run;
  let cp: TranscriptCheckpoint | undefined;
  try { cp = store.getCheckpoint(task.checkpointKey ?? task.path); } catch (e) { return { done: storeRetry(out, e) }; }

  const fileAt = new Date(st.birthtimeMs > 0 ? st.birthtimeMs : st.mtimeMs).toISOString();
  if (!cp) {
    const state = freshState(fileAt);
    if (!(task.startAtEnd && st.size > 0)) return { state, offset: 0 };
    const init = await startAtEnd(fh, st.size, task, run.info, state, mem, run.maxLineBytes);
    if (!init) return { done: { ...out, size: st.size } }; // nothing complete to learn from yet
    const c = checkpoint(task, st.ino, init, await fingerprint(fh, init), state);
    try { store.ingestWithCheckpoint([], c); } catch (e) { return { done: storeRetry(out, e) }; }
    out.reset = 'started at end';
    return { state, offset: init };
  }
  const reason =
    cp.inode != null && cp.inode !== st.ino ? 'replaced (new inode)'
    : st.size < cp.offset ? 'truncated'
    : cp.offset > 0 && cp.fingerprint && (await fingerprint(fh, cp.offset)) !== cp.fingerprint ? 'rewritten (bytes before the offset changed)'
    : undefined;
  if (!reason) return { state: { context: { ...(cp.context ?? {}) }, pending: { ...(cp.pending ?? {}) } } as FileState, offset: cp.offset };
  // Read again from 0: idempotency keys keep what was already stored from being stored twice.
  const keepAt = typeof cp.context?.fileAt === 'string' ? (cp.context.fileAt as string) : fileAt;
  const state = freshState(keepAt);
  mem.skip = null;
  mem.lettered = new Set();
  out.reset = reason;
  opts.log?.info?.('transcript file restarted from 0', { file: task.path, reason });
  try { store.ingestWithCheckpoint([], checkpoint(task, st.ino, 0, null, state)); } catch (e) { return { done: storeRetry(out, e) }; }
  return { state, offset: 0 };
}

/** Plain JSONL or zstd frames, told by the first four bytes (once per inode). */
async function detectCompression(run: Run, size: number): Promise<void> {
  const { mem, fh, out } = run;
  if (mem.compressed === undefined && size > 0) {
    const head = Buffer.alloc(4);
    const { bytesRead } = await fh.read(head, 0, 4, 0);
    if (bytesRead >= 4) mem.compressed = isZstdMagic(head);
    else if (head.subarray(0, bytesRead).includes(10)) mem.compressed = false;
  }
  out.compressed = mem.compressed === true;
}

/** The next batch of lines; in isolate mode cut after the first complete one. */
async function readBatch(run: Run, offset: number, size: number): Promise<Batch> {
  const { mem, fh, batchBytes, maxLineBytes } = run;
  const read = mem.compressed
    ? { ...(await readZstdFrames(fh, offset, size, { budgetBytes: batchBytes, maxLineBytes })), skip: null }
    : await readLines(fh, offset, size, { chunkBytes: Math.min(CHUNK_BYTES, Math.max(4096, batchBytes)), budgetBytes: batchBytes, maxLineBytes, skip: mem.skip });
  mem.skip = read.skip;
  let items = read.items;
  let next = read.next;
  if (run.opts.isolate) {
    const cut = items.findIndex((i) => i.end !== null);
    if (cut >= 0) { items = items.slice(0, cut + 1); next = items[cut].end as number; }
  }
  return { items, next };
}

/** Lines to events (advancing `working`), and the lines that can never be accepted as dead letters. */
function evaluateBatch(run: Run, items: LineItem[], working: FileState): Evaluated {
  const { task, out, info, maxLineBytes } = run;
  const got: Evaluated = { events: [], origins: [], letters: [] };
  items.forEach((item, index) => {
    const letter = (reason: string, raw: string) => { got.letters.push({ item, index, reason, raw }); };
    if (item.oversize) return letter(`line of ${item.oversize.bytes} bytes exceeds the ${maxLineBytes}-byte limit`, item.oversize.head);
    if (item.corrupt) return letter(item.corrupt.reason, item.corrupt.head);
    const text = item.text;
    if (text === undefined || text.trim() === '') return;
    out.lines++;
    let record: unknown;
    try { record = JSON.parse(text); } catch (e) {
      return letter(`unparseable JSON: ${(e as Error).message}`, bounded(text));
    }
    if (!record || typeof record !== 'object' || Array.isArray(record)) return letter('line is not a JSON object', bounded(text));
    let result;
    try { result = task.schema.evaluate(record, working, info, { subagentOnly: task.subagentOnly }); } catch (e) {
      return letter(`schema evaluation failed: ${(e as Error).message}`, bounded(text));
    }
    if (result.error) return letter(`invalid for schema ${task.schema.name}: ${result.error}`, bounded(text));
    for (const ev of result.events) { got.events.push(ev); got.origins.push({ item, index, raw: text }); }
  });
  return got;
}

/**
 * Stores a batch's events, dead letters and new checkpoint together; returns the outcome to give
 * back when the batch could not be stored (nothing advanced), or null when it was.
 */
async function storeBatch(run: Run, batch: Batch, got: Evaluated, offset: number, state: FileState, working: FileState): Promise<ProcessOutcome | null> {
  const { task, store, mem, opts, out, fh, st } = run;
  const { items, next } = batch;
  const c = checkpoint(task, st.ino, next, await fingerprint(fh, next), working);
  try {
    writeLetters(store, task, got.letters, mem, offset);
  } catch (e) {
    return storeRetry(out, e);
  }
  let result;
  try {
    result = store.ingestWithCheckpoint(got.events, c);
  } catch (e) {
    if (!opts.isolate) return storeRetry(out, e);
    // A healthy store that fails on one record only: that record can never be stored.
    try { store.ingestWithCheckpoint([], checkpoint(task, st.ino, offset, await fingerprint(fh, offset), state)); } catch {
      return storeRetry(out, e);
    }
    try {
      writeLetters(store, task, items.map((item, index) => ({ item, index, reason: `the store fails on this record: ${(e as Error).message}`, raw: bounded(item.text ?? '') })), mem, offset);
      result = store.ingestWithCheckpoint([], c);
    } catch (e2) {
      return storeRetry(out, e2);
    }
    out.deadLetters += items.length;
  }
  out.deadLetters += got.letters.length;
  out.stored += result.stored;
  out.duplicates += result.duplicates;
  letterRejected(run, result.rejected, got.origins, offset);
  out.bytes += next - offset;
  return null;
}

/** Events the store refused one by one: kept as dead letters so the file still moves on. */
function letterRejected(run: Run, rejected: IngestRejection[], origins: Evaluated['origins'], offset: number): void {
  const { task, store, opts, out } = run;
  for (const r of rejected) {
    const o = origins[r.index];
    try {
      store.addDeadLetter({ source: 'transcript', filePath: task.path, offset: o?.item.start ?? offset, reason: `rejected by the store (${r.code}): ${r.reason}`, raw: bounded(o?.raw ?? '') });
      out.deadLetters++;
    } catch (e) {
      opts.log?.warn('dead letter not written', { file: task.path, offset: o?.item.start, error: (e as Error).message });
    }
  }
}

function checkpoint(task: FileTask, inode: number, offset: number, fp: string | null, state: FileState): TranscriptCheckpoint {
  return { filePath: task.checkpointKey ?? task.path, watchName: task.watchName, offset, inode, fingerprint: fp, pending: state.pending as Record<string, unknown>, context: state.context };
}

function writeLetters(store: MemoryStore, task: FileTask, letters: Letter[], mem: FileMemory, batchOffset: number): void {
  for (const l of letters) {
    const key = `${batchOffset}:${l.index}`;
    if (mem.lettered?.has(key)) continue;
    store.addDeadLetter({ source: 'transcript', filePath: task.path, offset: l.item.start, reason: l.reason, raw: l.raw });
    mem.lettered?.add(key);
  }
}

/**
 * A file that existed when its watch was created: learn the session from its first record
 * (context only, nothing stored) and begin after its last complete line or frame.
 */
async function startAtEnd(
  fh: FileHandle, size: number, task: FileTask, info: ReturnType<typeof fileInfo>, state: FileState, mem: FileMemory, maxLineBytes: number,
): Promise<number | null> {
  const head = Buffer.alloc(4);
  const { bytesRead } = await fh.read(head, 0, 4, 0);
  const compressed = bytesRead >= 4 && isZstdMagic(head);
  mem.compressed = bytesRead >= 4 ? compressed : mem.compressed;
  const learn = (item: LineItem | undefined) => {
    if (!item?.text) return;
    try {
      const record = JSON.parse(item.text) as unknown;
      if (record && typeof record === 'object') task.schema.evaluate(record, state, info, { subagentOnly: task.subagentOnly, contextOnly: true });
    } catch { /* an unreadable first line teaches nothing */ }
  };
  if (compressed) {
    let offset = 0;
    let first = true;
    for (;;) {
      const r = await readZstdFrames(fh, offset, size, { budgetBytes: BATCH_BYTES, maxLineBytes });
      if (first) { learn(r.items[0]); first = false; }
      if (r.next <= offset) break;
      offset = r.next;
    }
    return offset > 0 ? offset : null;
  }
  const firstLine = await readLines(fh, 0, size, { chunkBytes: 64 * 1024, budgetBytes: 1, maxLineBytes, skip: null });
  learn(firstLine.items[0]);
  // The end of the last complete line, found by reading backwards.
  const block = Buffer.allocUnsafe(64 * 1024);
  let end = size;
  while (end > 0) {
    const from = Math.max(0, end - block.length);
    const { bytesRead: n } = await fh.read(block, 0, end - from, from);
    const nl = block.subarray(0, n).lastIndexOf(10);
    if (nl >= 0) return from + nl + 1;
    end = from;
  }
  return null;
}
