/**
 * Observation rows of a batch on the fast path. The first half of a tool call makes a row that
 * its second half, when it comes in the same batch, rewrites with the merged view: queued, the
 * row is rewritten in memory and inserted once, instead of inserted, looked up and updated.
 * Rows are inserted in the order they were made, as soon as every row before them is final, so
 * each gets the id it would have had if inserted at once.
 */
import type { HostId } from '../shared/hosts.js';

/** An observation's stored text: JSON lists already serialized, as they go to the row and the index. */
export interface ObservationText {
  type: string;
  title: string;
  subtitle: string | null;
  narrative: string;
  facts: string;
  filesRead: string;
  filesModified: string;
  concepts: string;
  toolName: string | null;
  tags: string;
}

export interface ObservationRow {
  session: { id: number; project: string };
  eventId: number | null;
  host: HostId;
  promptNumber: number | null;
  text: ObservationText;
  toolUseId: string | null;
  at: string;
}

interface Queued extends ObservationRow {
  /** The batch event that made the row (for the failure it may cause). */
  index: number;
  /** No later event of the batch can rewrite it. */
  final: boolean;
}

export class ObservationQueue {
  private rows: Queued[] = [];
  private next = 0;
  private readonly open = new Map<string, Queued>();

  /** `insert` writes a row; a failure is thrown as `fail(index of the event that made it, error)`. */
  constructor(
    private readonly insert: (row: ObservationRow) => void,
    private readonly fail: (index: number, err: unknown) => Error,
  ) {}

  /** Queues a row made by the batch's event `index`; a first half still `open` waits for `complete`. */
  add(row: ObservationRow, index: number, open: boolean): void {
    const queued: Queued = { ...row, index, final: !open };
    this.rows.push(queued);
    if (open && row.toolUseId) this.open.set(toolKey(row.session.id, row.toolUseId), queued);
    this.insertReady();
  }

  /** Gives the queued first half of a tool call its merged text; false when none is queued. */
  complete(sessionId: number, toolUseId: string, text: ObservationText): boolean {
    const key = toolKey(sessionId, toolUseId);
    const row = this.open.get(key);
    if (!row) return false;
    this.open.delete(key);
    row.text = text;
    row.final = true;
    this.insertReady();
    return true;
  }

  /** Inserts every queued row: before anything reads the table, and at the end of the batch. */
  insertAll(): void {
    this.insertWhile(() => true);
  }

  clear(): void {
    this.rows = [];
    this.next = 0;
    this.open.clear();
  }

  private insertReady(): void {
    this.insertWhile((row) => row.final);
  }

  private insertWhile(ready: (row: Queued) => boolean): void {
    while (this.next < this.rows.length && ready(this.rows[this.next])) {
      const row = this.rows[this.next++];
      if (row.toolUseId) this.open.delete(toolKey(row.session.id, row.toolUseId));
      try {
        this.insert(row);
      } catch (err) {
        throw this.fail(row.index, err);
      }
    }
    if (this.next === this.rows.length) this.clear();
  }
}

const toolKey = (sessionId: number, toolUseId: string): string => `${sessionId}\u0000${toolUseId}`;
