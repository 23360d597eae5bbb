/**
 * Transcript watcher benchmarks:
 * - throughput of a generated ~50 MB Codex-like log through schema evaluation and ingest (MB/s);
 * - append → row latency (p95) with the watcher running (fs.watch + polling, as in the worker);
 * - the cost of a one-line append to a 1 GB file (sparse) against the same append to a small file.
 */
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeSync, ftruncateSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { INDEXED_SOURCES, indexInsertSql } from '../src/store/search-layout.js';
import { configureConnection, openStore } from '../src/store/sqlite-store.js';
import type { CaptureEvent } from '../src/shared/capture-event.js';
import type { MemoryStore, TranscriptCheckpoint } from '../src/store/types.js';
import { compileSchema } from '../src/transcripts/engine.js';
import { processFile, type FileMemory } from '../src/transcripts/processor.js';
import { loadShippedSchemas } from '../src/transcripts/shipped.js';
import { startTranscriptWatcher } from '../src/transcripts/watcher.js';

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = 'the a build test fix parser store module worker index schema file line event config error value return function async await import export type interface const let'.split(' ');

export interface CodexLogOptions { sessionId: string; turns: number; seed?: number; cwd?: string; subagentOf?: string; start?: number }

/** Records shaped like a real Codex rollout: big session_meta, turns with reasoning, tool calls, outputs, token counts. */
export function* codexRecords(o: CodexLogOptions): Generator<Record<string, unknown>> {
  const r = rng(o.seed ?? 1);
  const words = (n: number) => Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
  const cwd = o.cwd ?? '/home/dev/projects/demo';
  let t = o.start ?? Date.UTC(2026, 10, 30, 10, 0, 0);
  const ts = () => new Date((t += 1 + Math.floor(r() * 400))).toISOString();
  const source = o.subagentOf ? { subagent: { thread_spawn: { parent_thread_id: o.subagentOf, depth: 1, agent_path: null, agent_nickname: 'Euler', agent_role: null } } } : 'cli';
  yield { timestamp: ts(), type: 'session_meta', payload: { id: o.sessionId, timestamp: ts(), cwd, originator: 'codex_cli_rs', cli_version: '0.171.0', source, base_instructions: { text: words(3000) }, git: { branch: 'main' } } };
  for (let turn = 0; turn < o.turns; turn++) {
    const turnId = `${o.sessionId}-turn-${turn}`;
    yield { timestamp: ts(), type: 'event_msg', payload: { type: 'task_started', turn_id: turnId, model_context_window: 258400 } };
    yield { timestamp: ts(), type: 'turn_context', payload: { turn_id: turnId, cwd, approval_policy: 'on-request', model: 'gpt-5-codex', sandbox_policy: { type: 'workspace-write' } } };
    if (turn === 0) yield { timestamp: ts(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `# AGENTS.md instructions for ${cwd}\n\n<INSTRUCTIONS>\n${words(200)}\n</INSTRUCTIONS>` }, { type: 'input_text', text: `<environment_context>\n  <cwd>${cwd}</cwd>\n</environment_context>` }] } };
    yield { timestamp: ts(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `${words(12 + Math.floor(r() * 40))} (turn ${turn})` }], internal_chat_message_metadata_passthrough: { turn_id: turnId } } };
    const calls = 1 + Math.floor(r() * 5);
    for (let c = 0; c < calls; c++) {
      const callId = `call_${o.sessionId}_${turn}_${c}`;
      yield { timestamp: ts(), type: 'response_item', payload: { type: 'reasoning', summary: [{ type: 'summary_text', text: words(30) }], encrypted_content: Buffer.from(words(300)).toString('base64') } };
      yield { timestamp: ts(), type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: `rg -n "${WORDS[c]}" src`, workdir: cwd }), call_id: callId } };
      yield { timestamp: ts(), type: 'response_item', payload: { type: 'function_call_output', call_id: callId, output: `Process exited with code 0\nOutput:\n${Array.from({ length: 10 + Math.floor(r() * 60) }, (_, i) => `src/file${i}.ts:${i}: ${words(8)}`).join('\n')}` } };
      yield { timestamp: ts(), type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { input_tokens: turn * 1000 + c, output_tokens: 50 }, last_token_usage: { input_tokens: 10, output_tokens: 5 }, model_context_window: 258400 }, rate_limits: { primary: null, secondary: null } } };
    }
    yield { timestamp: ts(), type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: words(40 + Math.floor(r() * 80)) }] } };
    yield { timestamp: ts(), type: 'event_msg', payload: { type: 'task_complete', turn_id: turnId } };
  }
}

export function codexLog(o: CodexLogOptions): string {
  let s = '';
  for (const rec of codexRecords(o)) s += JSON.stringify(rec) + '\n';
  return s;
}

const codexSchema = () => compileSchema('codex', loadShippedSchemas().schemas.codex);

async function drainFile(store: MemoryStore, path: string, mem: FileMemory = {}, startAtEnd = false): Promise<void> {
  for (;;) {
    const r = await processFile({ path, watchName: 'bench', schema: codexSchema(), startAtEnd }, store, mem, { timeBudgetMs: 60_000 });
    if (r.status === 'retry') throw new Error(r.error);
    if (r.status !== 'more') return;
  }
}

const p95 = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]; };
const median = (xs: number[]) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A store that keeps checkpoints and counts events: isolates reading + schema evaluation. */
export function nullStore(): MemoryStore & { events: number } {
  const cps = new Map<string, TranscriptCheckpoint>();
  const s = {
    events: 0,
    getCheckpoint: (p: string) => cps.get(p),
    ingestWithCheckpoint: (ev: CaptureEvent[], cp: TranscriptCheckpoint) => { s.events += ev.length; cps.set(cp.filePath, cp); return { stored: ev.length, duplicates: 0, rejected: [] }; },
    ingest: () => ({ stored: 0, duplicates: 0, rejected: [] }),
    addDeadLetter: () => 0,
  };
  return s as unknown as MemoryStore & { events: number };
}

async function throughput(root: string, targetMb: number): Promise<{ mbPerSec: number; evalMbPerSec: number; dbOnlyMbPerSec: number; events: number; mb: number; longestPauseMs: number }> {
  const dir = join(root, 'throughput');
  mkdirSync(dir, { recursive: true });
  const files: string[] = [];
  let bytes = 0;
  for (let i = 0; bytes < targetMb * 1024 * 1024; i++) {
    const text = codexLog({ sessionId: `bench-${i}`, turns: 120, seed: i + 1 });
    const f = join(dir, `rollout-${i}.jsonl`);
    appendFileSync(f, text);
    files.push(f);
    bytes += Buffer.byteLength(text);
  }
  const mb = bytes / 1024 / 1024;
  // Reading and evaluation alone, twice: the second pass runs on warm (optimised) code.
  let evalMbPerSec = 0;
  let events = 0;
  for (let pass = 0; pass < 2; pass++) {
    const nul = nullStore();
    const t = performance.now();
    for (const f of files) await drainFile(nul, f);
    evalMbPerSec = mb / ((performance.now() - t) / 1000);
    events = nul.events;
  }
  const dbPath = join(root, 'throughput.db');
  const store = openStore(dbPath);
  // The longest the event loop waits meanwhile: what a hook request may wait for the worker.
  let last = performance.now();
  let longestPauseMs = 0;
  const tick = setInterval(() => { const now = performance.now(); longestPauseMs = Math.max(longestPauseMs, now - last); last = now; }, 1);
  const t0 = performance.now();
  for (const f of files) await drainFile(store, f);
  clearInterval(tick);
  store.close();
  const secs = (performance.now() - t0) / 1000;
  const dbOnlySecs = databaseOnly(dbPath, join(root, 'rows-only.db'), files.length);
  return { mbPerSec: mb / secs, evalMbPerSec, dbOnlyMbPerSec: mb / dbOnlySecs, events, mb, longestPauseMs };
}

/**
 * The database's own share, as a same-run baseline: the rows the ingest wrote, inserted again
 * into an empty database of the same schema and settings by plain prepared INSERTs (no parsing,
 * privacy or observation), in as many transactions, then indexed for search and closed.
 * Returns seconds.
 */
function databaseOnly(from: string, to: string, transactions: number): number {
  openStore(to).close(); // the same schema
  const src = new Database(from, { readonly: true });
  const db = new Database(to);
  configureConnection(db, to);
  const rowsOf = (table: string) => {
    const stmt = src.prepare(`SELECT * FROM ${table} ORDER BY rowid`);
    const cols = stmt.columns().map((c) => c.name);
    return { rows: stmt.raw().all() as unknown[][], insert: db.prepare(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`) };
  };
  const sessions = rowsOf('sessions');
  db.transaction(() => sessions.rows.forEach((r) => sessions.insert.run(...r)))();
  const tables = ['events', 'prompts', 'observations', 'assistant_messages', 'summaries', 'transcript_files'].map(rowsOf);
  src.close();
  const t0 = performance.now();
  for (let b = 0; b < transactions; b++) {
    db.transaction(() => {
      for (const t of tables) {
        const per = Math.ceil(t.rows.length / transactions);
        for (const r of t.rows.slice(b * per, (b + 1) * per)) t.insert.run(...r);
      }
    }).immediate();
  }
  db.exec(INDEXED_SOURCES.map((source) => `${indexInsertSql(source, '1')};`).join('\n'));
  db.close();
  return (performance.now() - t0) / 1000;
}

async function appendLatency(root: string, samples: number): Promise<number> {
  const dir = join(root, 'latency', 'sessions');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'rollout-live.jsonl');
  appendFileSync(file, codexLog({ sessionId: 'live', turns: 2 }));
  const dataDir = join(root, 'latency-data');
  mkdirSync(dataDir, { recursive: true });
  const configPath = join(dataDir, 'transcript-watch.json');
  appendFileSync(configPath, JSON.stringify({ watches: [{ name: 'codex', path: join(root, 'latency', 'sessions', '**', '*.jsonl'), schema: 'codex' }] }));
  const base = openStore(join(dataDir, 'claude-mem.db'));
  const committed = new Map<string, number>();
  const store: MemoryStore = Object.assign(Object.create(base) as MemoryStore, {
    ingestWithCheckpoint(events: Parameters<MemoryStore['ingestWithCheckpoint']>[0], cp: Parameters<MemoryStore['ingestWithCheckpoint']>[1]) {
      const r = base.ingestWithCheckpoint(events, cp);
      const now = performance.now();
      for (const e of events) if (e.kind === 'prompt' && e.promptId) committed.set(e.promptId, now);
      return r;
    },
  });
  const watcher = startTranscriptWatcher({ store, paths: { transcriptWatch: configPath }, log: { info() {}, warn() {}, error() {} }, options: { pollIntervalMs: 200, discoveryIntervalMs: 1000 } });
  await watcher.whenIdle(60_000);
  const lat: number[] = [];
  for (let i = 0; i < samples; i++) {
    const id = `live-append-${i}`;
    const line = JSON.stringify({ timestamp: new Date().toISOString(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `appended prompt ${i}` }], internal_chat_message_metadata_passthrough: { turn_id: id } } }) + '\n';
    const t0 = performance.now();
    appendFileSync(file, line);
    while (!committed.has(id)) {
      if (performance.now() - t0 > 10_000) throw new Error('append was not picked up within 10 s');
      await sleep(1);
    }
    lat.push(committed.get(id)! - t0);
    await sleep(20 + (i % 5) * 7);
  }
  await watcher.stop();
  base.close();
  return p95(lat);
}

/**
 * Median time for processFile to take in one appended line, checkpoint at the old end: a 1 GB
 * file (sparse) against a small one, appended to in turn so both see the same warm code.
 */
async function appendCosts(root: string, samples: number): Promise<{ big: number; small: number }> {
  const setup = async (name: string, size: number) => {
    const file = join(root, `${name}.jsonl`);
    const head = codexLog({ sessionId: name, turns: 1 });
    const fd = openSync(file, 'w');
    writeSync(fd, head);
    // A sparse hole up to `size`, closed by a newline: a gigabyte that costs nothing to create.
    if (size > head.length + 1) { ftruncateSync(fd, size - 1); writeSync(fd, '\n', size - 1); }
    closeSync(fd);
    const store = openStore(join(root, `${name}.db`));
    const mem: FileMemory = {};
    await drainFile(store, file, mem, true);
    if (statSync(file).size < size) throw new Error('sparse file too small');
    return { name, file, store, mem, times: [] as number[] };
  };
  const files = [await setup('big', 1024 ** 3), await setup('small', 0)];
  for (let i = -3; i < samples; i++) {
    for (const f of files) {
      appendFileSync(f.file, JSON.stringify({ timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, 0, i + 3)).toISOString(), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `append ${i}` }], internal_chat_message_metadata_passthrough: { turn_id: `${f.name}-${i}` } } }) + '\n');
      const t0 = performance.now();
      await drainFile(f.store, f.file, f.mem);
      if (i >= 0) f.times.push(performance.now() - t0); // the first rounds warm up
    }
  }
  files.forEach((f) => f.store.close());
  return { big: median(files[0].times), small: median(files[1].times) };
}

export async function benchTranscripts(opts: { targetMb?: number; latencySamples?: number } = {}): Promise<{
  /** MB/s of JSONL through reading, schema evaluation and ingest into the SQLite store. */
  mbPerSec: number;
  appendToRowP95Ms: number;
  bigFileAppendMs: number;
  smallFileAppendMs: number;
  /** The same without the store (reading + evaluation only, warm), and what the log holds. */
  evalOnlyMbPerSec: number;
  /** The stored rows alone, inserted and indexed by plain SQL: the database's own share. */
  dbOnlyMbPerSec: number;
  /** The longest the event loop was held during the end-to-end run. */
  longestPauseMs: number;
  eventsPerMb: number;
  storeUsPerEvent: number;
}> {
  const root = mkdtempSync(join(tmpdir(), 'cm-bench-transcripts-'));
  try {
    const tp = await throughput(root, opts.targetMb ?? 50);
    const appendToRowP95Ms = await appendLatency(root, opts.latencySamples ?? 60);
    const costs = await appendCosts(root, 30);
    const round = (n: number, d = 10) => Math.round(n * d) / d;
    return {
      mbPerSec: round(tp.mbPerSec),
      appendToRowP95Ms: Math.round(appendToRowP95Ms * 10) / 10,
      bigFileAppendMs: Math.round(costs.big * 100) / 100,
      smallFileAppendMs: Math.round(costs.small * 100) / 100,
      evalOnlyMbPerSec: round(tp.evalMbPerSec),
      dbOnlyMbPerSec: round(tp.dbOnlyMbPerSec),
      longestPauseMs: Math.round(tp.longestPauseMs),
      eventsPerMb: round(tp.events / tp.mb),
      storeUsPerEvent: round(((tp.mb / tp.mbPerSec - tp.mb / tp.evalMbPerSec) * 1e6) / tp.events),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
