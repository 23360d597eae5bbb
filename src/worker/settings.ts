/**
 * settings.json: the user's documented knobs, validated. Unknown keys are kept as they are
 * (later versions and other tools may add their own), and the file is never reset on error:
 * a clear message names the file and the bad key instead.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createHash } from 'node:crypto';
import { userInfo } from 'node:os';
import { z } from 'zod';
import type { DataPaths } from '../shared/paths.js';
import { writeFileAtomic } from '../shared/worker-start.js';
import { LOG_LEVELS } from './logger.js';

export const MIB = 1024 * 1024;

export const SettingsSchema = z.looseObject({
  /** The worker's port on 127.0.0.1, chosen once and kept. */
  port: z.number().int().min(1024).max(65535).optional(),
  /** Hard budget of a context hook (session start, prompt submit). */
  contextBudgetMs: z.number().int().min(50).max(60_000).default(1500),
  /** Token budget of one context injection (session start; a prompt's takes a third of it). */
  contextMaxTokens: z.number().int().min(100).max(20_000).default(1500),
  logLevel: z.enum(LOG_LEVELS).default('info'),
  /** Body limit of every route but /api/events. */
  maxBodyBytes: z.number().int().min(1024).max(256 * MIB).default(1 * MIB),
  /** Body limit of /api/events (capture batches). */
  maxEventsBodyBytes: z.number().int().min(1024).max(256 * MIB).default(8 * MIB),
  /** How often the worker looks for spooled capture. */
  spoolDrainIntervalMs: z.number().int().min(100).max(60_000).default(1000),
  /** How often the worker pulls from the sync database (when sync is set up). */
  syncPullIntervalMs: z.number().int().min(1000).max(3_600_000).default(30_000),
  /** How long session-start context may wait for a pull (bounded by a quarter of contextBudgetMs). */
  syncContextPullMs: z.number().int().min(0).max(5000).default(250),
});

export type Settings = z.infer<typeof SettingsSchema>;

export class SettingsError extends Error {
  readonly code = 'bad_settings';
}

function readRaw(paths: DataPaths): Record<string, unknown> | undefined {
  let text: string;
  try {
    text = readFileSync(paths.settings, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new SettingsError(`cannot read ${paths.settings}: ${(err as Error).message}`);
  }
  if (!text.trim()) return {};
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    throw new SettingsError(`${paths.settings} is not valid JSON (${(err as Error).message}); fix or remove the file`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new SettingsError(`${paths.settings} must hold a JSON object`);
  return raw as Record<string, unknown>;
}

function validate(paths: DataPaths, raw: Record<string, unknown>): Settings {
  const parsed = SettingsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const key = issue.path.join('.') || '(root)';
    throw new SettingsError(`${paths.settings}: "${key}" ${issue.message}`);
  }
  return parsed.data;
}

/** Settings with defaults filled in; a missing file means all defaults. Throws SettingsError. */
export function loadSettings(paths: DataPaths): Settings {
  return validate(paths, readRaw(paths) ?? {});
}

/** Merges `patch` into the stored file (unknown keys kept), validates, writes atomically (0600). */
export function updateSettings(paths: DataPaths, patch: Record<string, unknown>): Settings {
  const raw = { ...(readRaw(paths) ?? {}), ...patch };
  const settings = validate(paths, raw);
  writeFileAtomic(paths.settings, `${JSON.stringify(raw, null, 2)}\n`);
  return settings;
}

/** Creates settings.json with its defaults written out when it does not exist. True when created. */
export function ensureSettingsFile(paths: DataPaths): boolean {
  if (readRaw(paths) !== undefined) return false;
  const defaults = validate(paths, {});
  writeFileAtomic(paths.settings, `${JSON.stringify(defaults, null, 2)}\n`);
  return true;
}

/**
 * A per-user, per-data-directory port outside Linux's ephemeral range (so outgoing connections
 * never take it while the worker is stopped).
 */
export function candidatePort(root: string): number {
  let user = '';
  try {
    user = String(userInfo().uid);
  } catch {
    // No user database entry (containers): the data directory alone decides.
  }
  const h = createHash('sha256').update(`${user}\0${root}`).digest().readUInt32BE(0);
  return 20_000 + (h % 10_000);
}

/** True when 127.0.0.1:port can be bound right now. */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/** A free port: the deterministic candidate if free, else one the kernel picks. */
export async function chooseFreePort(root: string): Promise<number> {
  const candidate = candidatePort(root);
  if (await portFree(candidate)) return candidate;
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** The stored port, choosing and persisting one when there is none. */
export async function ensurePort(paths: DataPaths): Promise<number> {
  const s = loadSettings(paths);
  if (s.port) return s.port;
  const port = await chooseFreePort(paths.root);
  updateSettings(paths, { port });
  return port;
}
