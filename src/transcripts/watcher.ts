/**
 * The transcript watcher (runs inside the worker). It keeps transcript-watch.json in force (an
 * invalid edit is refused and the last valid config stays), finds matching files by polling (and
 * fs.watch where it helps), and reads each file forward with processFile.
 */
import { createHash } from 'node:crypto';
import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Env } from '../shared/paths.js';
import type { DataPaths } from '../shared/paths.js';
import type { MemoryStore } from '../store/types.js';
import { parseJsonText, validateConfig } from './config.js';
import { compileSchema, type CompiledSchema } from './engine.js';
import { compileGlob, expandGlob, type CompiledGlob } from './glob.js';
import { DEFAULT_MAX_LINE_BYTES, processFile, type FileMemory, type ProcessOutcome } from './processor.js';
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
  const w = new WatcherRuntime(args);
  w.schedule(0);
  return {
    stop: () => w.stop(),
    reload: () => w.reload(),
    whenIdle: (timeoutMs = 30_000) => w.whenIdle(timeoutMs),
    status: () => w.status(),
  };
}

/** What the watcher counts over its life (shown by status). */
type Totals = WatcherStatus['totals'];

/**
 * The watcher's state and its steps: config in force, the files found, the poll loop and the
 * fs.watch handles. One instance per started watcher.
 */
class WatcherRuntime {
  private readonly store: MemoryStore;
  private readonly log: TranscriptLog;
  private readonly opts: StartWatcherOptions;
  private readonly env: Env;
  private readonly configPath: string;
  private readonly shipped: ReturnType<typeof loadShippedSchemas>;
  private readonly useFsWatch: boolean;

  private configHash: string | null = null;
  private configError: string | undefined;
  private settings: typeof DEFAULTS;
  private readonly watches = new Map<string, WatchRt>();
  private readonly files = new Map<string, FileRt>();
  private readonly totals: Totals = { bytesRead: 0, lines: 0, eventsStored: 0, duplicates: 0, deadLetters: 0, retries: 0 };
  private lastScanAt: string | undefined;
  private running = true;
  private timer: NodeJS.Timeout | undefined;
  private busy: Promise<void> | null = null;
  /** A pass was asked for while one was running: run another at once. */
  private again = false;
  private forceConfig = true;
  private nextDiscovery = 0;
  private kicked = true;
  private idleWaiters: Array<() => void> = [];
  private readonly fsWatchers = new Map<string, FSWatcher>();

  constructor(args: StartWatcherArgs) {
    this.store = args.store;
    this.log = args.log;
    this.opts = args.options ?? {};
    this.env = this.opts.env ?? process.env;
    this.configPath = this.opts.configPath ?? args.paths.transcriptWatch;
    this.shipped = loadShippedSchemas();
    if (this.shipped.errors.length) this.log.error('shipped transcript schemas do not validate', { errors: this.shipped.errors });
    this.settings = { ...DEFAULTS, ...stripUndefined(this.opts) } as typeof DEFAULTS;
    this.useFsWatch = this.opts.useFsWatch !== false;
  }

  private applyConfig(next: TranscriptWatchConfig): void {
    const { watches, files } = this;
    this.settings = { ...DEFAULTS, ...stripUndefined(next.options ?? {}), ...stripUndefined(this.opts) } as typeof DEFAULTS;
    const schemas: Record<string, TranscriptSchema> = { ...this.shipped.schemas, ...(next.schemas ?? {}) };
    const fresh = new Map<string, WatchRt>();
    for (const w of next.watches) {
      if (w.enabled === false) continue;
      const key = JSON.stringify([w.path, w.schema, !!w.startAtEnd, !!w.subagentOnly, next.schemas?.[w.schema] ?? null]);
      const old = watches.get(w.name);
      if (old && old.key === key) { fresh.set(w.name, { ...old, watch: w }); continue; }
      fresh.set(w.name, { watch: w, key, schema: compileSchema(w.schema, schemas[w.schema]), glob: compileGlob(w.path, this.env), created: false });
    }
    // Files of removed or changed watches are dropped here and found again by discovery.
    for (const [p, f] of files) {
      const owner = fresh.get(f.watch);
      const before = watches.get(f.watch);
      if (!owner || !before || owner.key !== before.key) files.delete(p);
    }
    watches.clear();
    for (const [k, v] of fresh) watches.set(k, v);
    this.nextDiscovery = 0;
    this.refreshFsWatchers();
  }

  private async checkConfig(): Promise<void> {
    const { log, configPath } = this;
    let text: string;
    try {
      text = await readFile(configPath, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') { log.warn('transcript-watch.json unreadable', { file: configPath, error: (e as Error).message }); return; }
      if (this.configHash !== 'absent') {
        this.configHash = 'absent';
        this.configError = undefined;
        this.applyConfig({ watches: [] });
      }
      return;
    }
    const hash = createHash('sha1').update(text).digest('hex');
    if (hash === this.configHash && !this.forceConfig) return;
    this.forceConfig = false;
    this.configHash = hash;
    const parsed = parseJsonText(text);
    const v = parsed.ok ? validateConfig(parsed.value, Object.keys(this.shipped.schemas)) : { ok: false as const, errors: parsed.errors };
    if (!v.ok) {
      this.configError = v.errors.join('\n');
      log.error('transcript-watch.json rejected; the last valid configuration stays in force', { file: configPath, errors: v.errors });
      return;
    }
    try {
      this.applyConfig(v.value);
      this.configError = undefined;
      log.info('transcript watches loaded', { file: configPath, watches: [...this.watches.keys()] });
    } catch (e) {
      this.configError = (e as Error).message;
      log.error('transcript-watch.json could not be applied', { file: configPath, error: this.configError });
    }
  }

  private async discover(): Promise<void> {
    const claimed = new Set<string>();
    for (const w of this.watches.values()) {
      let found: string[];
      try { found = await expandGlob(w.glob); } catch (e) { this.log.warn('transcript glob failed', { watch: w.watch.name, error: (e as Error).message }); continue; }
      found = found.filter((p) => !claimed.has(p));
      found.forEach((p) => claimed.add(p));
      if (w.created) {
        for (const p of found) this.addFile(p, w, false);
      } else if ((await this.createWatch(w, found)) === 'store down') {
        return;
      }
    }
    this.lastScanAt = new Date().toISOString();
  }

  /**
   * First sight of a watch: files that exist now start at their end (if asked), and the watch is
   * marked created only after that, so a crash in between cannot skip them later.
   */
  private async createWatch(w: WatchRt, found: string[]): Promise<'store down' | 'later' | 'created'> {
    const { store, log, files } = this;
    let marker;
    try { marker = store.getCheckpoint(watchMarkerKey(w.watch.name)); } catch (e) { log.warn('store unavailable', { error: (e as Error).message }); return 'store down'; }
    const creating = !marker || (marker.context as { path?: unknown })?.path !== w.watch.path;
    for (const p of found) this.addFile(p, w, creating && !!w.watch.startAtEnd);
    if (creating && w.watch.startAtEnd) {
      for (const p of found) { const f = files.get(p); if (f && f.watch === w.watch.name) await this.step(f); }
      if (found.some((p) => files.get(p)?.startAtEnd)) return 'later'; // some could not be initialised yet: retry later
    }
    try {
      if (creating) {
        store.ingestWithCheckpoint([], { filePath: watchMarkerKey(w.watch.name), watchName: w.watch.name, offset: 0, inode: null, fingerprint: null, pending: {}, context: { path: w.watch.path, createdAt: new Date().toISOString() } });
      }
      w.created = true;
    } catch (e) { log.warn('store unavailable', { error: (e as Error).message }); }
    return 'created';
  }

  private addFile(path: string, w: WatchRt, startAtEnd: boolean): void {
    const existing = this.files.get(path);
    if (existing) {
      if (existing.watch !== w.watch.name && !this.watches.has(existing.watch)) existing.watch = w.watch.name;
      return;
    }
    this.files.set(path, { path, watch: w.watch.name, mem: {}, startAtEnd, nextAt: 0, failures: 0, offset: 0, size: 0, compressed: false, atEof: false });
    if (this.useFsWatch && process.platform === 'linux') this.watchDir(dirname(path));
  }

  private async step(f: FileRt): Promise<'more' | 'done'> {
    const { files, settings } = this;
    const w = this.watches.get(f.watch);
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
      this.store, f.mem, { timeBudgetMs: this.opts.timeBudgetMs, isolate: f.failures >= ISOLATE_AFTER, log: this.log },
    );
    this.count(f, res);
    if (res.status === 'missing') { files.delete(f.path); return 'done'; }
    if (res.status === 'retry') { this.backOff(f, res, now); return 'done'; }
    f.startAtEnd = false;
    if (f.failures) this.log.info('transcript file recovered', { file: f.path, after: f.failures });
    f.failures = 0;
    f.lastError = undefined;
    f.retryAt = undefined;
    if (res.reset && res.reset !== 'started at end') this.log.info('transcript file restarted from 0', { file: f.path, reason: res.reset });
    if (res.status === 'more') { f.nextAt = 0; f.atEof = false; return 'more'; }
    f.atEof = res.offset >= res.size;
    f.seen = { size: st.size, mtimeMs: st.mtimeMs, ino: st.ino };
    f.nextAt = now + settings.pollIntervalMs;
    return 'done';
  }

  private count(f: FileRt, res: ProcessOutcome): void {
    const totals = this.totals;
    totals.bytesRead += res.bytes;
    totals.lines += res.lines;
    totals.eventsStored += res.stored;
    totals.duplicates += res.duplicates;
    totals.deadLetters += res.deadLetters;
    f.offset = res.offset;
    f.size = res.size;
    f.compressed = res.compressed;
  }

  /** A failed read is retried later, waiting longer after each failure in a row. */
  private backOff(f: FileRt, res: ProcessOutcome, now: number): void {
    f.failures++;
    this.totals.retries++;
    const backoff = Math.min(MAX_BACKOFF_MS, 100 * 2 ** Math.min(f.failures, 12));
    f.nextAt = now + backoff;
    f.retryAt = f.nextAt;
    f.lastError = res.error;
    f.atEof = false;
    if (f.failures === 1 || f.failures % 10 === 0) this.log.warn('transcript file will be retried', { file: f.path, failures: f.failures, error: res.error });
  }

  private async pass(): Promise<boolean> {
    const now = Date.now();
    if (this.forceConfig || this.kicked || now >= this.nextDiscovery) await this.checkConfig();
    if (this.kicked || now >= this.nextDiscovery) {
      this.kicked = false;
      await this.discover();
      this.nextDiscovery = Date.now() + this.settings.discoveryIntervalMs;
    }
    let more = false;
    for (const f of [...this.files.values()]) {
      if (!this.running) break;
      if (f.nextAt > Date.now()) continue;
      if ((await this.step(f)) === 'more') more = true;
    }
    return more;
  }

  schedule(delay: number): void {
    if (!this.running) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), Math.max(0, delay));
    this.timer.unref?.();
  }

  private run(): void {
    this.timer = undefined;
    if (this.busy) { this.again = true; return; }
    this.busy = (async () => {
      let more = false;
      try { more = await this.pass(); } catch (e) { this.log.error('transcript watcher pass failed', { error: (e as Error).message }); }
      this.busy = null;
      if (!this.running) return;
      this.afterPass(more);
    })();
  }

  /** Wakes idle waiters when nothing is left to read, and schedules the next pass. */
  private afterPass(more: boolean): void {
    const { files } = this;
    const pendingRetry = [...files.values()].some((f) => f.failures > 0 || f.startAtEnd);
    if (!more && !this.again && !pendingRetry && !this.kicked) this.wakeIdle();
    let next = this.settings.pollIntervalMs;
    for (const f of files.values()) next = Math.min(next, Math.max(0, f.nextAt - Date.now()));
    next = Math.min(next, Math.max(0, this.nextDiscovery - Date.now()));
    this.schedule(more || this.again ? 0 : next);
    this.again = false;
  }

  private wakeIdle(): void {
    const w = this.idleWaiters;
    this.idleWaiters = [];
    w.forEach((r) => r());
  }

  /** Re-discover (new files, config) and make every file due. */
  private kick(): void {
    this.kicked = true;
    for (const f of this.files.values()) if (f.failures === 0) f.nextAt = 0;
    this.schedule(5);
  }

  /** An fs.watch event: a known file that changed is read at once; anything else triggers discovery. */
  private onFsEvent(dir: string, eventType: string, filename: string | Buffer | null): void {
    const f = filename ? this.files.get(join(dir, String(filename))) : undefined;
    if (eventType === 'change' && f) {
      if (f.failures === 0) f.nextAt = 0;
      this.schedule(2);
    } else {
      this.kick();
    }
  }

  private watchDir(dir: string, recursive = false): void {
    const fsWatchers = this.fsWatchers;
    if (!this.useFsWatch || fsWatchers.has(dir) || fsWatchers.size >= MAX_DIR_WATCHERS) return;
    try {
      const w = fsWatch(dir, { persistent: false, recursive }, (type, name) => this.onFsEvent(dir, type, name));
      w.on('error', () => { w.close(); fsWatchers.delete(dir); });
      fsWatchers.set(dir, w);
    } catch { /* not supported here or the directory is missing: polling covers it */ }
  }

  private refreshFsWatchers(): void {
    if (!this.useFsWatch) return;
    for (const w of this.fsWatchers.values()) w.close();
    this.fsWatchers.clear();
    this.watchDir(dirname(this.configPath));
    const recursive = process.platform === 'darwin' || process.platform === 'win32';
    for (const w of this.watches.values()) this.watchDir(w.glob.literal ? dirname(w.glob.base) : w.glob.base, recursive);
    if (process.platform === 'linux') for (const f of this.files.values()) this.watchDir(dirname(f.path));
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.fsWatchers.values()) w.close();
    this.fsWatchers.clear();
    if (this.busy) await this.busy;
    this.wakeIdle();
  }

  reload(): void {
    this.forceConfig = true;
    this.kick();
  }

  whenIdle(timeoutMs: number): Promise<boolean> {
    return new Promise<boolean>((resolve) => {
      const t = setTimeout(() => resolve(false), timeoutMs);
      this.idleWaiters.push(() => { clearTimeout(t); resolve(true); });
      this.kick();
    });
  }

  status(): WatcherStatus {
    const { files } = this;
    const count = new Map<string, number>();
    for (const f of files.values()) count.set(f.watch, (count.get(f.watch) ?? 0) + 1);
    return {
      running: this.running,
      configPath: this.configPath,
      configError: this.configError,
      watches: [...this.watches.values()].map((w) => ({
        name: w.watch.name, schema: w.watch.schema, path: w.watch.path, files: count.get(w.watch.name) ?? 0,
        subagentOnly: !!w.watch.subagentOnly, startAtEnd: !!w.watch.startAtEnd,
      })),
      files: [...files.values()].map((f) => ({
        path: f.path, watch: f.watch, offset: f.offset, size: f.size, compressed: f.compressed,
        ...(f.lastError ? { lastError: f.lastError } : {}),
        ...(f.retryAt ? { retryAt: new Date(f.retryAt).toISOString() } : {}),
      })),
      totals: { ...this.totals },
      lastScanAt: this.lastScanAt,
    };
  }
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
