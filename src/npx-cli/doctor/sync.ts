/**
 * Sync checks (only when sync is set up): the connection, the remote schema's version, how far
 * behind this machine is, and the last error the worker met.
 */
import { clientConfig, readConnection, readSyncConfig } from '../../worker/sync/config.js';
import { isSyncStore } from '../../worker/sync/engine.js';
import { parseCursor, Remote } from '../../worker/sync/remote.js';
import { REMOTE_SCHEMA_VERSION } from '../../worker/sync/remote-schema.js';
import { errorText } from '../../worker/sync/service.js';
import { syncStatus } from '../../worker/sync/status.js';
import type { DoctorContext } from './context.js';
import type { Check } from './types.js';

const STALE_MS = 10 * 60_000;
const CONNECT_BOX_MS = 8000;

const ago = (iso: string | null): number => (iso ? Date.now() - Date.parse(iso) : Infinity);

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)))])
    .finally(() => clearTimeout(timer));
}

export async function syncChecks(ctx: DoctorContext): Promise<Check[]> {
  let config: ReturnType<typeof readSyncConfig>;
  try {
    config = readSyncConfig(ctx.paths);
  } catch (e) {
    return [{ id: 'sync.config', area: 'sync', status: 'fail', evidence: (e as Error).message, fix: 'claude-mem sync setup <database>' }];
  }
  if (!config) return [];
  const { store } = await ctx.store();
  const local = syncStatus(ctx.paths, isSyncStore(store) ? store : undefined);
  const checks: Check[] = [];
  let remote: Remote | undefined;
  try {
    remote = await withTimeout(Remote.connect(clientConfig(readConnection(ctx.paths))), CONNECT_BOX_MS, 'connecting');
    checks.push({ id: 'sync.connection', area: 'sync', status: 'ok', evidence: `${config.target} answers; signed in as ${remote.member}` });
    checks.push(await schemaCheck(remote));
    checks.push(await lagCheck(remote, local, config.paused));
  } catch (e) {
    checks.push({
      id: 'sync.connection', area: 'sync', status: 'fail', evidence: `${config.target}: ${errorText(e)}`,
      fix: 'Check that the database runs and this machine may reach it; capture goes on locally meanwhile (claude-mem sync status shows what waits).',
    });
  } finally {
    await remote?.close();
  }
  checks.push(local.lastError
    ? { id: 'sync.last-error', area: 'sync', status: 'warn', evidence: `last sync error (${local.lastErrorAt}): ${local.lastError}`, fix: 'claude-mem sync now' }
    : { id: 'sync.last-error', area: 'sync', status: 'ok', evidence: local.lastOkAt ? `last successful sync ${local.lastOkAt}` : 'no sync error recorded' });
  return checks;
}

async function schemaCheck(remote: Remote): Promise<Check> {
  const v = await remote.schemaVersion();
  if (v === REMOTE_SCHEMA_VERSION) return { id: 'sync.schema', area: 'sync', status: 'ok', evidence: `remote schema version ${v}` };
  if (v > REMOTE_SCHEMA_VERSION) {
    return { id: 'sync.schema', area: 'sync', status: 'fail', evidence: `remote schema version ${v} is newer than this claude-mem (${REMOTE_SCHEMA_VERSION})`, fix: 'Upgrade claude-mem on this machine.' };
  }
  return {
    id: 'sync.schema', area: 'sync', status: 'warn', evidence: `remote schema version ${v}, this claude-mem uses ${REMOTE_SCHEMA_VERSION}: the next sync migrates it`,
    fix: 'claude-mem sync now (a role that may not change the schema needs the database owner to run claude-mem sync setup once)',
  };
}

async function lagCheck(remote: Remote, local: ReturnType<typeof syncStatus>, paused: boolean): Promise<Check> {
  const behind = local.device.id ? await remote.behind(local.device.id, parseCursor(local.pullCursor ?? undefined)) : 0;
  const evidence = `${local.pending} event(s) to push (last push ${local.lastPushAt ?? 'never'}), ${behind} on the server to pull (last pull ${local.lastPullAt ?? 'never'})`;
  if (paused) return { id: 'sync.lag', area: 'sync', status: 'warn', evidence: `paused; ${evidence}`, fix: 'claude-mem sync resume' };
  const stale = (local.pending > 0 && ago(local.lastPushAt) > STALE_MS) || (behind > 0 && ago(local.lastPullAt) > STALE_MS);
  return stale
    ? { id: 'sync.lag', area: 'sync', status: 'warn', evidence: `behind: ${evidence}`, fix: 'claude-mem sync now' }
    : { id: 'sync.lag', area: 'sync', status: 'ok', evidence };
}
