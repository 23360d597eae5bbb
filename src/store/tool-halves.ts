/**
 * A tool call arrives in two halves (tool_use, tool_result). The second one to be stored takes
 * its privacy from the first and merges with it into one observation, so each half needs the
 * other one as stored: from before the batch (all of them looked up in one query) or from the
 * batch itself.
 */
import type Database from 'better-sqlite3';
import type { CaptureEvent, CaptureKind } from '../shared/capture-event.js';
import { toolEventKey } from '../shared/event-key.js';

/** A stored half, as the table holds it. */
export interface StoredHalf {
  payload: string;
  dropped: string | null;
}

/** The key of the other half of a tool event with a native id. */
export function siblingKey(e: Pick<CaptureEvent, 'host' | 'sessionId' | 'toolUseId' | 'kind'>): string {
  return toolEventKey(e, e.kind === 'tool_use' ? 'tool_result' : 'tool_use');
}

const isToolKind = (kind: CaptureKind | undefined): boolean => kind === 'tool_use' || kind === 'tool_result';

export class ToolHalves {
  private readonly byKey: Database.Statement;
  private readonly byKeys: Database.Statement;
  /** Found before the batch began, or null: not stored then. */
  private readonly before = new Map<string, StoredHalf | null>();
  /** Stored by the batch. */
  private readonly stored = new Map<string, StoredHalf>();

  constructor(db: Database.Database) {
    this.byKey = db.prepare('SELECT payload, dropped FROM events WHERE idem_key = ?');
    this.byKeys = db.prepare('SELECT idem_key AS key, payload, dropped FROM events WHERE idem_key IN (SELECT value FROM json_each(?))');
  }

  /** Starts a batch: finds, in one query, the other half of each of its tool events already stored. */
  startBatch(events: readonly unknown[]): void {
    this.before.clear();
    this.stored.clear();
    for (const raw of events) {
      const e = raw as CaptureEvent | null;
      if (isToolKind(e?.kind) && e?.toolUseId) this.before.set(siblingKey(e), null);
    }
    if (!this.before.size) return;
    const rows = this.byKeys.all(JSON.stringify([...this.before.keys()])) as Array<StoredHalf & { key: string }>;
    for (const r of rows) this.before.set(r.key, { payload: r.payload, dropped: r.dropped });
  }

  /** After a savepoint rolled an event back, what the batch stored is uncertain: ask the table again. */
  forget(): void {
    this.before.clear();
    this.stored.clear();
  }

  remember(key: string, half: StoredHalf): void {
    this.stored.set(key, half);
  }

  find(key: string): StoredHalf | undefined {
    const known = this.stored.get(key) ?? this.before.get(key);
    if (known !== undefined) return known ?? undefined;
    return this.byKey.get(key) as StoredHalf | undefined;
  }
}
