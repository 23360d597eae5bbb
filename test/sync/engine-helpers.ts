/** In-process devices for sync tests that need many rows or exact interleavings: a store and a connection each. */
import type { CaptureEvent } from '../../src/shared/capture-event.js';
import type { SqliteStore } from '../../src/store/sqlite-store.js';
import { deviceId } from '../../src/worker/sync/engine.js';
import { Remote } from '../../src/worker/sync/remote.js';
import { openTemp } from '../store/fixtures.js';

export interface StoreDevice {
  name: string;
  store: SqliteStore;
  remote: Remote;
  id: string;
}

export async function storeDevice(name: string, url: string): Promise<StoreDevice> {
  const store = openTemp({ projectFor: () => 'github.com/acme/app' });
  const remote = await Remote.connect({ connectionString: url });
  await remote.migrate();
  const id = deviceId(store);
  await remote.registerDevice(id, name);
  return { name, store, remote, id };
}

export async function closeDevice(d: StoreDevice): Promise<void> {
  await d.remote.close();
  d.store.close();
}

const T0 = Date.parse('2026-01-05T09:00:00.000Z');

/** `n` captured events of `device`: sessions of a prompt and tool results, in capture order. */
export function captured(device: string, n: number, perSession = 50, from = 0): CaptureEvent[] {
  const out: CaptureEvent[] = [];
  for (let i = from; i < from + n; i++) {
    const sessionId = `${device}-s${Math.floor(i / perSession)}`;
    const at = new Date(T0 + i * 1000).toISOString();
    const base = { host: 'claude-code' as const, source: 'hook' as const, sessionId, cwd: `/home/${device}/app`, at };
    if (i % perSession === 0) out.push({ ...base, kind: 'prompt', prompt: `task ${i} on ${device}` });
    else {
      out.push({
        ...base, kind: 'tool_result', toolName: 'Bash', toolUseId: `toolu_${device}_${i}`,
        toolInput: { command: `make test-${i}` }, toolResponse: { stdout: `passed ${i} on ${device}`, stderr: '', exitCode: 0 },
      });
    }
  }
  return out;
}

/** Stores events in batches of 500 (as the worker's group commit would). */
export function ingestAll(store: SqliteStore, events: CaptureEvent[]): void {
  for (let i = 0; i < events.length; i += 500) store.ingest(events.slice(i, i + 500));
}

export function keys(store: SqliteStore, where = '1'): string[] {
  return (store as unknown as { db: { prepare(s: string): { pluck(): { all(): string[] } } } }).db
    .prepare(`SELECT idem_key FROM events WHERE ${where} ORDER BY idem_key`).pluck().all();
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
