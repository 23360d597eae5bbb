/**
 * The transcript watcher (runs inside the worker). It keeps transcript-watch.json in force (an
 * invalid edit is refused and the last valid config stays), finds matching files by polling (and
 * fs.watch where it helps), and reads each file forward with processFile.
 */
import { createHash } from 'node:crypto';
import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Env } from '../../shared/paths.js';
import type { DataPaths } from '../../shared/paths.js';
import type { MemoryStore } from '../store/types.js';
import { parseJsonText, validateConfig } from './config.js';
import { compileSchema, type CompiledSchema } from './engine.js';
import { compileGlob, expandGlob, type CompiledGlob } from './glob.js';
import { DEFAULT_MAX_LINE_BYTES, processFile, type FileMemory } from './processor.js';
import { loadShippedSchemas } from './shipped.js';
import type { TranscriptSchema, TranscriptWatchConfig, WatchConfig, WatcherOptions, WatcherStatus } from './types.js';

export interface TranscriptLog {
  debug?(msg: string, data?: Record<string, unknown>): void;
  info(msg: string, data?: Record<string, unknown>): void;
  warn(msg: string, data?: Record<string, unknown>): void;
  error(msg: string, data?: Record<string, unknown>): void;
}

export interface StartWatcherOptions extends WatcherOptions {
  /** fs.watch speeds things up where it works; polling alone is always correct. Default true. */
  useFsWatch?: boolean;
  /** Time one file may take before others get their turn (ms). */
  timeBudgetMs?: number;
  env?: Env;
  /** Config file to use instead of paths.transcriptWatch (the CLI's --config). */
  configPath?: string;
}

export interface StartWatcherArgs {
  store: MemoryStore;
  paths: Pick<DataPaths, 'transcriptWatch'> & Partial<DataPaths>;
  log: TranscriptLog;
  options?: StartWatcherOptions;
}

export interface TranscriptWatcher {
  stop(): Promise<void>;
  status(): WatcherStatus;
  /** Re-reads transcript-watch.json now (it is also re-read when it changes). */
  reload(): void;
  /** Resolves once a full pass has found nothing left to read (tests, CLI, bench). */
  whenIdle(timeoutMs?: number): Promise<boolean>;
}

const DEFAULTS = { pollIntervalMs: 500, discoveryIntervalMs: 3000, maxLineBytes: DEFAULT_MAX_LINE_BYTES };
/** After this many failures in a row a file is read one line per transaction to find a poison line. */
const ISOLATE_AFTER = 5;
const MAX_BACKOFF_MS = 30_000;
const COLD_AFTER_MS = 10 * 60 * 1000;
const MAX_DIR_WATCHERS = 64;
/** The marker that a watch exists (and since when), kept with the checkpoints. */
export const watchMarkerKey = (name: string) => `watch:${name}`;

interface WatchRt {
  watch: WatchConfig;
  schema: CompiledSchema;
  glob: CompiledGlob;
  key: string;
  created: boolean;
}

interface FileRt {
  path: string;
  watch: string;
  mem: FileMemory;
  startAtEnd: boolean;
  nextAt: number;
  failures: number;
  lastError?: string;
  retryAt?: number;
  offset: number;
  size: number;
  compressed: boolean;
  seen?: { size: number; mtimeMs: number; ino: number };
  atEof: boolean;
}

export function startTranscriptWatcher(args: StartWatcherArgs): TranscriptWatcher {
  const { store, log } = args;
  const opts = args.options ?? {};
  const env = opts.env ?? process.env;
  const configPath = opts.configPath ?? args.paths.transcriptWatch;
  const shipped = loadShippedSchemas();
  if (shipped.errors.length) log.error('shipped transcript schemas do not validate', { errors: shipped.errors });

  let configHash: string | null = null;
  let configError: string | undefined;
  let settings = { ...DEFAULTS, ...stripUndefined(opts) };
  const watches = new Map<string, WatchRt>();
  const files = new Map<string, FileRt>();
  const totals = { bytesRead: 0, lines: 0, eventsStored: 0, duplicates: 0, deadLetters: 0, retries: 0 };
  let lastScanAt: string | undefined;
  let running = true;
  let timer: NodeJS.Timeout | undefined;
  let busy: Promise<void> | null = null;
  let again = false;
  let forceConfig = true;
  let nextDiscovery = 0;
  let kicked = true;
  let idleWaiters: Array<() => void> = [];
  const fsWatchers = new Map<string, FSWatcher>();

  const useFsWatch = opts.useFsWatch !== false;

  function applyConfig(next: TranscriptWatchConfig): void {
    settings = { ...DEFAULTS, ...stripUndefined(next.options ?? {}), ...stripUndefined(opts) };
    const schemas: Record<string, TranscriptSchema> = { ...shipped.schemas, ...(next.schemas ?? {}) };
    const fresh = new Map<string, WatchRt>();
    for (const w of next.watches) {
      if (w.enabled === false) continue;
      const key = JSON.stringify([w.path, w.schema, !!w.startAtEnd, !!w.subagentOnly, next.schemas?.[w.schema] ?? null]);
      const old = watches.get(w.name);
      if (old && old.key === key) { fresh.set(w.name, { ...old, watch: w }); continue; }
      fresh.set(w.name, { watch: w, key, schema: compileSchema(w.schema, schemas[w.schema]), glob: compileGlob(w.path, env), created: false });
    }
    // Files of removed or changed watches are dropped here and found again by discovery.
    for (const [p, f] of files) {
      const owner = fresh.get(f.watch);
      const before = watches.get(f.watch);
      if (!owner || !before || owner.key !== before.key) files.delete(p);
    }
    watches.clear();
    for (const [k, v] of fresh) watches.set(k, v);
    nextDiscovery = 0;
    refreshFsWatchers();
  }

  async function checkConfig(): Promise<void> {
    let text: string;
    try {
      text = await readFile(configPath, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') { log.warn('transcript-watch.json unreadable', { file: configPath, error: (e as Error).message }); return; }
      if (configHash !== 'absent') {
        configHash = 'absent';
        configError = undefined;
        applyConfig({ watches: [] });
      }
      return;
    }
    const hash = createHash('sha1').update(text).digest('hex');
    if (hash === configHash && !forceConfig) return;
    forceConfig = false;
    configHash = hash;
    const parsed = parseJsonText(text);
    const v = parsed.ok ? validateConfig(parsed.value, Object.keys(shipped.schemas)) : { ok: false as const, errors: parsed.errors };
    if (!v.ok) {
      configError = v.errors.join('\n');
      log.error('transcript-watch.json rejected; the last valid configuration stays in force', { file: configPath, errors: v.errors });
      return;
    }
    try {
      applyConfig(v.value);
      configError = undefined;
      log.info('transcript watches loaded', { file: configPath, watches: [...watches.keys()] });
    } catch (e) {
      configError = (e as Error).message;
      log.error('transcript-watch.json could not be applied', { file: configPath, error: configError });
    }
  }

  async function discover(): Promise<void> {
    const claimed = new Set<string>();
    for (const w of watches.values()) {
      let found: string[];
      try { found = await expandGlob(w.glob); } catch (e) { log.warn('transcript glob failed', { watch: w.watch.name, error: (e as Error).message }); continue; }
      found = found.filter((p) => !claimed.has(p));
      found.forEach((p) => claimed.add(p));
      if (!w.created) {
        // First sight of this watch: files that exist now start at their end (if asked), and the
        // watch is marked created only after that, so a crash in between cannot skip them later.
        let marker;
        try { marker = store.getCheckpoint(watchMarkerKey(w.watch.name)); } catch (e) { log.warn('store unavailable', { error: (e as Error).message }); return; }
        const creating = !marker || (marker.context as { path?: unknown })?.path !== w.watch.path;
        for (const p of found) addFile(p, w, creating && !!w.watch.startAtEnd);
        if (creating && w.watch.startAtEnd) {
          for (const p of found) { const f = files.get(p); if (f && f.watch === w.watch.name) await step(f); }
          if (found.some((p) => files.get(p)?.startAtEnd)) continue; // some could not be initialised yet: retry later
        }
        try {
          if (creating) {
            store.ingestWithCheckpoint([], { filePath: watchMarkerKey(w.watch.name), watchName: w.watch.name, offset: 0, inode: null, fingerprint: null, pending: {}, context: { path: w.watch.path, createdAt: new Date().toISOString() } });
          }
          w.created = true;
        } catch (e) { log.warn('store unavailable', { error: (e as Error).message }); }
      } else {
        for (const p of found) addFile(p, w, false);
      }
    }
    lastScanAt = new Date().toISOString();
  }

  function addFile(path: string, w: WatchRt, startAtEnd: boolean): void {
    const existing = files.get(path);
    if (existing) {
      if (existing.watch !== w.watch.name && !watches.has(existing.watch)) existing.watch = w.watch.name;
      return;
    }
    files.set(path, { path, watch: w.watch.name, mem: {}, startAtEnd, nextAt: 0, failures: 0, offset: 0, size: 0, compressed: false, atEof: false });
    if (useFsWatch && process.platform === 'linux') watchDir(dirname(path));
  }

  async function step(f: FileRt): Promise<'more' | 'done'> {
    const w = watches.get(f.watch);
    if (!w) { files.delete(f.path); return 'done'; }
    const now = Date.now();
    let st;
    try { st = await stat(f.path); } catch { files.delete(f.path); return 'done'; }
    const same = f.seen && f.seen.size === st.size && f.seen.mtimeMs === st.mtimeMs && f.seen.ino === st.ino;
    if (same && f.atEof && f.failures === 0) {
      f.nextAt = now + (now - st.mtimeMs > COLD_AFTER_MS ? settings.discoveryIntervalMs : settings.pollIntervalMs);
      return 'done';
    }
    const res = await processFile(
      { path: f.path, watchName: w.watch.name, schema: w.schema, subagentOnly: w.watch.subagentOnly, startAtEnd: f.startAtEnd, maxLineBytes: settings.maxLineBytes },
      store, f.mem, { timeBudgetMs: opts.timeBudgetMs, isolate: f.failures >= ISOLATE_AFTER, log },
    );
    totals.bytesRead += res.bytes;
    totals.lines += res.lines;
    totals.eventsStored += res.stored;
    totals.duplicates += res.duplicates;
    totals.deadLetters += res.deadLetters;
    f.offset = res.offset;
    f.size = res.size;
    f.compressed = res.compressed;
    if (res.status === 'missing') { files.delete(f.path); return 'done'; }
    if (res.status === 'retry') {
      f.failures++;
      totals.retries++;
      const backoff = Math.min(MAX_BACKOFF_MS, 100 * 2 ** Math.min(f.failures, 12));
      f.nextAt = now + backoff;
      f.retryAt = f.nextAt;
      f.lastError = res.error;
      f.atEof = false;
      if (f.failures === 1 || f.failures % 10 === 0) log.warn('transcript file will be retried', { file: f.path, failures: f.failures, error: res.error });
      return 'done';
    }
    f.startAtEnd = false;
    if (f.failures) log.info('transcript file recovered', { file: f.path, after: f.failures });
    f.failures = 0;
    f.lastError = undefined;
    f.retryAt = undefined;
    if (res.reset && res.reset !== 'started at end') log.info('transcript file restarted from 0', { file: f.path, reason: res.reset });
    if (res.status === 'more') { f.nextAt = 0; f.atEof = false; return 'more'; }
    f.atEof = res.offset >= res.size;
    f.seen = { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
    f.nextAt = now + settings.pollIntervalMs;
    return 'done';
  }

  async function pass(): Promise<boolean> {
    const now = Date.now();
    if (forceConfig || kicked || now >= nextDiscovery) await checkConfig();
    if (kicked || now >= nextDiscovery) {
      kicked = false;
      await discover();
      nextDiscovery = Date.now() + settings.discoveryIntervalMs;
    }
    let more = false;
    for (const f of [...files.values()]) {
      if (!running) break;
      if (f.nextAt > Date.now()) continue;
      if ((await step(f)) === 'more') more = true;
    }
    return more;
  }

  function schedule(delay: number): void {
    if (!running) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, Math.max(0, delay));
    timer.unref?.();
  }

  function run(): void {
    timer = undefined;
    if (busy) { again = true; return; }
    busy = (async () => {
      let more = false;
      try { more = await pass(); } catch (e) { log.error('transcript watcher pass failed', { error: (e as Error).message }); }
      busy = null;
      if (!running) return;
      const pendingRetry = [...files.values()].some((f) => f.failures > 0 || f.startAtEnd);
      if (!more && !again && !pendingRetry && !kicked) { const w = idleWaiters; idleWaiters = []; w.forEach((r) => r()); }
      let next = settings.pollIntervalMs;
      for (const f of files.values()) next = Math.min(next, Math.max(0, f.nextAt - Date.now()));
      next = Math.min(next, Math.max(0, nextDiscovery - Date.now()));
      schedule(more || again ? 0 : next);
      again = false;
    })();
  }

  /** Re-discover (new files, config) and make every file due. */
  function kick(): void {
    kicked = true;
    for (const f of files.values()) if (f.failures === 0) f.nextAt = 0;
    schedule(5);
  }

  /** An fs.watch event: a known file that changed is read at once; anything else triggers discovery. */
  function onFsEvent(dir: string, eventType: string, filename: string | Buffer | null): void {
    const f = filename ? files.get(join(dir, String(filename))) : undefined;
    if (eventType === 'change' && f) {
      if (f.failures === 0) f.nextAt = 0;
      schedule(2);
    } else {
      kick();
    }
  }

  function watchDir(dir: string, recursive = false): void {
    if (!useFsWatch || fsWatchers.has(dir) || fsWatchers.size >= MAX_DIR_WATCHERS) return;
    try {
      const w = fsWatch(dir, { persistent: false, recursive }, (type, name) => onFsEvent(dir, type, name));
      w.on('error', () => { w.close(); fsWatchers.delete(dir); });
      fsWatchers.set(dir, w);
    } catch { /* not supported here or the directory is missing: polling covers it */ }
  }

  function refreshFsWatchers(): void {
    if (!useFsWatch) return;
    for (const w of fsWatchers.values()) w.close();
    fsWatchers.clear();
    watchDir(dirname(configPath));
    const recursive = process.platform === 'darwin' || process.platform === 'win32';
    for (const w of watches.values()) watchDir(w.glob.literal ? dirname(w.glob.base) : w.glob.base, recursive);
    if (process.platform === 'linux') for (const f of files.values()) watchDir(dirname(f.path));
  }

  schedule(0);

  return {
    async stop() {
      running = false;
      if (timer) clearTimeout(timer);
      for (const w of fsWatchers.values()) w.close();
      fsWatchers.clear();
      if (busy) await busy;
      const w = idleWaiters; idleWaiters = []; w.forEach((r) => r());
    },
    reload() {
      forceConfig = true;
      kick();
    },
    whenIdle(timeoutMs = 30_000) {
      return new Promise<boolean>((resolve) => {
        const t = setTimeout(() => resolve(false), timeoutMs);
        idleWaiters.push(() => { clearTimeout(t); resolve(true); });
        kick();
      });
    },
    status(): WatcherStatus {
      const count = new Map<string, number>();
      for (const f of files.values()) count.set(f.watch, (count.get(f.watch) ?? 0) + 1);
      return {
        running,
        configPath,
        configError,
        watches: [...watches.values()].map((w) => ({
          name: w.watch.name, schema: w.watch.schema, path: w.watch.path, files: count.get(w.watch.name) ?? 0,
          subagentOnly: !!w.watch.subagentOnly, startAtEnd: !!w.watch.startAtEnd,
        })),
        files: [...files.values()].map((f) => ({
          path: f.path, watch: f.watch, offset: f.offset, size: f.size, compressed: f.compressed,
          ...(f.lastError ? { lastError: f.lastError } : {}),
          ...(f.retryAt ? { retryAt: new Date(f.retryAt).toISOString() } : {}),
        })),
        totals: { ...totals },
        lastScanAt,
      };
    },
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
