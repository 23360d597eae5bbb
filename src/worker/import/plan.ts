/**
 * What an import would read: per host, the logs its history sources find, narrowed by time
 * (`since`: logs written to since then) and project (the log's working directory inside it).
 * Nothing is written; the dry run and the installer's offer show exactly this.
 */
import { open } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { HostId } from '../../shared/hosts.js';
import type { Env } from '../../shared/paths.js';
import { compileSchema, fileInfo, type CompiledSchema, type FileState } from '../../transcripts/engine.js';
import { historySourcesFor, type HistoryLog, type HistorySource } from '../../transcripts/history.js';
import { loadShippedSchemas } from '../../transcripts/shipped.js';

export interface PlannedHost {
  host: HostId;
  sources: Array<{ source: HistorySource; logs: HistoryLog[] }>;
  sessions: number;
  bytes: number;
  verified: boolean;
}

interface PlanFilter {
  hosts: readonly HostId[];
  /** Only logs written to at or after this time (ms since the epoch). */
  sinceMs?: number;
  /** Only sessions whose working directory is this directory or inside it. */
  project?: string;
  env: Env;
}

/** Bytes read from the start of a log to learn its working directory (`--project`). */
const PEEK_BYTES = 256 * 1024;

export async function planImport(f: PlanFilter): Promise<PlannedHost[]> {
  const byHost = new Map<HostId, PlannedHost>();
  for (const source of historySourcesFor(f.hosts)) {
    let logs = await source.findLogs(f.env);
    if (f.sinceMs !== undefined) logs = logs.filter((l) => l.mtimeMs >= f.sinceMs!);
    if (f.project) logs = await inProject(logs, source, resolve(f.project));
    const h = byHost.get(source.host) ?? { host: source.host, sources: [], sessions: 0, bytes: 0, verified: true };
    h.sources.push({ source, logs });
    h.sessions += logs.length;
    h.bytes += logs.reduce((n, l) => n + l.bytes, 0);
    h.verified &&= source.verified;
    byHost.set(source.host, h);
  }
  return f.hosts.filter((h) => byHost.has(h)).map((h) => byHost.get(h)!);
}

function within(dir: string, project: string): boolean {
  const rel = relative(project, dir);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

async function inProject(logs: HistoryLog[], source: HistorySource, project: string): Promise<HistoryLog[]> {
  const out: HistoryLog[] = [];
  let schema: CompiledSchema | undefined;
  for (const log of logs) {
    let cwd = log.cwd;
    if (!cwd && log.path === log.key) {
      schema ??= compileSchema(source.schema, loadShippedSchemas().schemas[source.schema]);
      cwd = await peekCwd(log.path, schema);
    }
    // A log whose directory cannot be told is left out: --project promises only that project.
    if (cwd && within(cwd, project)) out.push({ ...log, cwd });
  }
  return out;
}

/** The working directory a log's first records give its session (through its schema, storing nothing). */
async function peekCwd(path: string, schema: CompiledSchema): Promise<string | undefined> {
  let fh;
  try { fh = await open(path, 'r'); } catch { return undefined; }
  try {
    const buf = Buffer.alloc(PEEK_BYTES);
    const { bytesRead } = await fh.read(buf, 0, PEEK_BYTES, 0);
    const lines = buf.toString('utf8', 0, bytesRead).split('\n');
    if (bytesRead === PEEK_BYTES) lines.pop(); // the last line may be cut
    const state: FileState = { context: {}, pending: {} };
    const info = fileInfo(path);
    for (const line of lines) {
      if (!line.trim()) continue;
      let record: unknown;
      try { record = JSON.parse(line); } catch { continue; }
      if (!record || typeof record !== 'object') continue;
      try { schema.evaluate(record, state, info, { contextOnly: true }); } catch { continue; }
      if (typeof state.context.cwd === 'string') return state.context.cwd;
    }
    return undefined;
  } finally {
    await fh.close().catch(() => undefined);
  }
}
