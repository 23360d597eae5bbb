/**
 * The live feed: server-sent events. While at least one page listens, the worker looks for rows
 * stored after the last ones sent (by id, whatever stored them: hooks, the spool drain, the
 * transcript watcher) a few times a second and sends them to every listener.
 */
import type { ServerResponse } from 'node:http';
import type { FeedCursor, ViewerReader } from '../../store/types.js';
import { SECURITY_HEADERS } from './respond.js';

const POLL_MS = 400;
const HEARTBEAT_MS = 15_000;
const MAX_LISTENERS = 32;

export class FeedStream {
  private readonly listeners = new Set<ServerResponse>();
  private cursor: FeedCursor | undefined;
  private timer: NodeJS.Timeout | undefined;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly reads: () => ViewerReader, private readonly onError: (err: unknown) => void) {}

  /** Starts streaming to `res`; false when too many pages listen already. */
  add(res: ServerResponse): boolean {
    if (this.listeners.size >= MAX_LISTENERS) return false;
    res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': 'text/event-stream; charset=utf-8', connection: 'keep-alive' });
    res.write('retry: 2000\n\n');
    this.listeners.add(res);
    res.on('close', () => {
      this.listeners.delete(res);
      if (!this.listeners.size) this.stop();
    });
    if (!this.timer) {
      this.cursor = this.reads().cursor();
      this.timer = setInterval(() => this.poll(), POLL_MS);
      this.heartbeat = setInterval(() => this.broadcast(': ping\n\n'), HEARTBEAT_MS);
    }
    return true;
  }

  private poll(): void {
    try {
      const was = this.cursor ?? this.reads().cursor();
      const rows = this.reads().feed(was, 200);
      if (!rows.length) return;
      const next = { ...was };
      for (const r of rows) next[r.kind] = Math.max(next[r.kind], r.id);
      this.cursor = next;
      this.broadcast(`event: rows\ndata: ${JSON.stringify(rows.reverse())}\n\n`);
    } catch (err) {
      // A busy or failing database: the next poll tries again.
      this.onError(err);
    }
  }

  private broadcast(chunk: string): void {
    for (const res of this.listeners) res.write(chunk);
  }

  private stop(): void {
    clearInterval(this.timer);
    clearInterval(this.heartbeat);
    this.timer = undefined;
    this.heartbeat = undefined;
  }

  /** Ends every stream (the worker is stopping). */
  close(): void {
    this.stop();
    for (const res of this.listeners) res.end();
    this.listeners.clear();
  }
}
