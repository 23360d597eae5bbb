/**
 * Sync's local configuration: `sync.json` (the team, this device's name, paused or not) and the
 * connection in `sync.secret` (mode 0600, like the worker token). The connection is never written
 * to settings.json nor to a log: what status, doctor and logs show is `describeTarget`'s form,
 * without the password.
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { homeDir, type DataPaths, type Env } from '../../shared/paths.js';
import { writeFileAtomic } from '../../shared/worker-start.js';

export interface SyncConfig {
  /** The team role projects are shared with, if any. */
  team: string | null;
  deviceName: string;
  paused: boolean;
  /** The target as shown (no password). */
  target: string;
}

export class SyncConfigError extends Error {}

function syncFiles(paths: DataPaths): { config: string; secret: string } {
  return { config: join(paths.root, 'sync.json'), secret: join(paths.root, 'sync.secret') };
}

export function defaultDeviceName(): string {
  return hostname().split('.')[0] || 'device';
}

/** The configuration, or undefined when sync is not set up. Throws SyncConfigError on a damaged file. */
export function readSyncConfig(paths: DataPaths): SyncConfig | undefined {
  const { config, secret } = syncFiles(paths);
  if (!existsSync(config)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(config, 'utf8'));
  } catch (err) {
    throw new SyncConfigError(`${config} is not valid JSON (${(err as Error).message}); run 'claude-mem sync setup' again`);
  }
  const o = raw as Record<string, unknown>;
  if (!o || typeof o !== 'object' || typeof o.deviceName !== 'string' || typeof o.target !== 'string') {
    throw new SyncConfigError(`${config} is incomplete; run 'claude-mem sync setup' again`);
  }
  if (!existsSync(secret)) throw new SyncConfigError(`${secret} is missing; run 'claude-mem sync setup' again`);
  return { team: typeof o.team === 'string' ? o.team : null, deviceName: o.deviceName, paused: o.paused === true, target: o.target };
}

/** Writes both files (the secret first, 0600). `connection` is what `sync setup` was given. */
export function writeSyncConfig(paths: DataPaths, config: SyncConfig, connection?: string): void {
  const files = syncFiles(paths);
  // The existing file's unknown keys survive (a later version may add some).
  let existing: Record<string, unknown> = {};
  try {
    existing = JSON.parse(readFileSync(files.config, 'utf8')) as Record<string, unknown>;
  } catch {
    existing = {};
  }
  if (connection !== undefined) writeFileAtomic(files.secret, `${connection}\n`, 0o600);
  writeFileAtomic(files.config, `${JSON.stringify({ ...existing, ...config }, null, 2)}\n`, 0o600);
}

export function removeSyncConfig(paths: DataPaths): void {
  const files = syncFiles(paths);
  rmSync(files.secret, { force: true });
  rmSync(files.config, { force: true });
}

/** When the configuration last changed (the worker reloads it then). */
export function configStamp(paths: DataPaths): string {
  const files = syncFiles(paths);
  return [files.config, files.secret].map((f) => statSync(f, { throwIfNoEntry: false })?.mtimeMs ?? 0).join(':');
}

export function readConnection(paths: DataPaths): string {
  return readFileSync(syncFiles(paths).secret, 'utf8').trim();
}

/**
 * pg's client settings for a connection: a postgres:// URL (TLS options such as sslmode and
 * sslrootcert included), or `service=<name>` from the libpq service file.
 */
export function clientConfig(connection: string, env: Env = process.env): pg.ClientConfig {
  const service = /^service=([A-Za-z0-9_.-]+)$/.exec(connection.trim());
  if (!service) {
    if (!/^postgres(ql)?:\/\//.test(connection)) {
      throw new SyncConfigError('the database must be given as postgres://user:password@host:port/database (TLS options as ?sslmode=…) or service=<name>');
    }
    return { connectionString: connection };
  }
  return serviceConfig(service[1], env);
}

function serviceFilePaths(env: Env): string[] {
  const files: string[] = [];
  if (env.PGSERVICEFILE) files.push(env.PGSERVICEFILE);
  files.push(join(homeDir(env), '.pg_service.conf'));
  if (env.PGSYSCONFDIR) files.push(join(env.PGSYSCONFDIR, 'pg_service.conf'));
  return files;
}

/** A libpq service file entry (INI: `[name]` then key=value lines). */
function serviceConfig(name: string, env: Env): pg.ClientConfig {
  for (const file of serviceFilePaths(env)) {
    if (!existsSync(file)) continue;
    const entry = parseServiceFile(readFileSync(file, 'utf8'))[name];
    if (!entry) continue;
    const keys = Object.keys(entry);
    const known = new Set(['host', 'hostaddr', 'port', 'dbname', 'user', 'password', 'sslmode', 'sslrootcert', 'sslcert', 'sslkey', 'application_name']);
    const unknown = keys.filter((k) => !known.has(k));
    if (unknown.length) throw new SyncConfigError(`service "${name}" in ${file} uses ${unknown.join(', ')}, which claude-mem does not read`);
    const params = new URLSearchParams();
    for (const k of ['sslmode', 'sslrootcert', 'sslcert', 'sslkey']) if (entry[k]) params.set(k, entry[k]!);
    const host = entry.hostaddr ?? entry.host ?? 'localhost';
    const url = new URL('postgres://placeholder');
    url.hostname = host.startsWith('/') ? '' : host;
    if (host.startsWith('/')) params.set('host', host);
    if (entry.port) url.port = entry.port;
    url.pathname = `/${encodeURIComponent(entry.dbname ?? entry.user ?? '')}`;
    if (entry.user) url.username = encodeURIComponent(entry.user);
    if (entry.password) url.password = encodeURIComponent(entry.password);
    url.search = params.toString();
    return { connectionString: url.toString().replace('postgres://placeholder', 'postgres://') };
  }
  throw new SyncConfigError(`no service "${name}" in ${serviceFilePaths(env).join(', ')}`);
}

function parseServiceFile(text: string): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  let current: Record<string, string> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const section = /^\[(.+)\]$/.exec(line);
    if (section) {
      current = out[section[1].trim()] = {};
      continue;
    }
    const eq = line.indexOf('=');
    if (current && eq > 0) current[line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return out;
}

/** The connection as it may be shown: user, host, port, database; never the password. */
export function describeTarget(connection: string): string {
  const service = /^service=(.+)$/.exec(connection.trim());
  if (service) return `service ${service[1]}`;
  try {
    const u = new URL(connection);
    const host = u.hostname || u.searchParams.get('host') || 'localhost';
    const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
    return `postgres://${user}${host}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return 'postgres (unparseable address)';
  }
}
